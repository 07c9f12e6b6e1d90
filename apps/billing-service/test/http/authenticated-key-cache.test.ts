/**
 * The in-process cache of authenticated keys (ADR 0710): an entry lives at most its second,
 * counted from before the read that found it; a key forgotten (revoked here) is dropped at once,
 * and a read overtaken by a revocation is not kept.
 */
import type { Account, ApiKey, AuthenticatedKey } from '@drawdown/billing-core';
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthenticatedKeyCache } from '../../src/infrastructure/authenticated-key-cache.js';

const account: Account = { id: 'acc_1', name: 'A', earlyAccess: false, createdAt: '2026-01-01T00:00:00.000Z' };

function authenticated(id: string): AuthenticatedKey {
  const key: ApiKey = {
    id,
    accountId: account.id,
    environment: 'live',
    name: 'k',
    permissions: [],
    secretHash: 'h',
    createdAt: account.createdAt,
    expiresAt: null,
    revokedAt: null,
  };
  return { key, account };
}

describe('the authenticated key cache', () => {
  function steppedCache(maxEntries?: number) {
    let now = 1_000;
    const cache = createAuthenticatedKeyCache({ ttlMs: 1_000, now: () => now, ...(maxEntries ? { maxEntries } : {}) });
    const advance = (ms: number): void => {
      now += ms;
    };
    return { cache, advance };
  }

  it('keeps an entry until a second after its read started, and not after', () => {
    const { cache, advance } = steppedCache();
    const ticket = cache.beginRead();
    advance(300); // the read itself
    cache.remember('t1', authenticated('apikey_a'), ticket);
    advance(699);
    expect(cache.find('t1')?.key.id).toBe('apikey_a');
    advance(1);
    expect(cache.find('t1')).toBeUndefined();
  });

  it('drops a forgotten key at once, under every token hash', () => {
    const { cache } = steppedCache();
    cache.remember('t1', authenticated('apikey_a'), cache.beginRead());
    cache.remember('t2', authenticated('apikey_b'), cache.beginRead());
    cache.forget('apikey_a');
    expect(cache.find('t1')).toBeUndefined();
    expect(cache.find('t2')?.key.id).toBe('apikey_b');
  });

  it('does not keep a read that a revocation overtook', () => {
    const { cache } = steppedCache();
    const ticket = cache.beginRead();
    cache.forget('apikey_a');
    cache.remember('t1', authenticated('apikey_a'), ticket);
    expect(cache.find('t1')).toBeUndefined();
  });

  it('holds at most its limit, dropping the oldest', () => {
    const { cache } = steppedCache(2);
    for (const hash of ['t1', 't2', 't3']) cache.remember(hash, authenticated(`apikey_${hash}`), cache.beginRead());
    expect(cache.find('t1')).toBeUndefined();
    expect(cache.find('t2')).toBeDefined();
    expect(cache.find('t3')).toBeDefined();
  });
});

describe.each(ENGINES)('%s: a revocation in the serving process', (engine) => {
  let harness: BillingHarness;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine });
  });
  afterAll(() => harness.close());

  it('refuses the key on the very next request, though the key was just used', async () => {
    const token = await harness.createKey({ environment: 'sandbox', permissions: ['all'] });
    const get = () => fetch(`${harness.sandboxUrl}/meters`, { headers: { authorization: `Bearer ${token}` } });
    expect((await get()).status).toBe(200);
    expect((await get()).status).toBe(200);
    await harness.services.useCases.revokeApiKey(`apikey_${token.split('_')[3]}`);
    const refused = await get();
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('invalid_token');
  });

  it('still refuses a wrong secret for a key that is cached', async () => {
    const token = await harness.createKey({ environment: 'sandbox', permissions: ['all'] });
    const get = (value: string) =>
      fetch(`${harness.sandboxUrl}/meters`, { headers: { authorization: `Bearer ${value}` } });
    expect((await get(token)).status).toBe(200);
    const secret = token.split('_')[4] as string;
    const other = token.replace(secret, `${secret.slice(0, -1)}${secret.endsWith('a') ? 'b' : 'a'}`);
    const refused = await get(other);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('invalid_token');
  });
});
