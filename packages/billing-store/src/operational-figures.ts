/**
 * @module
 * The figures an operator watches, read straight from the tables: the usage backlog (events
 * accepted, not yet drawn down) and how old its oldest event is, the outbox (events not yet fanned
 * out to destinations) and the webhook queue (notifications not yet delivered or given up), the
 * pool's connections, and whether the database answers at all.
 */
import { PostgresDatabase } from './sql/postgres-database.js';
import { PLAN_EACH_EXECUTION, type SqlDatabase } from './sql/sql-database.js';

export interface QueueFigures {
  readonly pendingUsageEvents: number;
  /** `accepted_at` of the oldest event still waiting for its drawdown; null when none waits. */
  readonly oldestPendingUsageAcceptedAt: string | null;
  readonly eventsAwaitingFanOut: number;
  readonly notificationsAwaitingDelivery: number;
}

export async function readQueueFigures(database: SqlDatabase): Promise<QueueFigures> {
  const usage = await database.get<{ pending: number | string; oldest: string | null }>(
    `${PLAN_EACH_EXECUTION}select count(*) as pending, min(e.accepted_at) as oldest from usage_pending p join usage_events e on e.sequence = p.sequence`,
  );
  const outbox = await database.get<{ waiting: number | string }>(
    'select count(*) as waiting from events where fanned_out = 0',
  );
  const webhooks = await database.get<{ waiting: number | string }>(
    'select count(*) as waiting from notifications where due_at is not null',
  );
  return {
    pendingUsageEvents: Number(usage?.pending ?? 0),
    oldestPendingUsageAcceptedAt: usage?.oldest ?? null,
    eventsAwaitingFanOut: Number(outbox?.waiting ?? 0),
    notificationsAwaitingDelivery: Number(webhooks?.waiting ?? 0),
  };
}

export interface PoolFigures {
  readonly max: number;
  readonly total: number;
  readonly idle: number;
  /** Callers waiting for a connection: the pool is too small, or the database too slow. */
  readonly waiting: number;
}

/** The PostgreSQL pool's use; SQLite has no pool (one writer, one reader). */
export function poolFigures(database: SqlDatabase): PoolFigures | null {
  if (!(database instanceof PostgresDatabase)) return null;
  const pool = database.pool;
  return { max: pool.options.max, total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount };
}

/** Resolves when the database answers a trivial query within `timeoutMs`; rejects otherwise. */
export async function pingDatabase(database: SqlDatabase, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the database did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    // On PostgreSQL the server must also take writes: a standby (or a primary being demoted)
    // cannot serve, and readiness says so until a writable primary answers (ADR 1520).
    if (database.dialect === 'postgres') {
      const row = await Promise.race([
        database.get<{ standby: boolean }>('select pg_is_in_recovery() as standby'),
        timeout,
      ]);
      if (row?.standby) throw new Error('the database server is a standby (read-only)');
    } else await Promise.race([database.get('select 1 as alive'), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
