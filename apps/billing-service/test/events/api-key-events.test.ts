/**
 * API keys emit their events: `api_key.created` and `api_key.revoked` when a key is made or
 * revoked (the CLI and the service share these use cases), `api_key.expiring` seven days
 * before its expiry and `api_key.expired` at it, by a worker on the environment's clock.
 */
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../notifications/webhook-receiver.js';
import { type ApiClient, harnessClients, type WireObject } from '../support/api-client.js';

const DAY_SECONDS = 86_400;

async function apiKeyEvents(client: ApiClient, keyId: string): Promise<WireObject[]> {
  const listed = await client.get('/events?per_page=200');
  // The list is newest first.
  return listed.list.filter((event) => (event.data as WireObject).id === keyId).reverse();
}

describe.each(ENGINES)('API key events on %s', (engine) => {
  let harness: BillingHarness;
  let sandbox: ApiClient;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine });
    sandbox = harnessClients(harness).sandbox;
  });
  afterAll(async () => harness?.close());

  it('records api_key.created and api_key.revoked, never with the secret', async () => {
    const token = await harness.createKey({ environment: 'sandbox', permissions: ['product.read'] });
    const keyId = `apikey_${token.split('_')[3]}`;
    await harness.services.useCases.revokeApiKey(keyId);
    await harness.services.useCases.revokeApiKey(keyId);
    const events = await apiKeyEvents(sandbox, keyId);
    expect(events.map((event) => event.event_type)).toEqual(['api_key.created', 'api_key.revoked']);
    expect(events[1]?.data).toMatchObject({ id: keyId, status: 'revoked', permissions: ['product.read'] });
    const secret = token.split('_')[4] ?? '';
    expect(JSON.stringify(events)).not.toContain(secret);
    expect(JSON.stringify(events)).not.toContain('secret_hash');
  });

  it('sends api_key.expiring seven days ahead and api_key.expired at expiry, once each, on the sandbox clock', async () => {
    const now = Date.parse(String((await sandbox.get('/sandbox-clock')).entity.now));
    const expiresAt = new Date(now + 10 * DAY_SECONDS * 1000).toISOString();
    const token = await harness.createKey({ environment: 'sandbox', permissions: ['product.read'], expiresAt });
    const keyId = `apikey_${token.split('_')[3]}`;
    const types = async () => (await apiKeyEvents(sandbox, keyId)).map((event) => event.event_type);

    expect(await types()).toEqual(['api_key.created']);
    await sandbox.post('/sandbox-clock/advance', { seconds: 4 * DAY_SECONDS });
    await eventually('api_key.expiring', async () => (await types()).includes('api_key.expiring'));
    await sandbox.post('/sandbox-clock/advance', { seconds: 7 * DAY_SECONDS });
    await eventually('api_key.expired', async () => (await types()).includes('api_key.expired'));
    const events = await apiKeyEvents(sandbox, keyId);
    expect(events.map((event) => event.event_type)).toEqual(['api_key.created', 'api_key.expiring', 'api_key.expired']);
    expect(events[2]?.data).toMatchObject({ status: 'expired', expires_at: expiresAt });
  });
});
