/**
 * A read outside a transaction whose PostgreSQL connection the server ended answers, on another
 * connection, instead of failing (ADR 1489): an idle pooled connection terminated before the read,
 * and a connection terminated while its read waits. A write outside a transaction is never run
 * again (the server may have applied it). Backends are ended with `pg_terminate_backend` from a
 * connection of the test's own, as an administrator or a failover would.
 */
import { openStoreOn, type SqlDatabase } from '@drawdown/billing-store';
import { createPostgresTestDatabase, type TestDatabase } from '@drawdown/testkit';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe('postgres: reads on connections the server ended', () => {
  let testDatabase: TestDatabase;
  let database: SqlDatabase;
  let admin: pg.Client;

  beforeAll(async () => {
    testDatabase = await createPostgresTestDatabase();
    // One pooled connection, so the backend to end is known.
    ({ database } = await openStoreOn({ engine: 'postgres', url: testDatabase.url, maxConnections: 1 }, 'migrate'));
    await database.run('create table read_retry (id integer primary key, body text not null)');
    await database.run("insert into read_retry (id, body) values (1, 'kept')");
    admin = new pg.Client({ connectionString: testDatabase.url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin.end();
    await database.close();
    await testDatabase.drop();
  });

  async function backendOfPool(): Promise<number> {
    const row = await database.get<{ pid: number }>('select pg_backend_pid() as pid');
    return Number(row?.pid);
  }

  /**
   * What `pg_stat_activity` says now. The admin connection may be inside its lock-holding
   * transaction, where the server keeps the first view of it: clear that first.
   */
  async function activity(where: string, values: unknown[] = []): Promise<{ pid: number }[]> {
    await admin.query('select pg_stat_clear_snapshot()');
    const { rows } = await admin.query<{ pid: number }>(
      `select pid from pg_stat_activity where datname = current_database() and ${where}`,
      values,
    );
    return rows;
  }

  /** Ends the backend and waits until the server has let it go: a condition, not a time. */
  async function terminate(pid: number): Promise<void> {
    const { rows } = await admin.query('select pg_terminate_backend($1) as ended', [pid]);
    expect(rows[0]?.ended).toBe(true);
    while ((await activity('pid = $1', [pid])).length > 0) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  /** The backend of the store's statement waiting behind the test's lock on `read_retry`. */
  async function waitingBackend(): Promise<number> {
    for (;;) {
      const [row] = await activity("wait_event_type = 'Lock' and query like '%read_retry%'");
      if (row) return row.pid;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  async function lockTable(): Promise<void> {
    await admin.query('begin');
    await admin.query('lock table read_retry in access exclusive mode');
  }

  it('answers a read after the idle pooled connection was terminated', async () => {
    const pid = await backendOfPool();
    await terminate(pid);
    const row = await database.get<{ body: string }>('select body from read_retry where id = ?', [1]);
    expect(row?.body).toBe('kept');
    expect(await backendOfPool()).not.toBe(pid);
  });

  it('answers a read whose connection is terminated while the read waits', async () => {
    const before = await backendOfPool();
    // The read waits behind a lock the test holds, so its backend can be ended mid-read.
    await lockTable();
    const read = database.get<{ body: string }>('select body from read_retry where id = ?', [1]);
    const waiting = await waitingBackend();
    expect(waiting).toBe(before);
    // The lock is held until the first connection is gone, so the read runs again on a new one.
    await terminate(waiting);
    await admin.query('commit');
    expect((await read)?.body).toBe('kept');
    expect(await backendOfPool()).not.toBe(before);
  });

  it('never runs a write again whose connection was terminated while it waited', async () => {
    await lockTable();
    const write = database.run("insert into read_retry (id, body) values (2, 'once')");
    const failed = expect(write).rejects.toMatchObject({ code: '57P01' });
    await terminate(await waitingBackend());
    await admin.query('commit');
    await failed;
    // The insert never reached the table, and nothing ran it again.
    const rows = await database.all<{ id: number }>('select id from read_retry order by id');
    expect(rows.map((row) => row.id)).toEqual([1]);
  });
});
