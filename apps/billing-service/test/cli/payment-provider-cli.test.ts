/**
 * `drawdown accounts payment-provider show|set|remove` as an operator runs it (ADR 1420): the
 * built binary against SQLite and PostgreSQL. Secrets come from flags or from STRIPE_SECRET_KEY
 * and STRIPE_WEBHOOK_SECRET, are refused when malformed, and are never printed in full. Most
 * commands run through the binary's entry function in this process (`runCliInProcess`, ADR 0926);
 * the migration, the secrets from the environment and one usage refusal run as real processes.
 */
import { createTestStorage, ENGINES, type TestStorage } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildService, jsonOutput, runCli, runCliInProcess, storageFlags } from '../support/cli-process.js';

beforeAll(() => buildService(), 120_000);
// A few separate processes per test: on a loaded machine that can take longer than the suite's 30 s default.
vi.setConfig({ testTimeout: 120_000 });

const SECRET_KEY = 'sk_live_cliTestSecretKey00001234';
const WEBHOOK_SECRET = 'whsec_cliTestWebhookSecret5678';

describe.each(ENGINES)('%s: drawdown accounts payment-provider', (engine) => {
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

  it('sets, shows and removes an account’s Stripe settings, never printing a secret in full', async () => {
    const account = (jsonOutput(await cli('accounts', 'create', '--name', 'Shop', '--json')).account as { id: string })
      .id;
    const none = jsonOutput(await cli('accounts', 'payment-provider', 'show', '--account', account, '--json'));
    expect(none.payment_provider).toBeNull();

    const set = await cli(
      'accounts',
      'payment-provider',
      'set',
      '--account',
      account,
      '--provider',
      'stripe',
      '--stripe-secret-key',
      SECRET_KEY,
      '--stripe-webhook-secret',
      WEBHOOK_SECRET,
      '--stripe-publishable-key',
      'pk_live_cliTestPublishable0001',
      '--stripe-api-base',
      'http://127.0.0.1:12111/',
    );
    expect(set.code, set.stderr).toBe(0);
    // The publishable key is public (every checkout page sends it to the browser): shown in full.
    expect(set.stdout).toContain('pk_live_cliTestPublishable0001');
    expect(set.stdout).toContain('sk_live_…1234');
    expect(set.stdout).toContain('whsec_…5678');
    expect(set.stdout).toContain(`/payment-providers/stripe/webhooks/${account}`);
    expect(set.stdout + set.stderr).not.toContain(SECRET_KEY);
    expect(set.stdout + set.stderr).not.toContain(WEBHOOK_SECRET);

    const shown = await cli('accounts', 'payment-provider', 'show', '--account', account, '--json');
    expect(jsonOutput(shown).payment_provider).toMatchObject({
      accountId: account,
      environment: 'live',
      provider: 'stripe',
      secretKey: 'sk_live_…1234',
      webhookSecret: 'whsec_…5678',
      publishableKey: 'pk_live_cliTestPublishable0001',
      apiBase: 'http://127.0.0.1:12111',
    });
    expect(shown.stdout).not.toContain(SECRET_KEY);

    const removed = jsonOutput(await cli('accounts', 'payment-provider', 'remove', '--account', account, '--json'));
    expect(removed.removed).toBe(true);
    expect(
      jsonOutput(await cli('accounts', 'payment-provider', 'show', '--account', account, '--json')).payment_provider,
    ).toBeNull();
    expect(
      jsonOutput(await cli('accounts', 'payment-provider', 'remove', '--account', account, '--json')).removed,
    ).toBe(false);
  });

  it('takes the secrets from STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET', async () => {
    const account = (jsonOutput(await cli('accounts', 'create', '--json')).account as { id: string }).id;
    process.env.STRIPE_SECRET_KEY = 'rk_test_fromTheEnvironment0000abcd';
    process.env.STRIPE_WEBHOOK_SECRET = 'whsec_fromTheEnvironment0000efgh';
    try {
      // A real process, which reads the variables from its own environment.
      const set = await spawned('accounts', 'payment-provider', 'set', '--account', account, '--json');
      expect(set.code, set.stdout + set.stderr).toBe(0);
      expect(jsonOutput(set).payment_provider).toMatchObject({
        secretKey: 'rk_test_…abcd',
        webhookSecret: 'whsec_…efgh',
        apiBase: null,
      });
    } finally {
      delete process.env.STRIPE_SECRET_KEY;
      delete process.env.STRIPE_WEBHOOK_SECRET;
    }
  });

  it('refuses malformed settings, unknown accounts and bad usage, storing nothing', async () => {
    const account = (jsonOutput(await cli('accounts', 'create', '--json')).account as { id: string }).id;
    const bad = await cli(
      'accounts',
      'payment-provider',
      'set',
      '--account',
      account,
      '--provider',
      'paypal',
      '--stripe-secret-key',
      'pk_live_publishableNotSecret',
      '--stripe-webhook-secret',
      'secret',
      '--stripe-api-base',
      'ftp://proxy.example/v1',
      '--json',
    );
    expect(bad.code).toBe(1);
    const error = jsonOutput(bad).error as { code: string; message: string };
    expect(error.code).toBe('invalid_field');
    for (const field of ['provider', 'secret_key', 'webhook_secret', 'api_base'])
      expect(error.message).toContain(field);
    expect(bad.stdout).not.toContain('pk_live_publishableNotSecret');
    expect(
      jsonOutput(await cli('accounts', 'payment-provider', 'show', '--account', account, '--json')).payment_provider,
    ).toBeNull();

    const unknown = await cli(
      'accounts',
      'payment-provider',
      'show',
      '--account',
      'acc_01hzzzzzzzzzzzzzzzzzzzzzzz',
      '--json',
    );
    expect(unknown.code).toBe(1);
    expect((jsonOutput(unknown).error as { code: string }).code).toBe('account_not_found');

    expect((await spawned('accounts', 'payment-provider', 'show')).code).toBe(2);
    expect((await cli('accounts', 'payment-provider', 'enable', '--account', account)).code).toBe(2);
    // --force means something only to remove: anywhere else it is refused, not ignored.
    const forced = await cli('accounts', 'payment-provider', 'show', '--account', account, '--force');
    expect(forced.code).toBe(2);
    expect(forced.stderr).toContain('--force is only for accounts payment-provider remove');
  });
});
