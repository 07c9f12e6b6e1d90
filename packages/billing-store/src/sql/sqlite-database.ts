/**
 * @module
 * SQLite through better-sqlite3, in WAL mode. Writes go through one connection, one
 * transaction at a time (SQLite has one writer anyway); reads outside a transaction use a
 * second connection, so they never see another request's uncommitted writes.
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Sqlite from 'better-sqlite3';
import { type NarrowedFile, restrictDatabaseFiles } from './owner-only-files.js';
import type { Row, SqlDatabase, SqlExecutor, SqlValue } from './sql-database.js';
import { CommitNotDurable, UniqueViolation } from './sql-database.js';
import { type Checkpointer, type CheckpointResult, startCheckpointer } from './sqlite-checkpointer.js';
import { WalSync } from './sqlite-wal-sync.js';

type Connection = Sqlite.Database;

export interface SqliteOptions {
  /** `FULL` survives power loss; `NORMAL` survives a process crash (ADR 0003). */
  readonly synchronous?: 'FULL' | 'NORMAL';
  /** WAL checkpoints on a thread of their own instead of inside commits (ADR 0714); the service's choice. */
  readonly backgroundCheckpoints?: boolean;
  /**
   * The size, in bytes, the WAL file is cut back to when SQLite restarts it (`journal_size_limit`)
   * and above which the background checkpointer empties it after a burst (ADR 1488).
   */
  readonly walLimitBytes?: number;
  /**
   * With `synchronous = FULL` (the default): the writer commits without an fsync and each write
   * transaction resolves only after an fdatasync of the WAL, run off the event loop, that started
   * after its commit (ADR 0732). What callers are told is unchanged; the service's choice.
   */
  readonly syncOffEventLoop?: boolean;
}

/** 64 MiB: room for the WAL of busy ingestion between checkpoints, never a burst's gigabyte (ADR 1488). */
export const DEFAULT_WAL_LIMIT_BYTES = 64 * 1024 * 1024;

function openConnection(file: string, options: SqliteOptions, synchronous = options.synchronous ?? 'FULL'): Connection {
  const connection = new Sqlite(file);
  connection.pragma('journal_mode = WAL');
  connection.pragma(`synchronous = ${synchronous}`);
  connection.pragma('busy_timeout = 10000');
  connection.pragma('foreign_keys = ON');
  connection.pragma(`journal_size_limit = ${options.walLimitBytes ?? DEFAULT_WAL_LIMIT_BYTES}`);
  return connection;
}

function translateError(error: unknown): unknown {
  if (error instanceof Sqlite.SqliteError && /^SQLITE_CONSTRAINT_(UNIQUE|PRIMARYKEY)$/.test(error.code)) {
    return new UniqueViolation(error.message);
  }
  return error;
}

class SqliteExecutor implements SqlExecutor {
  readonly dialect = 'sqlite' as const;
  private readonly statements = new Map<string, Sqlite.Statement>();

  constructor(readonly connection: Connection) {}

  statement(sql: string): Sqlite.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.connection.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  async all<R extends Row>(sql: string, params: readonly SqlValue[] = []): Promise<R[]> {
    return this.statement(sql).all(...params) as R[];
  }

  async get<R extends Row>(sql: string, params: readonly SqlValue[] = []): Promise<R | undefined> {
    return this.statement(sql).get(...params) as R | undefined;
  }

  async run(sql: string, params: readonly SqlValue[] = []): Promise<number> {
    try {
      return this.statement(sql).run(...params).changes;
    } catch (error) {
      throw translateError(error);
    }
  }
}

/** Where the write transactions of one database file wait their turn. */
interface WriteQueue {
  /** The tail of the queue of transactions waiting for the file's write lock. */
  tail: Promise<unknown>;
  /** The SqliteDatabase objects of this process that use it. */
  users: number;
}

/**
 * One write queue per database file open in this process (ADR 0928). Two SqliteDatabase objects on
 * one file in one process (two service instances a test runs side by side, a CLI command run inside
 * a test's process) take turns here. Through SQLite's own lock instead, the second one's BEGIN
 * IMMEDIATE would wait synchronously in the busy handler, blocking the very thread the first needs
 * to finish its transaction, until busy_timeout gave up with "database is locked". Separate
 * processes still meet at SQLite's lock, where waiting blocks only the waiter.
 */
const WRITE_QUEUES = new Map<string, WriteQueue>();

function writeQueueOf(file: string): { readonly key: string | undefined; readonly queue: WriteQueue } {
  if (file === ':memory:') return { key: undefined, queue: { tail: Promise.resolve(), users: 1 } };
  const key = resolve(file);
  let queue = WRITE_QUEUES.get(key);
  if (!queue) {
    queue = { tail: Promise.resolve(), users: 0 };
    WRITE_QUEUES.set(key, queue);
  }
  queue.users += 1;
  return { key, queue };
}

export class SqliteDatabase implements SqlDatabase {
  readonly dialect = 'sqlite' as const;
  private readonly writer: SqliteExecutor;
  private readonly reader: SqliteExecutor;
  /** The file's write queue in this process, shared with any other object on the same file. */
  private readonly writes: { readonly key: string | undefined; readonly queue: WriteQueue };
  private readonly checkpointer: Checkpointer | undefined;
  /** The WAL's syncs when commits are made durable off the event loop (ADR 0732). */
  private readonly walSync: WalSync | undefined;
  /** Database files that granted others access and were narrowed to 0600 when opened (ADR 1481). */
  readonly narrowedFiles: readonly NarrowedFile[];

  constructor(file: string, options: SqliteOptions = {}) {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    // Before SQLite creates anything: the database file 0600, and so its -wal and -shm (ADR 1481).
    this.narrowedFiles = file === ':memory:' ? [] : restrictDatabaseFiles(file);
    // Durable commits off the event loop (ADR 0732): the writer appends to the WAL without an
    // fsync, and every write transaction waits for a WAL sync that started after its commit.
    this.walSync =
      options.syncOffEventLoop && file !== ':memory:' && (options.synchronous ?? 'FULL') === 'FULL'
        ? new WalSync(`${resolve(file)}-wal`)
        : undefined;
    const writer = openConnection(file, options, this.walSync ? 'NORMAL' : undefined);
    this.writer = new SqliteExecutor(writer);
    this.writes = writeQueueOf(file);
    // An in-memory database is private to its connection, so it reads through the writer.
    this.reader = file === ':memory:' ? this.writer : new SqliteExecutor(openConnection(file, options));
    if (options.backgroundCheckpoints && file !== ':memory:') {
      writer.pragma('wal_autocheckpoint = 0');
      this.checkpointer = startCheckpointer(
        file,
        options.synchronous ?? 'FULL',
        options.walLimitBytes ?? DEFAULT_WAL_LIMIT_BYTES,
      );
    }
  }

  /** The background checkpointer's last result (ADR 0714); undefined without one, or before its first. */
  get lastCheckpoint(): CheckpointResult | undefined {
    return this.checkpointer?.last;
  }

  /** The writer connection, for work that must run synchronously inside one transaction. */
  get rawWriter(): Connection {
    return this.writer.connection;
  }

  all<R extends Row>(sql: string, params?: readonly SqlValue[]): Promise<R[]> {
    return this.reader.all<R>(sql, params);
  }

  get<R extends Row>(sql: string, params?: readonly SqlValue[]): Promise<R | undefined> {
    return this.reader.get<R>(sql, params);
  }

  run(sql: string, params?: readonly SqlValue[]): Promise<number> {
    return this.transaction((tx) => tx.run(sql, params));
  }

  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    const { queue } = this.writes;
    const result = queue.tail.then(() => this.runTransaction(work));
    queue.tail = result.catch(() => undefined);
    return this.durable(result);
  }

  /**
   * Runs synchronous work inside one write transaction, queued behind the async ones.
   * `onCommit` hears the work's value as soon as the transaction has committed, before its
   * sync (ADR 0734); it must not throw.
   */
  transactionSync<T>(work: (connection: Connection) => T, onCommit?: (value: T) => void): Promise<T> {
    const { queue } = this.writes;
    const result = queue.tail.then(() => {
      const value = this.writer.connection.transaction(() => work(this.writer.connection)).immediate();
      onCommit?.(value);
      return value;
    });
    queue.tail = result.catch(() => undefined);
    return this.durable(result);
  }

  /** Whether commits are made durable off the event loop, so batches may overlap their syncs (ADR 0732). */
  get syncsOffEventLoop(): boolean {
    return this.walSync !== undefined;
  }

  /** WAL syncs completed off the event loop (ADR 0732); 0 without them. */
  get walSyncs(): number {
    return this.walSync?.syncs ?? 0;
  }

  /**
   * A committed transaction's value once its commit is durable: at once when SQLite synced it
   * inside the commit, else after a WAL sync that started after the commit (ADR 0732). The write
   * queue moves on at the commit, so the next transaction commits while this one's sync runs.
   */
  private durable<T>(committed: Promise<T>): Promise<T> {
    const walSync = this.walSync;
    if (!walSync) return committed;
    return committed.then(async (value) => {
      try {
        await walSync.afterCommit();
      } catch (error) {
        throw new CommitNotDurable(`committed, but the WAL sync failed: ${String(error)}`, { cause: error });
      }
      return value;
    });
  }

  private async runTransaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    const connection = this.writer.connection;
    connection.exec('BEGIN IMMEDIATE');
    try {
      const value = await work(this.writer);
      connection.exec('COMMIT');
      return value;
    } catch (error) {
      if (connection.inTransaction) connection.exec('ROLLBACK');
      throw translateError(error);
    }
  }

  async close(): Promise<void> {
    const { key, queue } = this.writes;
    await queue.tail;
    await this.walSync?.close();
    queue.users -= 1;
    if (key !== undefined && queue.users === 0 && WRITE_QUEUES.get(key) === queue) WRITE_QUEUES.delete(key);
    await this.checkpointer?.stop();
    if (this.reader !== this.writer) this.reader.connection.close();
    this.writer.connection.close();
  }
}
