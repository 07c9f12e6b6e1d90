/**
 * The compact idempotency key (ADR 0717): events stored before migration 0200 get the same
 * 16-byte hash the ingest computes and stay pending or applied as they were, and an event whose
 * hash collides with a different stored event is refused, never counted as a duplicate of it.
 */
import { createHash } from 'node:crypto';
import type { Scope } from '@drawdown/billing-core';
import { MIGRATIONS, migrate, openDatabase, openStore, type StoreConfig } from '@drawdown/billing-store';
import { createTestStorage, ENGINES, storeConfigOf, type TestStorage } from '@drawdown/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { aCustomer, freshScope } from '../support/builders.js';

const AT = '2026-01-01T00:00:00.000Z';

describe.each(ENGINES)('%s: compact usage idempotency keys', (engine) => {
  let storage: TestStorage | undefined;

  async function freshConfig(): Promise<StoreConfig> {
    storage = await createTestStorage(engine);
    return storeConfigOf(storage);
  }

  afterEach(async () => {
    await storage?.dispose();
    storage = undefined;
  });

  const event = (scope: Scope, customerId: string, key: string) => ({
    id: `uev_${scope.accountId.slice(-16)}${key.padStart(10, '0')}`,
    customerId,
    action: 'api_call',
    eventKey: key,
    quantity: '2',
    occurredAt: AT,
  });

  it('backfills events stored before it: each is still a duplicate of itself, and only the unapplied ones are pending', async () => {
    const config = await freshConfig();
    const database = openDatabase(config);
    const scope = freshScope();
    const customer = aCustomer();
    try {
      await migrate(
        database,
        MIGRATIONS.filter((migration) => migration.id !== '0200-compact-usage-idempotency'),
      );
      const insert = `insert into usage_events (account_id, environment, id, customer_id, action, event_key, occurred_at,
        quantity, accepted_at, drawdowns, applied_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
      for (const [key, appliedAt] of [
        ['applied', AT],
        ['pending', null],
        ['naïve ключ', null],
      ] as const) {
        const stored = event(scope, customer.id, key);
        await database.run(insert, [
          scope.accountId,
          scope.environment,
          stored.id,
          customer.id,
          stored.action,
          key,
          AT,
          '2',
          AT,
          '[]',
          appliedAt,
        ]);
      }
      expect(await migrate(database)).toEqual(['0200-compact-usage-idempotency']);
    } finally {
      await database.close();
    }

    const store = await openStore(config);
    try {
      await store.customers.insert(scope, customer);
      for (const key of ['applied', 'pending', 'naïve ключ']) {
        expect(await store.usageIngest.record(scope, { ...event(scope, customer.id, key), id: 'uev_again' }, AT)).toBe(
          'duplicate',
        );
      }
      expect(await store.usageIngest.record(scope, event(scope, customer.id, 'new'), AT)).toBe('recorded');
      const taken = await store.transaction((tx) => tx.usageEvents.takePending(10, scope));
      expect(taken.map((item) => item.event.eventKey)).toEqual(['pending', 'naïve ключ', 'new']);
      expect(await store.usageEvents.hasPending(scope)).toBe(false);
    } finally {
      await store.close();
    }
  });

  it('refuses an event whose hash a different stored event holds, alone in its batch, and stores nothing of it', async () => {
    const config = await freshConfig();
    const store = await openStore(config);
    const database = openDatabase(config);
    const scope = freshScope();
    const customer = aCustomer();
    try {
      await store.customers.insert(scope, customer);
      const first = event(scope, customer.id, 'first');
      const colliding = event(scope, customer.id, 'colliding');
      expect(await store.usageIngest.record(scope, first, AT)).toBe('recorded');
      // Forge the collision: the stored event now holds the hash the colliding event will compute.
      const hash = createHash('sha256')
        .update([scope.accountId, scope.environment, customer.id, 'api_call', 'colliding', AT].join('\u0000'), 'utf8')
        .digest()
        .subarray(0, 16);
      expect(await database.run('update usage_events set idempotency_hash = ? where id = ?', [hash, first.id])).toBe(1);

      const [refused, neighbour] = await Promise.allSettled([
        store.usageIngest.record(scope, colliding, AT),
        store.usageIngest.record(scope, event(scope, customer.id, 'neighbour'), AT),
      ]);
      expect(refused.status).toBe('rejected');
      expect((refused as PromiseRejectedResult).reason).toMatchObject({ name: 'IdempotencyHashCollision' });
      expect(neighbour).toEqual({ status: 'fulfilled', value: 'recorded' });
      const stored = await store.usageEvents.listByCustomer(scope, customer.id);
      expect(stored.map((item) => item.eventKey)).toEqual(['first', 'neighbour']);
      const taken = await store.transaction((tx) => tx.usageEvents.takePending(10, scope));
      expect(taken.map((item) => item.event.eventKey)).toEqual(['first', 'neighbour']);
    } finally {
      await database.close();
      await store.close();
    }
  });
});
