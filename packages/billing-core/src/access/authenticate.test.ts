/**
 * `authenticate` with its cache of authenticated keys (ADR 0710): a cached key is not read
 * again, its expiry is still checked on every request, and only the exact token that
 * authenticated finds the entry.
 */
import { describe, expect, it } from 'vitest';
import type { Store } from '../store.js';
import type { Account, ApiKey } from './account.js';
import { authenticate, type KeyAuthenticationDependencies } from './api-keys.js';
import type { AuthenticatedKey, AuthenticatedKeyCache } from './authenticated-key-cache.js';

const BODY = 'a'.repeat(26);
const SECRET = 'S'.repeat(40);
const TOKEN = `pdl_live_apikey_${BODY}_${SECRET}`;
const account: Account = { id: 'acc_1', name: 'A', earlyAccess: false, createdAt: '2026-01-01T00:00:00.000Z' };

function setUp(expiresAt: string | null) {
  const key: ApiKey = {
    id: `apikey_${BODY}`,
    accountId: account.id,
    environment: 'live',
    name: 'k',
    permissions: ['product.read'],
    secretHash: `hash:${SECRET}`,
    createdAt: account.createdAt,
    expiresAt,
    revokedAt: null,
  };
  let reads = 0;
  let now = Date.parse('2026-02-01T00:00:00.000Z');
  const entries = new Map<string, AuthenticatedKey>();
  // A cache without a clock of its own: entries stay until forgotten.
  const authenticatedKeys: AuthenticatedKeyCache = {
    find: (tokenHash) => entries.get(tokenHash),
    beginRead: () => ({ startedAt: 0, forgotten: 0 }),
    remember: (tokenHash, found) => {
      entries.set(tokenHash, found);
    },
    forget: () => entries.clear(),
  };
  const store = {
    apiKeys: {
      findWithAccount: async (id: string) => {
        reads += 1;
        return id === key.id ? { key, account } : undefined;
      },
    },
  } as unknown as Store;
  const dependencies: KeyAuthenticationDependencies = {
    store,
    ids: { newId: (prefix: string) => `${prefix}_1` },
    clock: { now: () => now },
    secrets: {
      generateSecret: () => SECRET,
      hash: (text) => `hash:${text}`,
      matches: (hash, candidate) => hash === `hash:${candidate}`,
    },
    authenticatedKeys,
  };
  return {
    dependencies,
    reads: () => reads,
    setNow: (iso: string) => {
      now = Date.parse(iso);
    },
  };
}

const codeOf = async (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: { code?: string }) => error.code,
  );

describe('authenticate with cached keys', () => {
  it('reads a key once, then answers from the cache', async () => {
    const { dependencies, reads } = setUp(null);
    const first = await authenticate(dependencies, `Bearer ${TOKEN}`, 'live');
    const second = await authenticate(dependencies, `Bearer ${TOKEN}`, 'live');
    expect(second).toEqual(first);
    expect(reads()).toBe(1);
  });

  it('refuses a cached key once it has expired', async () => {
    const { dependencies, setNow } = setUp('2026-02-01T00:00:01.000Z');
    expect(await codeOf(authenticate(dependencies, `Bearer ${TOKEN}`, 'live'))).toBe('ok');
    setNow('2026-02-01T00:00:01.000Z');
    expect(await codeOf(authenticate(dependencies, `Bearer ${TOKEN}`, 'live'))).toBe('expired_token');
  });

  it('reads and refuses another secret for a cached key, and the other environment before any lookup', async () => {
    const { dependencies, reads } = setUp(null);
    await authenticate(dependencies, `Bearer ${TOKEN}`, 'live');
    const wrong = `pdl_live_apikey_${BODY}_${'T'.repeat(40)}`;
    expect(await codeOf(authenticate(dependencies, `Bearer ${wrong}`, 'live'))).toBe('invalid_token');
    expect(reads()).toBe(2);
    expect(await codeOf(authenticate(dependencies, `Bearer ${TOKEN}`, 'sandbox'))).toBe('invalid_token');
    expect(reads()).toBe(2);
  });
});
