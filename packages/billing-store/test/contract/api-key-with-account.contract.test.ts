/**
 * The read that authentication makes on every request: a key and its account in one statement,
 * equal to reading each by id.
 */
import type { Account, ApiKey, Store } from '@drawdown/billing-core';
import { ENGINES, openTestStore } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextId } from '../support/builders.js';

describe.each(ENGINES)('%s: an API key with its account', (engine) => {
  let store: Store;
  let dispose: () => Promise<void>;

  beforeAll(async () => {
    ({ store, dispose } = await openTestStore(engine));
  });
  afterAll(() => dispose());

  it('returns the key and its account as reading each by id does', async () => {
    for (const earlyAccess of [true, false]) {
      const account: Account = {
        id: nextId('acc'),
        name: `Account ${earlyAccess}`,
        earlyAccess,
        createdAt: '2026-01-01T00:00:00.000Z',
      };
      await store.accounts.insert(account);
      const key: ApiKey = {
        id: nextId('apikey'),
        accountId: account.id,
        environment: 'live',
        name: 'key',
        permissions: ['usage_event.write'],
        secretHash: 'hash-of-secret',
        createdAt: '2026-01-02T00:00:00.000Z',
        expiresAt: '2027-01-01T00:00:00.000Z',
        revokedAt: null,
      };
      await store.apiKeys.insert(key);
      await store.apiKeys.revoke(key.id, '2026-01-03T00:00:00.000Z');
      const found = await store.apiKeys.findWithAccount(key.id);
      expect(found).toEqual({
        key: await store.apiKeys.findById(key.id),
        account: await store.accounts.findById(account.id),
      });
      expect(found?.key.revokedAt).toBe('2026-01-03T00:00:00.000Z');
      expect(found?.account).toEqual(account);
    }
  });

  it('returns nothing for a key that does not exist', async () => {
    expect(await store.apiKeys.findWithAccount('apikey_00000000000000000000000000')).toBeUndefined();
  });
});
