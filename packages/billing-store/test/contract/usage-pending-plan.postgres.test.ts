/**
 * The drawdown's take on PostgreSQL reads the taken events by primary key however the table grew
 * since the connection first ran it (ADR 0723). Prepared by name, the statement got a generic
 * plan while the table was small and kept it for the life of the connection: once the table was
 * large, every drawdown batch scanned all of `usage_events`. One connection, so the plan cache
 * and the statistics read here are those of the connection that takes.
 */
import type { Scope, Store } from '@drawdown/billing-core';
import { openStoreOn, type SqlDatabase } from '@drawdown/billing-store';
import { createPostgresTestDatabase, type TestDatabase } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aCustomer, freshScope } from '../support/builders.js';

const ACCEPTED_AT = '2026-01-01T00:00:00.000Z';

describe('postgres: the drawdown take as the table grows', () => {
  let testDatabase: TestDatabase;
  let store: Store;
  let database: SqlDatabase;

  beforeAll(async () => {
    testDatabase = await createPostgresTestDatabase();
    ({ store, database } = await openStoreOn(
      { engine: 'postgres', url: testDatabase.url, maxConnections: 1 },
      'migrate',
    ));
  });
  afterAll(async () => {
    await store.close();
    await testDatabase.drop();
  });

  let recorded = 0;
  async function record(scope: Scope, customerId: string): Promise<void> {
    recorded += 1;
    const outcome = await store.usageIngest.record(
      scope,
      {
        id: `uev_plan${String(recorded).padStart(8, '0')}`,
        customerId,
        action: 'api_call',
        eventKey: `key-${recorded}`,
        quantity: '1',
        occurredAt: ACCEPTED_AT,
      },
      ACCEPTED_AT,
    );
    expect(outcome).toBe('recorded');
  }

  /** Sequential scans of `usage_events` so far, this connection's own counts flushed first. */
  async function sequentialScans(): Promise<number> {
    await database.run('select pg_stat_force_next_flush()');
    const row = await database.get<{ scans: number | string }>(
      "select seq_scan as scans from pg_stat_user_tables where relname = 'usage_events'",
    );
    return Number(row?.scans ?? 0);
  }

  it('takes by primary key after the table grew from a handful of rows to thousands', async () => {
    const scope = freshScope();
    const customer = aCustomer();
    await store.customers.insert(scope, customer);
    // Ten takes while the table holds a handful of rows: enough for a prepared statement to
    // settle on a generic plan made for a tiny table.
    for (let round = 0; round < 10; round += 1) {
      await record(scope, customer.id);
      expect(await store.transaction((tx) => tx.usageEvents.takePending(500))).toHaveLength(1);
    }
    // The table grows by 20,000 rows already drawn down (no pending rows), without an ANALYZE.
    await database.run(
      `insert into usage_events (account_id, environment, id, customer_id, action, event_key, occurred_at,
         quantity, accepted_at, drawdowns, idempotency_hash)
       select ?, ?, 'uev_bulk' || n, ?, 'api_call', 'bulk-' || n, ?, '1', ?, '[]', decode(md5('bulk' || n), 'hex')
       from generate_series(1, 20000) as n`,
      [scope.accountId, scope.environment, customer.id, ACCEPTED_AT, ACCEPTED_AT],
    );
    for (let index = 0; index < 3; index += 1) await record(scope, customer.id);

    const before = await sequentialScans();
    const taken = await store.transaction((tx) => tx.usageEvents.takePending(500));
    const after = await sequentialScans();

    expect(taken.map((item) => item.event.eventKey)).toEqual([
      `key-${recorded - 2}`,
      `key-${recorded - 1}`,
      `key-${recorded}`,
    ]);
    expect(after - before).toBe(0);
  });
});
