/**
 * SQLite WAL checkpoints off the event loop (ADR 0714): with background checkpoints the writer
 * never checkpoints inside a commit, and the checkpoint thread copies every committed frame back
 * into the database file on its own. After a burst the WAL file is emptied, not kept at the
 * burst's size (ADR 1488).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteDatabase } from '../../src/sql/sqlite-database.js';

describe('SQLite with background checkpoints', () => {
  const folders: string[] = [];
  afterEach(() => {
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  function open(backgroundCheckpoints: boolean, walLimitBytes?: number): SqliteDatabase {
    const folder = mkdtempSync(join(tmpdir(), 'drawdown-checkpoints-'));
    folders.push(folder);
    return new SqliteDatabase(join(folder, 'db.sqlite'), {
      backgroundCheckpoints,
      ...(walLimitBytes === undefined ? {} : { walLimitBytes }),
    });
  }

  function walSize(database: SqliteDatabase): number {
    return statSync(`${database.rawWriter.name}-wal`).size;
  }

  it('leaves checkpoints to its thread, which copies every committed frame', async () => {
    const database = open(true);
    expect(database.rawWriter.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    await database.run('create table t (id integer primary key, body text not null)');
    for (let index = 0; index < 50; index += 1) {
      await database.run('insert into t (body) values (?)', ['x'.repeat(2_000)]);
    }
    // A checkpoint that started after the last commit sees the whole WAL and copies all of it.
    const writtenBy = database.lastCheckpoint?.turn ?? 0;
    const after = () => {
      const last = database.lastCheckpoint;
      return last && last.turn > writtenBy + 1 ? last : undefined;
    };
    // Polled, not timed: a busy machine may start the thread late.
    for (let attempt = 0; attempt < 2_000 && !after(); attempt += 1) {
      await new Promise((done) => setTimeout(done, 20));
    }
    expect(after()?.frames).toBeGreaterThan(0);
    expect(after()?.copied).toBe(after()?.frames);
    expect((await database.get<{ n: number }>('select count(*) as n from t'))?.n).toBe(50);
    await database.close();
  }, 60_000);

  it('keeps SQLite checkpointing inside commits without it', async () => {
    const database = open(false);
    expect(database.rawWriter.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    expect(database.lastCheckpoint).toBeUndefined();
    await database.close();
  });

  it('empties the WAL file after a burst it could not checkpoint while it ran', async () => {
    const limit = 256 * 1024;
    const database = open(true, limit);
    await database.run('create table t (id integer primary key, body text not null)');
    // A reader holding its snapshot keeps every frame of the burst in the WAL, as readers
    // during a long sandbox jump do.
    const reader = new Sqlite(database.rawWriter.name);
    reader.exec('begin');
    reader.prepare('select count(*) from t').get();
    for (let index = 0; index < 200; index += 1) {
      await database.run('insert into t (body) values (?)', ['x'.repeat(8_000)]);
    }
    expect(walSize(database)).toBeGreaterThan(4 * limit);
    reader.exec('commit');
    reader.close();
    // Polled, not timed: the thread truncates on one of its next turns.
    for (let attempt = 0; attempt < 1_500 && walSize(database) > limit; attempt += 1) {
      await new Promise((done) => setTimeout(done, 20));
    }
    expect(walSize(database)).toBeLessThanOrEqual(limit);
    expect((await database.get<{ n: number }>('select count(*) as n from t'))?.n).toBe(200);
    // And whenever SQLite starts the WAL again, it cuts the file back to the limit.
    expect(database.rawWriter.pragma('journal_size_limit', { simple: true })).toBe(limit);
    await database.close();
  }, 60_000);
});
