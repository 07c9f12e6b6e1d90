/**
 * Durable SQLite commits with the WAL's fsync off the event loop (ADR 0732): a write transaction
 * resolves only after a sync of the WAL that started after its commit; commits made while a sync
 * runs share the next one; without the option SQLite syncs inside the commit as before.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GroupCommit } from '../../src/repositories/group-commit.js';
import { CommitNotDurable } from '../../src/sql/sql-database.js';
import { SqliteDatabase } from '../../src/sql/sqlite-database.js';
import { WalSync } from '../../src/sql/sqlite-wal-sync.js';

/** A sync the test finishes by hand, recording when each started. */
function controlledSyncs() {
  const started: { finish: () => void; fail: (error: Error) => void }[] = [];
  const sync = {
    sync: () =>
      new Promise<void>((finish, fail) => {
        started.push({ finish, fail });
      }),
    close: async () => undefined,
  };
  return { started, sync };
}

const settle = () => new Promise((done) => setImmediate(done));

describe('WalSync', () => {
  it('answers each commit after a sync that started after it: two run at once, one for the commits made while both run', async () => {
    const { started, sync } = controlledSyncs();
    const wal = new WalSync('/nowhere-wal', sync);
    const resolved: string[] = [];
    const first = wal.afterCommit().then(() => resolved.push('first'));
    await settle();
    expect(started).toHaveLength(1);
    // A commit while the first sync runs: that sync may have missed its frames, so a second starts at once.
    const second = wal.afterCommit().then(() => resolved.push('second'));
    await settle();
    expect(started).toHaveLength(2);
    // Two commits while both run wait for the one sync that starts when either ends.
    const third = wal.afterCommit().then(() => resolved.push('third'));
    const fourth = wal.afterCommit().then(() => resolved.push('fourth'));
    await settle();
    expect(started).toHaveLength(2);
    started[1]?.finish();
    await second;
    await settle();
    expect(resolved).toEqual(['second']);
    expect(started).toHaveLength(3);
    started[2]?.finish();
    await Promise.all([third, fourth]);
    expect(resolved).toEqual(['second', 'third', 'fourth']);
    // The first commit still waits for its own sync, the one that started after it.
    started[0]?.finish();
    await first;
    expect(resolved).toEqual(['second', 'third', 'fourth', 'first']);
    expect(wal.syncs).toBe(3);
  });

  it('fails the commits a failed sync covered, and the next commit syncs again', async () => {
    const { started, sync } = controlledSyncs();
    const wal = new WalSync('/nowhere-wal', sync);
    const first = wal.afterCommit();
    await settle();
    started[0]?.fail(new Error('EIO'));
    await expect(first).rejects.toThrow('EIO');
    const next = wal.afterCommit();
    await settle();
    expect(started).toHaveLength(2);
    started[1]?.finish();
    await expect(next).resolves.toBeUndefined();
    await wal.idle();
  });
});

describe('group commit after a failed sync', () => {
  it('fails the whole batch once instead of committing its items again one by one', async () => {
    const commits: number[] = [];
    const group = new GroupCommit<number, string>(
      async (items) => {
        commits.push(items.length);
        throw new CommitNotDurable('committed, but the WAL sync failed');
      },
      { maxBatch: 10, maxInFlight: 1 },
    );
    const outcomes = await Promise.allSettled([group.submit(1), group.submit(2), group.submit(3)]);
    expect(commits).toEqual([3]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected', 'rejected']);
  });
});

describe('SQLite with the WAL synced off the event loop', () => {
  const folder = mkdtempSync(join(tmpdir(), 'drawdown-wal-sync-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('commits without a sync inside SQLite and answers after its own WAL sync, grouping concurrent commits', async () => {
    const database = new SqliteDatabase(join(folder, 'off.sqlite'), { syncOffEventLoop: true });
    expect(database.syncsOffEventLoop).toBe(true);
    // NORMAL (1): the commit appends to the WAL; the sync is ours.
    expect(database.rawWriter.pragma('synchronous', { simple: true })).toBe(1);
    await database.run('create table t (id integer primary key, body text not null)');
    const afterSchema = database.walSyncs;
    expect(afterSchema).toBeGreaterThanOrEqual(1);
    await database.run('insert into t (body) values (?)', ['one']);
    expect(database.walSyncs).toBe(afterSchema + 1);
    // Twenty transactions at once commit one after the other while the first syncs run.
    const before = database.walSyncs;
    await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        database.transactionSync((connection) => connection.prepare('insert into t (body) values (?)').run(`${index}`)),
      ),
    );
    const used = database.walSyncs - before;
    expect(used).toBeGreaterThanOrEqual(1);
    expect(used).toBeLessThanOrEqual(3);
    expect((await database.get<{ n: number }>('select count(*) as n from t'))?.n).toBe(21);
    await database.close();
  });

  it('keeps SQLite syncing inside the commit without the option, and in memory', async () => {
    const plain = new SqliteDatabase(join(folder, 'plain.sqlite'));
    expect(plain.syncsOffEventLoop).toBe(false);
    expect(plain.rawWriter.pragma('synchronous', { simple: true })).toBe(2);
    await plain.close();
    const memory = new SqliteDatabase(':memory:', { syncOffEventLoop: true });
    expect(memory.syncsOffEventLoop).toBe(false);
    await memory.close();
    const normal = new SqliteDatabase(join(folder, 'normal.sqlite'), { syncOffEventLoop: true, synchronous: 'NORMAL' });
    expect(normal.syncsOffEventLoop).toBe(false);
    await normal.close();
  });
});
