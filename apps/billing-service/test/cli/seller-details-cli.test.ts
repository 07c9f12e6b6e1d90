/**
 * `drawdown accounts seller-details show|set|clear` as an operator runs it (ADR 1106): the built
 * binary against SQLite and PostgreSQL. Without --env it sets both environments; a logo file is
 * checked by decoding it (a text file named .png is refused, nothing changes); clear empties them.
 * Most commands run through the binary's entry function in this process (`runCliInProcess`, ADR
 * 0926); the migration, the logo commands and the usage refusal run as real processes.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestStorage, ENGINES, type TestStorage } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildService, jsonOutput, runCli, runCliInProcess, storageFlags } from '../support/cli-process.js';
import { pngFile } from '../support/images.js';

beforeAll(() => buildService(), 120_000);
// A few separate processes per engine: on a loaded machine that can take longer than the suite's 30 s default.
vi.setConfig({ testTimeout: 120_000 });

describe.each(ENGINES)('%s: drawdown accounts seller-details', (engine) => {
  let storage: TestStorage;
  let storageArgs: string[];
  const cli = (...args: string[]) => runCliInProcess([...args, ...storageArgs]);
  const spawned = (...args: string[]) => runCli([...args, ...storageArgs]);

  beforeAll(async () => {
    storage = await createTestStorage(engine);
    storageArgs = storageFlags(storage);
    expect((await spawned('migrate')).code).toBe(0);
  });
  afterAll(() => storage.dispose());

  it('sets both environments, refuses a file that is not an image, and clears', async () => {
    const account = (jsonOutput(await cli('accounts', 'create', '--name', 'Shop', '--json')).account as { id: string })
      .id;
    const logo = join(storage.dataDir, 'logo.png');
    writeFileSync(logo, pngFile(120, 40));
    // The logo commands run as processes too: a logo is decoded on a document thread, which in this
    // process would load the TypeScript sources instead of the build (seconds per command).
    const set = await spawned(
      'accounts',
      'seller-details',
      'set',
      '--account',
      account,
      '--legal-name',
      'Shop Ltd',
      '--first-line',
      '1 High Street',
      '--city',
      'Leeds',
      '--postal-code',
      'LS1 1AA',
      '--country',
      'GB',
      '--tax-id',
      'GB999999973',
      '--email',
      'billing@shop.example',
      '--logo',
      logo,
      '--json',
    );
    expect(set.code, set.stderr).toBe(0);
    const both = jsonOutput(set).seller_details as Record<string, Record<string, unknown>>;
    for (const environment of ['live', 'sandbox']) {
      expect(both[environment], environment).toMatchObject({
        legalName: 'Shop Ltd',
        address: { firstLine: '1 High Street', city: 'Leeds', postalCode: 'LS1 1AA', countryCode: 'GB' },
        taxIdentifier: 'GB999999973',
        companyNumber: null,
        email: 'billing@shop.example',
        logo: { contentType: 'image/png', width: 120, height: 40 },
      });
    }

    const fake = join(storage.dataDir, 'fake.png');
    writeFileSync(fake, 'not a picture, whatever the name says');
    const refused = await spawned(
      'accounts',
      'seller-details',
      'set',
      '--account',
      account,
      '--env',
      'live',
      '--legal-name',
      'Other',
      '--logo',
      fake,
      '--json',
    );
    expect(refused.code).toBe(1);
    expect((jsonOutput(refused).error as { code: string }).code).toBe('invalid_logo');

    const live = jsonOutput(
      await cli('accounts', 'seller-details', 'show', '--account', account, '--env', 'live', '--json'),
    );
    expect((live.seller_details as Record<string, { legalName: string }>).live?.legalName).toBe('Shop Ltd');

    const cleared = await cli('accounts', 'seller-details', 'clear', '--account', account, '--env', 'sandbox');
    expect(cleared.code, cleared.stderr).toBe(0);
    expect(cleared.stdout).toContain('not set (documents show the account name)');
    const after = jsonOutput(await cli('accounts', 'seller-details', 'show', '--account', account, '--json'));
    const shown = after.seller_details as Record<string, { legalName: string | null; logo: unknown }>;
    expect(shown.sandbox).toMatchObject({ legalName: null, logo: null });
    expect(shown.live?.legalName).toBe('Shop Ltd');

    const usage = await spawned('accounts', 'seller-details', 'set', '--account', account, '--env', 'staging');
    expect(usage.code).toBe(2);
  });

  it('sets the bank details and the tax currency, refuses a bad IBAN changing nothing, and removes them (ADR 1110)', async () => {
    const account = (jsonOutput(await cli('accounts', 'create', '--name', 'Bank', '--json')).account as { id: string })
      .id;
    const set = await cli(
      ...['accounts', 'seller-details', 'set', '--account', account, '--env', 'live'],
      ...['--iban', 'GB82 WEST 1234 5698 7654 32', '--bic', 'nwbkgb2l', '--account-name', 'Bank Ltd'],
      ...['--payment-text', 'Quote the invoice number.', '--tax-currency', 'gbp', '--json'],
    );
    expect(set.code, set.stderr).toBe(0);
    expect((jsonOutput(set).seller_details as Record<string, unknown>).live).toMatchObject({
      paymentInstructions: {
        iban: 'GB82WEST12345698765432',
        bic: 'NWBKGB2L',
        accountName: 'Bank Ltd',
        text: 'Quote the invoice number.',
      },
      taxCurrency: 'GBP',
    });
    const shown = await cli('accounts', 'seller-details', 'show', '--account', account, '--env', 'live');
    expect(shown.stdout).toContain('IBAN GB82WEST12345698765432');
    const refused = await cli(
      ...['accounts', 'seller-details', 'set', '--account', account, '--env', 'live'],
      ...['--iban', 'GB83WEST12345698765432', '--json'],
    );
    expect(refused.code).toBe(1);
    expect((jsonOutput(refused).error as { code: string }).code).toBe('invalid_field');
    const kept = jsonOutput(
      await cli('accounts', 'seller-details', 'show', '--account', account, '--env', 'live', '--json'),
    );
    expect(
      (kept.seller_details as Record<string, { paymentInstructions: { iban: string } }>).live?.paymentInstructions.iban,
    ).toBe('GB82WEST12345698765432');
    const removed = await cli(
      ...['accounts', 'seller-details', 'set', '--account', account, '--env', 'live'],
      ...['--remove-payment-instructions', '--tax-currency', 'none', '--json'],
    );
    expect((jsonOutput(removed).seller_details as Record<string, unknown>).live).toMatchObject({
      paymentInstructions: null,
      taxCurrency: null,
    });
    // The checkout's links (ADR 1113): http(s) only, `none` removes one.
    const linked = await cli(
      ...['accounts', 'seller-details', 'set', '--account', account, '--env', 'live'],
      ...['--terms-url', 'https://bank.example/terms', '--privacy-url', 'https://bank.example/privacy'],
      ...['--refund-policy-url', 'https://bank.example/refunds', '--contact-url', 'https://bank.example/contact'],
      '--json',
    );
    expect(linked.code, linked.stderr).toBe(0);
    expect((jsonOutput(linked).seller_details as Record<string, unknown>).live).toMatchObject({
      termsUrl: 'https://bank.example/terms',
      privacyUrl: 'https://bank.example/privacy',
      refundPolicyUrl: 'https://bank.example/refunds',
      contactUrl: 'https://bank.example/contact',
    });
    const badLink = await cli(
      ...['accounts', 'seller-details', 'set', '--account', account, '--env', 'live'],
      ...['--terms-url', 'javascript:alert(1)', '--json'],
    );
    expect(badLink.code).toBe(1);
    expect((jsonOutput(badLink).error as { code: string }).code).toBe('invalid_field');
    const unlinked = await cli(
      ...['accounts', 'seller-details', 'set', '--account', account, '--env', 'live'],
      ...['--terms-url', 'none', '--json'],
    );
    expect((jsonOutput(unlinked).seller_details as Record<string, unknown>).live).toMatchObject({
      termsUrl: null,
      privacyUrl: 'https://bank.example/privacy',
    });
  });
});
