/**
 * @module
 * PostgreSQL through a node-postgres pool. Statements are written with `?` placeholders and
 * numbered here; transactions retry on serialization failures and deadlocks.
 *
 * A connection the server ends (a failover, `pg_terminate_backend`) never takes the process
 * down (ADR 0905): every client carries an `error` handler from its creation, the pool drops
 * idle clients that fail, a client checked out for a transaction gets a handler that marks it
 * lost, and one that failed is destroyed, not returned to the pool. A transaction whose connection was lost before its commit was sent is run again on a
 * new connection (nothing of it was committed); one lost during the commit is not, since it may
 * have committed, and its error reaches the caller. A read outside a transaction whose
 * connection was lost runs once more on another connection; a write outside one never does.
 */
import { createRequire } from 'node:module';
import type pg from 'pg';
import type { Row, SqlDatabase, SqlExecutor, SqlValue } from './sql-database.js';
import { PLAN_EACH_EXECUTION, UniqueViolation } from './sql-database.js';

let loadedPg: typeof pg | undefined;

/**
 * node-postgres, loaded by the first PostgreSQL database a process opens: importing it costs a
 * SQLite process (and every short CLI command on SQLite) a few hundred milliseconds, since it
 * also makes Node load its fetch implementation.
 */
function nodePostgres(): typeof pg {
  if (loadedPg) return loadedPg;
  loadedPg = createRequire(import.meta.url)('pg') as typeof pg;
  // Numeric columns come back as strings by default; counts and sequences fit in a JS number.
  loadedPg.types.setTypeParser(loadedPg.types.builtins.INT8, (value) => Number.parseInt(value, 10));
  return loadedPg;
}

const RETRYABLE = new Set(['40001', '40P01']);
/** The server ended the session: admin shutdown, crash shutdown, cannot connect now, idle timeout. */
const CONNECTION_ENDED = new Set(['57P01', '57P02', '57P03', '57P05']);
const MAX_ATTEMPTS = 5;

/** A statement as node-postgres sends it: numbered placeholders, and a name when it is prepared. */
interface PreparedText {
  readonly text: string;
  readonly name: string | undefined;
}

/**
 * Statements with at most this many parameters are prepared by name, once per connection, so
 * PostgreSQL parses and plans them once instead of on every execution (ADR 0711). Longer
 * ones are generated lists (`in (?, ?, …)`) whose texts vary with their length.
 */
const MAX_PREPARED_PARAMETERS = 32;
/** A bound on the statements each connection keeps prepared, whatever callers generate. */
const MAX_PREPARED_STATEMENTS = 500;

/** Only data statements are prepared: a schema change must never meet a plan made before it. */
const DATA_STATEMENT = /^\s*(select|insert|update|delete|with)\b/i;

const numbered = new Map<string, PreparedText>();
let preparedCount = 0;

/** Rewrites `?` placeholders as `$1, $2, …` and names the statement. Our statements never hold a literal `?`. */
function toPostgres(sql: string): PreparedText {
  let statement = numbered.get(sql);
  if (statement === undefined) {
    let index = 0;
    const text = sql.replace(/\?/g, () => `$${++index}`);
    const prepared =
      DATA_STATEMENT.test(sql) &&
      !sql.startsWith(PLAN_EACH_EXECUTION) &&
      index <= MAX_PREPARED_PARAMETERS &&
      preparedCount < MAX_PREPARED_STATEMENTS;
    if (prepared) preparedCount += 1;
    statement = { text, name: prepared ? `dd${preparedCount}` : undefined };
    numbered.set(sql, statement);
  }
  return statement;
}

function query(target: Queryable, sql: string, params: readonly SqlValue[]): Promise<pg.QueryResult> {
  const { text, name } = toPostgres(sql);
  return target.query(
    name === undefined ? { text, values: params as SqlValue[] } : { name, text, values: params as SqlValue[] },
  );
}

function translateError(error: unknown): unknown {
  if (error instanceof Error && (error as { code?: string }).code === '23505')
    return new UniqueViolation(error.message);
  return error;
}

type Queryable = pg.Pool | pg.PoolClient;

/** A statement that only reads: it may run again after its connection was lost (ADR 1489). */
function onlyReads(sql: string): boolean {
  const text = sql.startsWith(PLAN_EACH_EXECUTION) ? sql.slice(PLAN_EACH_EXECUTION.length) : sql;
  return /^\s*(select|with)\b/i.test(text) && !/\b(insert|update|delete|merge|nextval|setval)\b/i.test(text);
}

/** Whether a failure means the connection is gone (the server ended it, or the socket closed). */
function connectionEnded(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  if (code !== undefined && CONNECTION_ENDED.has(code)) return true;
  // Class 08, connection exceptions; and the socket's own errors.
  if (code !== undefined && (code.startsWith('08') || code === 'ECONNRESET' || code === 'EPIPE')) return true;
  const message = error instanceof Error ? error.message : '';
  return /Connection terminated|connection ended|ECONNRESET|EPIPE|Client has encountered a connection error/i.test(
    message,
  );
}

class PostgresExecutor implements SqlExecutor {
  readonly dialect = 'postgres' as const;

  constructor(private readonly target: Queryable) {}

  async all<R extends Row>(sql: string, params: readonly SqlValue[] = []): Promise<R[]> {
    try {
      const result = await query(this.target, sql, params);
      return result.rows as R[];
    } catch (error) {
      throw translateError(error);
    }
  }

  async get<R extends Row>(sql: string, params?: readonly SqlValue[]): Promise<R | undefined> {
    const rows = await this.all<R>(sql, params);
    return rows[0];
  }

  async run(sql: string, params: readonly SqlValue[] = []): Promise<number> {
    try {
      const result = await query(this.target, sql, params);
      return result.rowCount ?? 0;
    } catch (error) {
      throw translateError(error);
    }
  }
}

export interface PostgresOptions {
  readonly maxConnections?: number;
}

export class PostgresDatabase implements SqlDatabase {
  readonly dialect = 'postgres' as const;
  readonly pool: pg.Pool;
  private readonly executor: PostgresExecutor;

  constructor(url: string, options: PostgresOptions = {}) {
    this.pool = new (nodePostgres().Pool)({ connectionString: url, max: options.maxConnections ?? 10 });
    // An idle client that loses its server must not crash the process; the pool drops it.
    this.pool.on('error', () => {});
    // And no client is ever without a handler, whatever the pool is doing with it at the time (a
    // connection can end between any two events): the owner of a checked-out client learns of the
    // failure from its queries, or from the handler `transaction` adds.
    this.pool.on('connect', (client) => {
      client.on('error', () => {});
    });
    this.executor = new PostgresExecutor(this.pool);
  }

  /**
   * A read outside a transaction whose connection the server ended (`57P0x`, class `08`, a reset
   * socket) runs once more: the pool destroyed the failed client, so it runs on another
   * connection, and a read has nothing to undo. Statements that write are never run again
   * outside a transaction, since the server may have applied them before the connection ended
   * (ADR 1489).
   */
  async all<R extends Row>(sql: string, params?: readonly SqlValue[]): Promise<R[]> {
    try {
      return await this.executor.all<R>(sql, params);
    } catch (error) {
      if (!connectionEnded(error) || !onlyReads(sql)) throw error;
      return this.executor.all<R>(sql, params);
    }
  }

  async get<R extends Row>(sql: string, params?: readonly SqlValue[]): Promise<R | undefined> {
    const rows = await this.all<R>(sql, params);
    return rows[0];
  }

  run(sql: string, params?: readonly SqlValue[]): Promise<number> {
    return this.executor.run(sql, params);
  }

  async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      const client = await this.pool.connect();
      // Checked out, a client has no pool handler: without this one, the server ending the
      // connection between two statements would be an unhandled 'error' event.
      let lost: Error | undefined;
      const onError = (error: Error) => {
        lost = error;
      };
      client.on('error', onError);
      let committing = false;
      try {
        await client.query('begin');
        const value = await work(new PostgresExecutor(client));
        committing = true;
        await client.query('commit');
        return value;
      } catch (error) {
        let broken = lost !== undefined || connectionEnded(error);
        if (!broken) {
          // A client that cannot even roll back is broken too, whatever its error said.
          await client.query('rollback').catch(() => {
            broken = true;
          });
        }
        if (broken) lost ??= error as Error;
        const code = (error as { code?: string }).code;
        const retry = (code !== undefined && RETRYABLE.has(code)) || (broken && !committing);
        if (retry && attempt < MAX_ATTEMPTS) continue;
        throw translateError(error);
      } finally {
        client.off('error', onError);
        // A client whose connection failed is destroyed rather than handed to the next caller.
        client.release(lost);
      }
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
