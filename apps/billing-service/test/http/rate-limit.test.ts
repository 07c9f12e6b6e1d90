/**
 * Rate limits over real HTTP (ADR 0007, ADR 1480): a request whose API key authenticates is
 * counted against that key, wherever it comes from; any other request (no key, a refused key) is
 * counted against its client address. Two keys from one address have a budget each, and
 * anonymous traffic from an address never spends its keys' budgets (the billing portal calls the
 * API with its own key). Past a limit the request is refused with 429 `too_many_requests` and a
 * Retry-After in seconds. The in-process and the Redis limiter are keyed the same way: the same
 * test runs on both. Behind `--trust-proxy` the client is the X-Forwarded-For entry the proxy
 * appended, so entries a client writes itself buy no fresh quota (ADR 0903).
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { type BillingHarness, findOrStartRedis, type RedisServer, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, apiClient, expectError } from '../support/api-client.js';

const LIMIT = 3;
const WINDOW_MS = 60_000;

/** Windows are fixed; start a burst clear of a window's last seconds so it falls in one window. */
async function clearOfWindowEnd(): Promise<void> {
  const left = WINDOW_MS - (Date.now() % WINDOW_MS);
  if (left < 5_000) await sleep(left + 50);
}

/** A client address of this run alone, so counts another run keeps in a shared Redis never meet these. */
function uniqueAddress(): string {
  return `2001:db8::${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`;
}

describe.each(['memory', 'redis'] as const)('rate limits counted in %s', (kind) => {
  let redis: RedisServer | undefined;
  let harness: BillingHarness;
  let otherKey: string;

  beforeAll(async () => {
    redis = kind === 'redis' ? await findOrStartRedis() : undefined;
    harness = await startBillingHarness({
      rateLimit: `${LIMIT}/60s`,
      keyRateLimit: `${LIMIT}/60s`,
      trustProxy: true,
      ...(redis ? { redisUrl: redis.url } : {}),
    });
    otherKey = await harness.createKey({ environment: 'sandbox', permissions: ['all'] });
    await clearOfWindowEnd();
  });
  afterAll(async () => {
    await harness?.close();
    await redis?.stop();
  });

  it('counts two keys from one address apart, anonymous requests by address, and a refused key as anonymous', async () => {
    const address = uniqueAddress();
    const from = (client: ApiClient, at: string, path = '/products', authorization?: string | null) =>
      client.get(path, {
        headers: { 'X-Forwarded-For': at },
        ...(authorization === undefined ? {} : { authorization }),
      });
    const first = apiClient(harness.sandboxUrl, harness.sandboxKey);
    const second = apiClient(harness.sandboxUrl, otherKey);

    for (let index = 0; index < LIMIT; index += 1) expect((await from(first, address)).status).toBe(200);
    const limited = await from(first, address);
    const error = expectError(limited, 429, 'too_many_requests');
    expect(error.type).toBe('api_error');
    expect(error.detail).toMatch(/API key/);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);

    // Another key from the same address has a budget of its own.
    for (let index = 0; index < LIMIT; index += 1) expect((await from(second, address)).status).toBe(200);
    expectError(await from(second, address), 429, 'too_many_requests');

    // Anonymous requests from that address are counted by the address, untouched by the keys' counts.
    for (let index = 0; index < LIMIT; index += 1) {
      expect((await from(first, address, '/currencies', null)).status).toBe(200);
    }
    const anonymous = expectError(await from(first, address, '/currencies', null), 429, 'too_many_requests');
    expect(anonymous.detail).toMatch(/address/);
    // A key that does not authenticate buys no fresh budget: it is anonymous, counted by address.
    expectError(await from(first, address, '/products', 'Bearer pdl_sdbx_apikey_not_a_key'), 429, 'too_many_requests');

    // With the address spent by anonymous traffic, a key still has its budget there (the portal's case).
    const third = apiClient(
      harness.sandboxUrl,
      await harness.createKey({ environment: 'sandbox', permissions: ['all'] }),
    );
    expect((await from(third, address)).status).toBe(200);
    // Another address has its own anonymous budget; a spent key stays spent from anywhere.
    const elsewhere = uniqueAddress();
    expect((await from(first, elsewhere, '/currencies', null)).status).toBe(200);
    expectError(await from(first, elsewhere), 429, 'too_many_requests');
  });
});

// The limiter keeps its counts in memory, whatever the engine: one engine is enough.
describe('rate limiting behind a trusted proxy', () => {
  let harness: BillingHarness;

  beforeAll(async () => {
    harness = await startBillingHarness({ rateLimit: `${LIMIT}/60s`, trustProxy: true });
    await clearOfWindowEnd();
  });
  afterAll(() => harness.close());

  it('counts anonymous requests by the entry the proxy appended, not the ones the client wrote before it', async () => {
    const anonymous = apiClient(harness.sandboxUrl, '');
    const via = (forwardedFor: string) =>
      anonymous.get('/currencies', { authorization: null, headers: { 'X-Forwarded-For': forwardedFor } });
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
