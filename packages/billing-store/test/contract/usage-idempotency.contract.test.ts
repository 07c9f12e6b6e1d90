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

/** The migrations before the one named, and as many from it on as `through` says. */
function migrationsBefore(id: string, through = 0) {
  const index = MIGRATIONS.findIndex((migration) => migration.id === id);
  return MIGRATIONS.slice(0, index + through);
}

/**
 * Writes an event row as an earlier schema stored it, straight into `usage_events`: the columns every
 * schema has, then `last` (the column that schema added: `applied_at` before 0200, the hash after).
 */
async function insertStoredRow(
  database: ReturnType<typeof openDatabase>,
  scope: Scope,
  row: { id: string; customerId: string; action: string; eventKey: string; occurredAt: string },
  last: { column: 'applied_at' | 'idempotency_hash'; value: string | Buffer | null },
): Promise<void> {
  await database.run(
    `insert into usage_events (account_id, environment, id, customer_id, action, event_key, occurred_at,
       quantity, accepted_at, drawdowns, ${last.column}) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      scope.accountId,
      scope.environment,
      row.id,
      row.customerId,
      row.action,
      row.eventKey,
      row.occurredAt,
      '2',
      AT,
      '[]',
      last.value,
    ],
  );
}

/** A key as ADR 0738 spells it: occurred_at's date and time-of-day digits, big-endian, then the 16-byte hash. */
function expectedKey(scope: Scope, customerId: string, eventKey: string, occurredAt: string): Buffer {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?Z$/.exec(occurredAt);
  if (!match) throw new Error(`not canonical: ${occurredAt}`);
  const [, year, month, day, hour, minute, second, fraction = ''] = match;
  const prefix = Buffer.alloc(8);
  prefix.writeUInt32BE(Number(`${year}${month}${day}`), 0);
  prefix.writeUInt32BE(Number(`${hour}${minute}${second}${fraction.padEnd(3, '0').slice(0, 3)}`), 4);
  const hash = createHash('sha256')
    .update([scope.accountId, scope.environment, customerId, 'api_call', eventKey, occurredAt].join('\u0000'), 'utf8')
    .digest()
    .subarray(0, 16);
  return Buffer.concat([prefix, hash]);
}

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
      await migrate(database, migrationsBefore('0200-compact-usage-idempotency'));
      for (const [key, appliedAt] of [
        ['applied', AT],
        ['pending', null],
        ['naïve ключ', null],
      ] as const) {
        await insertStoredRow(database, scope, event(scope, customer.id, key), {
          column: 'applied_at',
          value: appliedAt,
        });
      }
      expect(await migrate(database, migrationsBefore('0200-compact-usage-idempotency', 1))).toEqual([
        '0200-compact-usage-idempotency',
      ]);
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

  it("re-keys stored events by time (0252): the SQL key equals the ingest's, and a re-sent event is still a duplicate", async () => {
    const config = await freshConfig();
    const database = openDatabase(config);
    const scope = freshScope();
    const customer = aCustomer();
    // Every spelling of the fraction validation lets through, and a year below 1000.
    const times = [
      '2026-01-01T00:00:00Z',
      '2026-11-29T12:34:56.5Z',
      '2026-11-29T12:34:56.07Z',
      '2026-12-31T23:59:59.999Z',
      '2026-02-28T08:00:00.123456789Z',
      '0050-01-15T10:00:00.0004Z',
    ];
    try {
      await migrate(database, migrationsBefore('0252-usage-keys-led-by-time'));
      for (const [index, occurredAt] of times.entries()) {
        const stored = { ...event(scope, customer.id, `stored-${index}`), occurredAt };
        const oldHash = expectedKey(scope, customer.id, stored.eventKey, occurredAt).subarray(8);
        await insertStoredRow(database, scope, stored, { column: 'idempotency_hash', value: oldHash });
      }
      expect(await migrate(database, migrationsBefore('0252-usage-keys-led-by-time', 1))).toEqual([
        '0252-usage-keys-led-by-time',
      ]);
      const rows = await database.all<{ event_key: string; occurred_at: string; idempotency_hash: Uint8Array }>(
        'select event_key, occurred_at, idempotency_hash from usage_events order by sequence',
      );
      expect(rows.map((row) => Buffer.from(row.idempotency_hash).toString('hex'))).toEqual(
        times.map((occurredAt, index) =>
          expectedKey(scope, customer.id, `stored-${index}`, occurredAt).toString('hex'),
        ),
      );
    } finally {
      await database.close();
    }

    const store = await openStore(config);
    const check = openDatabase(config);
    try {
      await store.customers.insert(scope, customer);
      for (const [index, occurredAt] of times.entries()) {
        const again = { ...event(scope, customer.id, `stored-${index}`), id: 'uev_again', occurredAt };
        expect(await store.usageIngest.record(scope, again, AT)).toBe('duplicate');
        const fresh = { ...event(scope, customer.id, `new-${index}`), occurredAt };
        expect(await store.usageIngest.record(scope, fresh, AT)).toBe('recorded');
        const [row] = await check.all<{ idempotency_hash: Uint8Array }>(
          'select idempotency_hash from usage_events where id = ?',
          [fresh.id],
        );
        expect(Buffer.from(row?.idempotency_hash ?? []).toString('hex')).toBe(
          expectedKey(scope, customer.id, `new-${index}`, occurredAt).toString('hex'),
        );
      }
    } finally {
      await check.close();
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
      // Forge the collision: the stored event now holds the key the colliding event will compute.
      const hash = expectedKey(scope, customer.id, 'colliding', AT);
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
