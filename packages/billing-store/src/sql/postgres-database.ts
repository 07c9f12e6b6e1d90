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
 *
 * The URL may name several hosts, as libpq's do (`postgres://u:p@db1:5432,db2:5432/drawdown?
 * target_session_attrs=read-write`): node-postgres takes one host, so the pool's clients are made
 * here, each for the host last found writable; a host that refuses, times out or is read-only
 * (a standby) moves the next connection to the following host (ADR 1520). Every connection has
 * a connect timeout, a server-side statement timeout and a client-side read timeout a little
 * longer, so a hung server fails requests instead of holding them.
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

type Queryable = PooledQueries | pg.PoolClient;

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
  // A statement a hung server never answered (the client's read timeout): the connection is
  // unusable, since the answer may still arrive on it.
  return /Connection terminated|connection ended|ECONNRESET|EPIPE|Client has encountered a connection error|Query read timeout/i.test(
    message,
  );
}

/** Whether opening a connection failed in a way another host (or a later try) may not: refused, timed out, a standby. */
function connectFailed(error: unknown): boolean {
  if (error instanceof ReadOnlyServer) return true;
  const code = (error as { code?: string } | null)?.code;
  if (code !== undefined && ['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN'].includes(code))
    return true;
  return connectionEnded(error) || /timeout/i.test(error instanceof Error ? error.message : '');
}

/**
 * Statements outside a transaction, each on a connection from `connect` (every host tried, ADR
 * 1520); a connection that ended is destroyed, any other is returned to the pool.
 */
class PooledQueries {
  constructor(private readonly connect: () => Promise<pg.PoolClient>) {}

  async query(config: pg.QueryConfig): Promise<pg.QueryResult> {
    const client = await this.connect();
    let lost: Error | undefined;
    try {
      return await client.query(config);
    } catch (error) {
      if (connectionEnded(error)) lost = error as Error;
      throw error;
    } finally {
      client.release(lost);
    }
  }
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
  /** How long opening one connection (TCP and the startup exchange) may take; 5 s when absent. */
  readonly connectTimeoutMs?: number;
  /**
   * The server's `statement_timeout` for every statement; 0 turns it off. The client also stops
   * waiting for an answer this long plus a margin, which is what ends a statement on a hung
   * server (ADR 1520). 60 s when absent.
   */
  readonly statementTimeoutMs?: number;
}

/** One host of a (possibly multi-host) PostgreSQL URL. */
interface PostgresHost {
  readonly host: string;
  readonly port: number;
}

/** What a URL names: its hosts in order, the URL for each, and whether only a writable server will do. */
export interface PostgresTargets {
  readonly hosts: readonly PostgresHost[];
  /** One single-host URL per host, the rest of the URL unchanged (without `target_session_attrs`). */
  readonly urls: readonly string[];
  readonly readWrite: boolean;
}

/**
 * Splits a libpq-style URL into its hosts: `postgres://user:pass@a:5432,b:5433/db?…`. A host
 * without a port takes the URL's `port` parameter or 5432; `target_session_attrs` is `any` (the
 * default), or `read-write`/`primary`, which make a server in recovery (a standby) unacceptable.
 */
export function parsePostgresTargets(url: string): PostgresTargets {
  const match = /^(postgres(?:ql)?:\/\/)([^@/?#]*@)?([^/?#]*)(.*)$/i.exec(url);
  if (!match) throw new Error('the database URL must be a postgres:// URL');
  const [, scheme = '', credentials = '', hostList = '', rest = ''] = match;
  const queryStart = rest.indexOf('?');
  const path = queryStart < 0 ? rest : rest.slice(0, queryStart);
  const params = new URLSearchParams(queryStart < 0 ? '' : rest.slice(queryStart + 1));
  const attrs = params.get('target_session_attrs') ?? 'any';
  if (!['any', 'read-write', 'primary'].includes(attrs))
    throw new Error(`target_session_attrs must be any, read-write or primary; got ${attrs}`);
  params.delete('target_session_attrs');
  const defaultPort = Number(params.get('port') ?? 5432);
  params.delete('port');
  const hosts = (hostList === '' ? 'localhost' : hostList).split(',').map((entry): PostgresHost => {
    const parts = /^(\[[^\]]+\]|[^:]*)(?::(\d+))?$/.exec(entry);
    if (!parts?.[1]) throw new Error(`the database URL names a host it cannot read: ${entry}`);
    return { host: parts[1], port: parts[2] === undefined ? defaultPort : Number(parts[2]) };
  });
  const query = params.toString();
  const urls = hosts.map(
    ({ host, port }) => `${scheme}${credentials}${host}:${port}${path}${query === '' ? '' : `?${query}`}`,
  );
  return { hosts, urls, readWrite: attrs !== 'any' };
}

/** A server that answered but is a standby: the connection is closed and the next host tried. */
class ReadOnlyServer extends Error {
  readonly code = 'DRAWDOWN_READ_ONLY';
}

/**
 * Which host new connections go to: the one last found acceptable. A failure on host `i` moves
 * on to `i + 1` only if no other connection moved already, so a burst of failures on one host
 * advances once, not once per failure.
 */
class HostRouter {
  #current = 0;
  constructor(readonly count: number) {}
  get current(): number {
    return this.#current;
  }
  failed(index: number): void {
    if (this.#current === index) this.#current = (index + 1) % this.count;
  }
}

/** Margin over the statement timeout before the client stops waiting for an answer. */
const READ_TIMEOUT_MARGIN_MS = 2_000;

export class PostgresDatabase implements SqlDatabase {
  readonly dialect = 'postgres' as const;
  readonly pool: pg.Pool;
  private readonly executor: PostgresExecutor;

  readonly targets: PostgresTargets;
  readonly #router: HostRouter;

  constructor(url: string, options: PostgresOptions = {}) {
    const driver = nodePostgres();
    const targets = parsePostgresTargets(url);
    const router = new HostRouter(targets.hosts.length);
    this.targets = targets;
    this.#router = router;
    const statementTimeoutMs = options.statementTimeoutMs ?? 60_000;
    const connectionTimeoutMillis = options.connectTimeoutMs ?? 5_000;
    /**
     * A client for the host new connections go to now. The connect timeout is the client's own
     * (the pool's would also bound the wait for a free connection, which is queueing, not a
     * fault); a failure to connect moves the router on.
     */
    class RoutedClient extends driver.Client {
      readonly hostIndex: number;
      constructor(config: pg.ClientConfig = {}) {
        const hostIndex = router.current;
        super({
          ...config,
          connectionString: targets.urls[hostIndex],
          connectionTimeoutMillis,
          ...(statementTimeoutMs > 0
            ? { statement_timeout: statementTimeoutMs, query_timeout: statementTimeoutMs + READ_TIMEOUT_MARGIN_MS }
            : {}),
        });
        this.hostIndex = hostIndex;
      }
    }
    type Connect = (this: pg.Client, callback?: (error: Error | undefined) => void) => Promise<void> | undefined;
    const connect = driver.Client.prototype.connect as unknown as Connect;
    // Both of node-postgres's forms (callback, promise) pass through; a failure moves the router.
    const routedConnect: Connect = function (this: pg.Client, callback) {
      const index = (this as RoutedClient).hostIndex;
      if (callback)
        return connect.call(this, (error) => {
          if (error) router.failed(index);
          callback(error);
        });
      return (connect.call(this) as Promise<void>).catch((error: unknown) => {
        router.failed(index);
        throw error;
      });
    };
    RoutedClient.prototype.connect = routedConnect as unknown as typeof RoutedClient.prototype.connect;
    this.pool = new driver.Pool({
      connectionString: targets.urls[0],
      max: options.maxConnections ?? 10,
      Client: RoutedClient,
      // A standby is no place for our writes: it is closed and the next host is tried (ADR 1520).
      ...(targets.readWrite
        ? {
            onConnect: async (client: pg.ClientBase) => {
              const row = (await client.query('select pg_is_in_recovery() as standby')).rows[0] as { standby: boolean };
              if (row.standby) {
                router.failed((client as unknown as RoutedClient).hostIndex);
                throw new ReadOnlyServer('the database server is a standby (read-only)');
              }
            },
          }
        : {}),
    });
    // An idle client that loses its server must not crash the process; the pool drops it.
    this.pool.on('error', () => {});
    // And no client is ever without a handler, whatever the pool is doing with it at the time (a
    // connection can end between any two events): the owner of a checked-out client learns of the
    // failure from its queries, or from the handler `transaction` adds.
    this.pool.on('connect', (client) => {
      client.on('error', () => {});
    });
    this.executor = new PostgresExecutor(new PooledQueries(() => this.#connect()));
  }

  /**
   * A connection to an acceptable server: with several hosts, each is tried once in turn from the
   * one last found acceptable, so a failover costs a request one refused or timed-out attempt
   * per dead host, not a failure.
   */
  async #connect(): Promise<pg.PoolClient> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.pool.connect();
      } catch (error) {
        if (attempt >= this.#router.count || !connectFailed(error)) throw error;
      }
    }
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
      const client = await this.#connect();
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
