/**
 * Accounts and API keys: stored as given, the secret only as its hash, revocation idempotent.
 */
import type { Account, ApiKey, Store } from '@drawdown/billing-core';
import { ENGINES, openTestStore } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextId } from '../support/builders.js';

function anAccount(earlyAccess: boolean): Account {
  return { id: nextId('acc'), name: 'Account', earlyAccess, createdAt: '2026-01-01T00:00:00.000Z' };
}

function aKey(accountId: string, overrides: Partial<ApiKey> = {}): ApiKey {
  return {
    id: nextId('apikey'),
    accountId,
    environment: 'sandbox',
    name: 'key',
    permissions: ['product.read', 'meter.write'],
    secretHash: 'hash-of-secret',
    createdAt: '2026-01-01T00:00:00.000Z',
    expiresAt: null,
    revokedAt: null,
    ...overrides,
  };
}

describe.each(ENGINES)('%s: accounts and API keys', (engine) => {
  let store: Store;
  let dispose: () => Promise<void>;

  beforeAll(async () => {
    ({ store, dispose } = await openTestStore(engine));
  });
  afterAll(() => dispose());

  it('stores accounts with their early-access flag and lists them', async () => {
    const early = anAccount(true);
    const ordinary = anAccount(false);
    await store.accounts.insert(early);
    await store.accounts.insert(ordinary);
    expect(await store.accounts.findById(early.id)).toEqual(early);
    expect(await store.accounts.findById(ordinary.id)).toEqual(ordinary);
    expect(await store.accounts.findById('acc_00000000000000000000000000')).toBeUndefined();
    expect(await store.accounts.list()).toEqual(expect.arrayContaining([early, ordinary]));
  });

  it('stores keys with their permissions and expiry, and lists them per account and environment', async () => {
    const account = anAccount(true);
    await store.accounts.insert(account);
    const sandbox = aKey(account.id, { expiresAt: '2030-01-01T00:00:00.000Z' });
    const live = aKey(account.id, { environment: 'live', permissions: ['product.write'] });
    await store.apiKeys.insert(sandbox);
    await store.apiKeys.insert(live);
    expect(await store.apiKeys.findById(sandbox.id)).toEqual(sandbox);
    expect(await store.apiKeys.listByAccount(account.id)).toEqual([sandbox, live]);
    expect(await store.apiKeys.listByAccount(account.id, 'live')).toEqual([live]);
  });

  it('refuses a key of an account that does not exist', async () => {
    await expect(store.apiKeys.insert(aKey('acc_00000000000000000000000000'))).rejects.toThrow();
  });

  it('revokes a key once: a second revocation keeps the first time', async () => {
    const account = anAccount(false);
    await store.accounts.insert(account);
    const key = aKey(account.id);
    await store.apiKeys.insert(key);
    expect(await store.apiKeys.revoke(key.id, '2026-02-01T00:00:00.000Z')).toBe(true);
    expect(await store.apiKeys.revoke(key.id, '2026-03-01T00:00:00.000Z')).toBe(true);
    expect((await store.apiKeys.findById(key.id))?.revokedAt).toBe('2026-02-01T00:00:00.000Z');
  });

  it('answers false when revoking a key it does not hold', async () => {
    expect(await store.apiKeys.revoke('apikey_00000000000000000000000000', '2026-02-01T00:00:00.000Z')).toBe(false);
  });
});
