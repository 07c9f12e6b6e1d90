/**
 * Rate limiting by client IP over real HTTP: past the limit every request from the address is
 * refused with 429 `too_many_requests` and a Retry-After in seconds, whatever its credentials.
 * Behind `--trust-proxy` the client is the X-Forwarded-For entry the proxy appended, so entries a
 * client writes itself buy no fresh quota (ADR 0903).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, expectError, harnessClients } from '../support/api-client.js';

const LIMIT = 5;
const WINDOW_MS = 60_000;

describe.each(ENGINES)('%s: rate limiting', (engine) => {
  let harness: BillingHarness;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine, rateLimit: `${LIMIT}/60s` });
    // Windows are fixed; start the burst clear of a window's last seconds so it falls in one window.
    const left = WINDOW_MS - (Date.now() % WINDOW_MS);
    if (left < 5_000) await sleep(left + 50);
  });
  afterAll(() => harness.close());

  it('refuses the request past the limit with 429 too_many_requests and Retry-After, then keeps refusing', async () => {
    const { sandbox, live } = harnessClients(harness);
    for (let index = 0; index < LIMIT; index += 1) {
      // Unauthenticated requests count too: the limit protects the service before it checks keys.
      const response =
        index % 2 === 0
          ? await sandbox.get('/products')
          : await apiClient(harness.sandboxUrl, '').get('/products', { authorization: null });
      expect(response.status).not.toBe(429);
    }

    const limited = await sandbox.get('/products');
    const error = expectError(limited, 429, 'too_many_requests');
    expect(error.type).toBe('api_error');
    const retryAfter = limited.headers.get('retry-after') ?? '';
    expect(retryAfter).toMatch(/^[1-9]\d*$/);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);

    // Still refused: with a valid key, on a write, without a key, and on the other environment's address.
    expectError(await sandbox.post('/products', { name: 'x', tax_category: 'saas' }), 429, 'too_many_requests');
    expectError(await sandbox.get('/products', { authorization: null }), 429, 'too_many_requests');
    expectError(await live.get('/products'), 429, 'too_many_requests');
    const later = await sandbox.get('/meters');
    expectError(later, 429, 'too_many_requests');
    expect(Number(later.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(later.headers.get('retry-after'))).toBeLessThanOrEqual(Number(retryAfter));
  });
});

// The limiter keeps its counts in memory, whatever the engine: one engine is enough.
describe('rate limiting behind a trusted proxy', () => {
  let harness: BillingHarness;

  beforeAll(async () => {
    harness = await startBillingHarness({ rateLimit: `${LIMIT}/60s`, trustProxy: true });
    const left = WINDOW_MS - (Date.now() % WINDOW_MS);
    if (left < 5_000) await sleep(left + 50);
  });
  afterAll(() => harness.close());

  it('counts the entry the proxy appended, not the ones the client wrote before it', async () => {
    const { sandbox } = harnessClients(harness);
    const via = (forwardedFor: string) => sandbox.get('/products', { headers: { 'X-Forwarded-For': forwardedFor } });
    for (let index = 0; index < LIMIT; index += 1) {
      // A client rotating a forged left-most entry: the proxy appended its real address last.
      expect((await via(`10.9.${index}.1, 203.0.113.7`)).status).not.toBe(429);
    }
    expectError(await via('10.9.99.1, 203.0.113.7'), 429, 'too_many_requests');
    expectError(await via('203.0.113.7'), 429, 'too_many_requests');
    // Another client, as the proxy saw it, has its own quota, whatever it forges.
    expect((await via('203.0.113.7, 198.51.100.8')).status).toBe(200);
  });
});
