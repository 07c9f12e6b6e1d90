/**
 * @module
 * The little SQL both engines share: statements written once with `?` placeholders, run on
 * SQLite (better-sqlite3) or PostgreSQL (node-postgres). Everything above this file is
 * engine-neutral except where a dialect flag says otherwise.
 */

/** A `Uint8Array` (a Buffer) is a `blob` on SQLite and a `bytea` on PostgreSQL. */
export type SqlValue = string | number | bigint | null | Uint8Array;
export type Dialect = 'sqlite' | 'postgres';
export type Row = Record<string, unknown>;

export interface SqlExecutor {
  readonly dialect: Dialect;
  all<R extends Row>(sql: string, params?: readonly SqlValue[]): Promise<R[]>;
  get<R extends Row>(sql: string, params?: readonly SqlValue[]): Promise<R | undefined>;
  /** Runs a statement and returns the number of rows it changed. */
  run(sql: string, params?: readonly SqlValue[]): Promise<number>;
}

export interface SqlDatabase extends SqlExecutor {
  /**
   * Runs `work` in one transaction: all of it commits, or none of it. On PostgreSQL a
   * serialization failure or deadlock reruns `work`, so it must have no effects outside the
   * database.
   */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Raised for a unique index violation on either engine. */
export class UniqueViolation extends Error {
  override readonly name = 'UniqueViolation';
}

/**
 * A transaction committed, but the sync that would make it durable failed (ADR 0732): whether it
 * survives a power loss is unknown, as when a commit's answer is lost. It must not be committed
 * again as if it had not happened.
 */
export class CommitNotDurable extends Error {
  override readonly name = 'CommitNotDurable';
}

/**
 * Marks a statement PostgreSQL must plan on every execution instead of preparing it by name
 * (ADR 0723): one that joins a parameter-sized set (a JSON array, an array of sequences) to a
 * table that grows. A named statement gets a generic plan after five executions and keeps it
 * for the life of the connection; planned while the table was small, that plan scans the whole
 * table on every execution once it is large. A comment, so SQLite runs the text unchanged.
 */
export const PLAN_EACH_EXECUTION = '/* planned per execution */ ';

/** `FOR UPDATE` where the engine has row locks; SQLite transactions already hold the write lock. */
export function forUpdate(dialect: Dialect): string {
  return dialect === 'postgres' ? ' for update' : '';
}
