/**
 * Seller details (ADR 1106) through `GET/PATCH /seller-details`, on both engines: set per
 * account environment, shown on invoices and credit notes (checked on the text PDF.js extracts,
 * in the customer's language), the logo drawn as a tagged figure with its text alternative.
 * A logo is what its bytes decode to: text renamed to PNG, a truncated or corrupted PNG, a GIF,
 * and images too small are refused with `invalid_logo`, and nothing changes. A logo whose header
 * declares more than the limits (ADR 1490) is refused with `logo_too_large` before any decoding:
 * the document threads never receive it. One whose image data inflates past what its header
 * declares is refused by the bounded inflate.
 */
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import type { Paddle } from '@paddle/paddle-node-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, expectError, harnessClients } from '../support/api-client.js';
import { hugeDeclaredJpeg, hugeDeclaredPng, inflationBombPng } from '../support/image-bombs.js';
import { jpegFile, LOGO_PNG_BASE64, pngFile } from '../support/images.js';
import { officialSdk } from '../support/official-sdk.js';
import { pdfStructure, pdfText, rolesOf, type StructNode } from './pdf-text.js';
import { createBuyer, createOneOffPrice, readyTransaction, totalsOf } from './transaction-fixtures.js';

const SELLER = {
  legal_name: 'Analytical Engines GmbH',
  address: {
    first_line: 'Friedrichstraße 10',
    second_line: null,
    city: 'Berlin',
    postal_code: '10117',
    region: null,
    country_code: 'DE',
  },
  tax_identifier: 'DE123456789',
  company_number: 'HRB 987654',
  email: 'billing@engines.example',
};

function figures(node: StructNode | null): StructNode[] {
  if (!node) return [];
  return [...(node.role === 'Figure' ? [node] : []), ...(node.children ?? []).flatMap(figures)];
}

describe.each(ENGINES)('%s: seller details', (engine) => {
  let harness: BillingHarness;
  let sandbox: ApiClient;
  let live: ApiClient;
  let paddle: Paddle;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine });
    ({ sandbox, live } = harnessClients(harness));
    paddle = officialSdk(harness.sandboxKey, harness.sandboxUrl);
    await sandbox.patch('/tax-settings', { country_rates: [{ country_code: 'DE', rate: '0.19' }] });
  });
  afterAll(() => harness.close());

  it('sets the seller of one environment, changing only the fields given', async () => {
    const empty = await live.get('/seller-details');
    expect(empty.status, empty.text).toBe(200);
    expect(empty.entity).toEqual({
      legal_name: null,
      address: null,
      tax_identifier: null,
      company_number: null,
      email: null,
      logo: null,
      payment_instructions: null,
      tax_currency: null,
      reference_rates: [],
      terms_url: null,
      privacy_url: null,
      refund_policy_url: null,
      contact_url: null,
      updated_at: null,
    });

    const set = await sandbox.patch('/seller-details', { ...SELLER, logo: { data: LOGO_PNG_BASE64 } });
    expect(set.status, set.text).toBe(200);
    expect(set.entity).toMatchObject({
      ...SELLER,
      logo: {
        content_type: 'image/png',
        width: 240,
        height: 80,
        size_bytes: Buffer.from(LOGO_PNG_BASE64, 'base64').length,
      },
    });
    expect(set.entity.updated_at).toEqual(expect.any(String));

    // Only the email changes; a JPEG replaces the PNG.
    const jpeg = jpegFile(64, 64);
    const changed = await sandbox.patch('/seller-details', {
      email: 'accounts@engines.example',
      logo: { data: jpeg.toString('base64') },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.entity).toMatchObject({
      ...SELLER,
      email: 'accounts@engines.example',
      logo: { content_type: 'image/jpeg', width: 64, height: 64, size_bytes: jpeg.length },
    });
    // The live environment's seller is its own.
    expect((await live.get('/seller-details')).entity.legal_name).toBeNull();

    const back = await sandbox.patch('/seller-details', { email: SELLER.email, logo: { data: LOGO_PNG_BASE64 } });
    expect(back.status, back.text).toBe(200);
  });

  it('prints the seller on the invoice and the credit note, in the customer’s language, with the logo tagged', async () => {
    await sandbox.patch('/seller-details', { ...SELLER, logo: { data: LOGO_PNG_BASE64 } });
    const buyer = await createBuyer(sandbox, 'DE', { locale: 'de-DE' });
    const priceId = await createOneOffPrice(sandbox, '10000', 'EUR');
    const ready = await paddle.transactions.create({
      items: [{ priceId, quantity: 1 }],
      customerId: buyer.customerId,
      addressId: buyer.addressId,
    });
    const paid = await sandbox.post(`/transactions/${ready.id}/simulate-payment`, { outcome: 'success' });
    expect(paid.status, paid.text).toBe(200);

    const invoice = await paddle.transactions.getInvoicePDF(ready.id);
    const invoicePdf = new Uint8Array(await (await fetch(invoice.url)).arrayBuffer());
    const { text } = await pdfText(invoicePdf);
    for (const expected of [
      'Analytical Engines GmbH',
      'Friedrichstraße 10',
      '10117 Berlin',
      'USt-IdNr. DE123456789',
      'Handelsregisternr. HRB 987654',
      'E-Mail billing@engines.example',
      'Rechnung',
    ]) {
      expect(text, expected).toContain(expected);
    }
    expect(text).not.toContain('Account acc_');
    const structure = await pdfStructure(invoicePdf);
    expect(structure.marked).toBe(true);
    expect(structure.info.Language).toBe('de-DE');
    const [logo] = figures(structure.trees[0] ?? null);
    expect(logo?.alt).toBe('Logo von Analytical Engines GmbH');

    const adjustment = await paddle.adjustments.create({
      action: 'refund',
      transactionId: ready.id,
      reason: 'Returned',
      type: 'full',
    });
    const note = await paddle.adjustments.getCreditNotePDF(adjustment.id);
    const notePdf = new Uint8Array(await (await fetch(note.url)).arrayBuffer());
    const noteText = (await pdfText(notePdf)).text;
    expect(noteText).toContain('Gutschrift');
    expect(noteText).toContain('USt-IdNr. DE123456789');
    expect(noteText).toContain('Analytical Engines GmbH');
    const noteStructure = await pdfStructure(notePdf);
    expect(rolesOf(noteStructure.trees[0] ?? null)).toEqual(
      expect.arrayContaining(['Document', 'Figure', 'H1', 'Sect', 'Table', 'TR', 'TH', 'TD']),
    );
    expect(figures(noteStructure.trees[0] ?? null)[0]?.alt).toBe('Logo von Analytical Engines GmbH');
  });

  it('refuses logos that are not PNG or JPEG images that decode, and bad fields, changing nothing', async () => {
    await sandbox.patch('/seller-details', { ...SELLER, logo: { data: LOGO_PNG_BASE64 } });
    const before = (await sandbox.get('/seller-details')).entity;
    const png = pngFile(64, 64);
    const corrupted = Buffer.from(png);
    corrupted[corrupted.length - 20] = (corrupted[corrupted.length - 20] ?? 0) ^ 0xff;
    const gif = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');
    const logos: [string, string][] = [
      ['text saved as .png', Buffer.from('this is not an image at all').toString('base64')],
      ['a PNG cut short', png.subarray(0, png.length - 40).toString('base64')],
      ['a PNG with a corrupted chunk', corrupted.toString('base64')],
      ['a GIF', gif.toString('base64')],
      [
        'a PNG signature and nothing else',
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).toString('base64'),
      ],
      ['a JPEG cut short', jpegFile(64, 64).subarray(0, 200).toString('base64')],
      ['an image 8 pixels high', pngFile(64, 8).toString('base64')],
      ['unpadded base64', LOGO_PNG_BASE64.replace(/=+$/, '').slice(0, -1)],
      ['base64 with whitespace', `${LOGO_PNG_BASE64.slice(0, 40)}\n${LOGO_PNG_BASE64.slice(40)}`],
    ];
    for (const [name, data] of logos) {
      const refused = await sandbox.patch('/seller-details', { legal_name: 'Changed', logo: { data } });
      expect(refused.body.error?.code, `${name}: ${refused.text}`).toBe('invalid_logo');
      expectError(refused, 400, 'invalid_logo');
    }
    const fields: [string, object][] = [
      ['a lower-case country', { address: { country_code: 'de' } }],
      ['a blank legal name', { legal_name: '   ' }],
      ['an email without a domain', { email: 'billing@' }],
      ['an unknown field', { website: 'https://engines.example' }],
      ['a logo over 256 KiB', { logo: { data: 'A'.repeat(349_532) } }],
      ['an IBAN whose check digits fail', { payment_instructions: { iban: 'GB83WEST12345698765432' } }],
      ['a BIC of 9 characters', { payment_instructions: { iban: 'GB82WEST12345698765432', bic: 'NWBKGB2LX' } }],
      ['a sort code of five digits', { payment_instructions: { account_number: '98765432', sort_code: '12-34-5' } }],
      ['a sort code without an account number', { payment_instructions: { text: 'Pay us', sort_code: '12-34-56' } }],
      ['instructions naming no account and no text', { payment_instructions: { account_name: 'Engines' } }],
      ['an unknown tax currency', { tax_currency: 'XYZ' }],
      // The checkout's links (ADR 1113): absolute http(s) addresses only.
      ['a javascript: terms link', { terms_url: 'javascript:alert(1)' }],
      ['a relative privacy link', { privacy_url: '/privacy' }],
      ['a mailto: contact link', { contact_url: 'mailto:help@engines.example' }],
      ['a refund link with credentials', { refund_policy_url: 'https://user:pw@engines.example/refunds' }],
      [
        'a rate of zero',
        {
          tax_currency: 'GBP',
          reference_rates: [{ currency_code: 'USD', rate: '0', date: '2026-01-01', source: 'BoE' }],
        },
      ],
      [
        'a rate written as a float',
        {
          tax_currency: 'GBP',
          reference_rates: [{ currency_code: 'USD', rate: '7.9e-1', date: '2026-01-01', source: 'BoE' }],
        },
      ],
      [
        'a date that is not a day',
        {
          tax_currency: 'GBP',
          reference_rates: [{ currency_code: 'USD', rate: '0.79', date: '2026-02-30', source: 'BoE' }],
        },
      ],
      [
        'a rate into the tax currency itself',
        {
          tax_currency: 'GBP',
          reference_rates: [{ currency_code: 'GBP', rate: '1', date: '2026-01-01', source: 'BoE' }],
        },
      ],
      [
        'one currency and day twice',
        {
          tax_currency: 'GBP',
          reference_rates: [
            { currency_code: 'USD', rate: '0.79', date: '2026-01-01', source: 'BoE' },
            { currency_code: 'USD', rate: '0.80', date: '2026-01-01', source: 'BoE' },
          ],
        },
      ],
    ];
    for (const [name, body] of fields) {
      const refused = await sandbox.patch('/seller-details', { legal_name: 'Changed', ...body });
      expect(refused.status, `${name}: ${refused.text}`).toBe(400);
      expect(refused.body.error?.code, name).toBe('invalid_field');
    }
    expect((await sandbox.get('/seller-details')).entity).toEqual(before);

    // The links are set and removed one by one (ADR 1113).
    const linked = await sandbox.patch('/seller-details', {
      terms_url: ' https://engines.example/terms ',
      privacy_url: 'https://engines.example/privacy',
      refund_policy_url: 'http://engines.example/refunds',
      contact_url: 'https://engines.example/contact',
    });
    expect(linked.status, linked.text).toBe(200);
    expect(linked.entity).toMatchObject({
      terms_url: 'https://engines.example/terms',
      privacy_url: 'https://engines.example/privacy',
      refund_policy_url: 'http://engines.example/refunds',
      contact_url: 'https://engines.example/contact',
    });
    const unlinked = await sandbox.patch('/seller-details', {
      terms_url: null,
      privacy_url: null,
      refund_policy_url: null,
      contact_url: null,
    });
    expect(unlinked.entity).toMatchObject({
      terms_url: null,
      privacy_url: null,
      refund_policy_url: null,
      contact_url: null,
    });

    // null removes the logo; the other fields stay.
    const removed = await sandbox.patch('/seller-details', { logo: null });
    expect(removed.entity).toMatchObject({ ...SELLER, logo: null });
  });

  it('prints the bank details and the tax in the seller’s tax currency on a manual invoice (ADR 1110)', async () => {
    const set = await sandbox.patch('/seller-details', {
      payment_instructions: {
        account_name: 'Analytical Engines GmbH',
        iban: 'gb82 west 1234 5698 7654 32',
        bic: 'nwbkgb2l',
        text: 'Bitte die Rechnungsnummer als Verwendungszweck angeben.',
      },
      tax_currency: 'EUR',
      reference_rates: [
        { currency_code: 'USD', rate: '0.92', date: '2026-01-02', source: 'EZB' },
        { currency_code: 'USD', rate: '0.95', date: '2025-12-01', source: 'EZB' },
      ],
    });
    expect(set.status, set.text).toBe(200);
    expect(set.entity).toMatchObject({
      payment_instructions: {
        account_name: 'Analytical Engines GmbH',
        iban: 'GB82WEST12345698765432',
        bic: 'NWBKGB2L',
        account_number: null,
        sort_code: null,
      },
      tax_currency: 'EUR',
    });
    expect(set.entity.reference_rates).toHaveLength(2);

    const buyer = await createBuyer(sandbox, 'DE', { locale: 'de-DE' });
    const priceId = await createOneOffPrice(sandbox, '10000', 'USD');
    const invoice = await readyTransaction(sandbox, buyer, priceId, { collection_mode: 'manual', status: 'billed' });
    // 2 × $100.00 at 19%: $38.00 tax; at 0.92 EUR per dollar, 34,96 €.
    expect(totalsOf(invoice)).toMatchObject({ tax: '3800' });
    const pdf = await paddle.transactions.getInvoicePDF(String(invoice.id));
    const { text } = await pdfText(new Uint8Array(await (await fetch(pdf.url)).arrayBuffer()));
    for (const expected of [
      'Zahlungsinformationen',
      'Kontoinhaber: Analytical Engines GmbH',
      'IBAN: GB82 WEST 1234 5698 7654 32',
      'BIC: NWBKGB2L',
      'Bitte die Rechnungsnummer als Verwendungszweck angeben.',
      'USt. 19%',
      'USt. in EUR',
      '34,96',
      'USt. umgerechnet zu 1 USD = 0.92 EUR (EZB, 2. Januar 2026).',
      'Leistungsdatum',
    ]) {
      expect(text, expected).toContain(expected);
    }
    const cleared = await sandbox.patch('/seller-details', {
      payment_instructions: null,
      tax_currency: null,
      reference_rates: [],
    });
    expect(cleared.entity).toMatchObject({ payment_instructions: null, tax_currency: null, reference_rates: [] });
  });

  it('refuses a logo whose header declares more than the limits before decoding it, and stores nothing', async () => {
    await sandbox.patch('/seller-details', { ...SELLER, logo: { data: LOGO_PNG_BASE64 } });
    const before = (await sandbox.get('/seller-details')).entity;
    const documents = harness.services.documents;
    const decodedBefore = documents.figures().completed.logo;
    const logos: [string, Buffer, string][] = [
      // 2,048 × 2,048 × 8 bytes: 32 MiB of pixels declared by a file of 150 bytes.
      ['a 16-bit RGBA PNG of 2,048 × 2,048', hugeDeclaredPng(2048, 2048), 'declares 33554432 bytes of decoded pixels'],
      ['a PNG 2,100 pixels wide', pngFile(2100, 16), 'declares 2100 × 16 pixels'],
      [
        'a PNG of 4 GiB pixels a side',
        hugeDeclaredPng(0x7fff_ffff, 0x7fff_ffff),
        'declares 2147483647 × 2147483647 pixels',
      ],
      ['a JPEG of 65,535 × 65,535', hugeDeclaredJpeg(65_535, 65_535), 'declares 65535 × 65535 pixels'],
      ['a JPEG of 2,000 × 2,000 in colour', hugeDeclaredJpeg(2000, 2000), 'declares 12000000 bytes of decoded pixels'],
      ['a progressive JPEG of 101 scans', hugeDeclaredJpeg(64, 64, 101), 'has 101 JPEG scans'],
      [
        'a 16-bit RGBA PNG of 1,024 × 513, one row over 4 MiB',
        hugeDeclaredPng(1024, 513),
        'declares 4202496 bytes of decoded pixels',
      ],
    ];
    for (const [name, file, detail] of logos) {
      const refused = await sandbox.patch('/seller-details', {
        legal_name: 'Changed',
        logo: { data: file.toString('base64') },
      });
      const error = expectError(refused, 400, 'logo_too_large');
      expect(error.detail, name).toContain(detail);
    }
    // The core refused each one from its header: no document thread was handed a file.
    expect(documents.figures().completed.logo).toBe(decodedBefore);
    expect(documents.figures().inFlight).toBe(0);
    expect((await sandbox.get('/seller-details')).entity).toEqual(before);
  });

  it('stops inflating a logo at the size its header declares, and takes one at the limits', async () => {
    const before = (await sandbox.get('/seller-details')).entity;
    // 64 × 64 pixels whose image data inflates to 64 MiB: the kind of file that took 250 MB to check.
    const bomb = inflationBombPng(64, 64, 64 * 1024 * 1024);
    const refused = await sandbox.patch('/seller-details', {
      legal_name: 'Changed',
      logo: { data: bomb.toString('base64') },
    });
    const error = expectError(refused, 400, 'invalid_logo');
    expect(error.detail).toContain('its image data inflates to more than the 16504 bytes its header declares');
    expect((await sandbox.get('/seller-details')).entity).toEqual(before);

    // 1,024 × 1,024 in 8-bit RGBA is exactly 4 MiB of pixels: accepted, and drawn on the invoice.
    const largest = pngFile(1024, 1024);
    const accepted = await sandbox.patch('/seller-details', { logo: { data: largest.toString('base64') } });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.entity.logo).toMatchObject({ content_type: 'image/png', width: 1024, height: 1024 });
  });
});
