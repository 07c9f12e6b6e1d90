/**
 * @module
 * Reading the outbox for one consumer: each consumer of the `events` table (webhook
 * notifications, customer email) keeps its own "fanned out" flag column on it, takes the oldest
 * events whose flag is unset, and sets the flag in the same transaction as the work it made of
 * them. On PostgreSQL the rows are read `for update skip locked`, so workers in several processes
 * take disjoint events; on SQLite the write transaction already excludes every other writer.
 */
import type { Environment, EventToFanOut, StoredEvent } from '@drawdown/billing-core';
import type { SqlExecutor } from '../sql/sql-database.js';

/** The consumers' flag columns on `events` (migrations 0005 and 0250 add them). */
export type FanOutFlag = 'fanned_out' | 'emails_fanned_out';

/** `?, ?, …`: one placeholder for each of `count` values. */
export function placeholders(count: number): string {
  return Array.from({ length: count }, () => '?').join(', ');
}

export async function hasEventsToFanOut(sql: SqlExecutor, flag: FanOutFlag): Promise<boolean> {
  return (await sql.get(`select 1 as found from events where ${flag} = 0 limit 1`)) !== undefined;
}

export async function eventsToFanOut(
  sql: SqlExecutor,
  flag: FanOutFlag,
  limit: number,
): Promise<readonly EventToFanOut[]> {
  const lock = sql.dialect === 'postgres' ? ' for update skip locked' : '';
  const rows = await sql.all<{ sequence: number; account_id: string; environment: Environment; body: string }>(
    `select sequence, account_id, environment, body from events where ${flag} = 0 order by sequence limit ?${lock}`,
    [limit],
  );
  return rows.map((row) => ({
    scope: { accountId: row.account_id, environment: row.environment },
    event: JSON.parse(row.body) as StoredEvent,
    sequence: Number(row.sequence),
  }));
}

export async function markFannedOut(
  sql: SqlExecutor,
  flag: FanOutFlag,
  events: readonly EventToFanOut[],
): Promise<void> {
  if (events.length === 0) return;
  await sql.run(
    `update events set ${flag} = 1 where sequence in (${placeholders(events.length)})`,
    events.map((pending) => pending.sequence),
  );
}
