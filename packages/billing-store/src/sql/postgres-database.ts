/**
 * @module
 * PostgreSQL through a node-postgres pool. Statements are written with `?` placeholders and
 * numbered here; transactions retry on serialization failures and deadlocks.
 */
import pg from 'pg';
import type { Row, SqlDatabase, SqlExecutor, SqlValue } from './sql-database.js';
import { UniqueViolation } from './sql-database.js';

// Numeric columns come back as strings by default; counts and sequences fit in a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

const RETRYABLE = new Set(['40001', '40P01']);
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
      DATA_STATEMENT.test(sql) && index <= MAX_PREPARED_PARAMETERS && preparedCount < MAX_PREPARED_STATEMENTS;
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
    this.pool = new pg.Pool({ connectionString: url, max: options.maxConnections ?? 10 });
    // An idle client that loses its server must not crash the process.
    this.pool.on('error', () => {});
    // A checked-out client whose server goes away emits 'error' too; its pending query rejects
    // on its own, so the event needs no more than a listener (or the process would crash).
    this.pool.on('connect', (client) => client.on('error', () => {}));
    this.executor = new PostgresExecutor(this.pool);
  }

  all<R extends Row>(sql: string, params?: readonly SqlValue[]): Promise<R[]> {
    return this.executor.all<R>(sql, params);
  }

  get<R extends Row>(sql: string, params?: readonly SqlValue[]): Promise<R | undefined> {
    return this.executor.get<R>(sql, params);
  }

  run(sql: string, params?: readonly SqlValue[]): Promise<number> {
    return this.executor.run(sql, params);
  }

  async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      const client = await this.pool.connect();
      try {
        await client.query('begin');
        const value = await work(new PostgresExecutor(client));
        await client.query('commit');
        return value;
      } catch (error) {
        await client.query('rollback').catch(() => {});
        const code = (error as { code?: string }).code;
        if (code !== undefined && RETRYABLE.has(code) && attempt < MAX_ATTEMPTS) continue;
        throw translateError(error);
      } finally {
        client.release();
      }
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
