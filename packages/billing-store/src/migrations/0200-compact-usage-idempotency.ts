import type { Scope } from '@drawdown/billing-core';
import { POSTGRES_IDEMPOTENCY_HASH, usageIdempotencyHash } from '../repositories/usage-idempotency.js';
import type { SqlExecutor } from '../sql/sql-database.js';
import type { Migration } from './migration.js';

const BACKFILL_BATCH = 5_000;

interface IdentityRow extends Record<string, unknown> {
  sequence: number;
  account_id: string;
  environment: Scope['environment'];
  customer_id: string;
  action: string;
  event_key: string;
  occurred_at: string;
}

/** SQLite has no SHA-256: its existing rows get their hash from the same JavaScript the ingest uses. */
async function backfillSqliteHashes(tx: SqlExecutor): Promise<void> {
  for (let after = 0; ; ) {
    const rows = await tx.all<IdentityRow>(
      `select sequence, account_id, environment, customer_id, action, event_key, occurred_at
       from usage_events where sequence > ? order by sequence limit ${BACKFILL_BATCH}`,
      [after],
    );
    if (rows.length === 0) return;
    for (const row of rows) {
      const hash = usageIdempotencyHash(
        { accountId: row.account_id, environment: row.environment },
        { customerId: row.customer_id, action: row.action, eventKey: row.event_key, occurredAt: row.occurred_at },
      );
      await tx.run('update usage_events set idempotency_hash = ? where sequence = ?', [hash, row.sequence]);
    }
    after = Number(rows[rows.length - 1]?.sequence);
  }
}

/**
 * Issue 16, ADR 0717: the usage event's idempotency index holds a 16-byte hash instead of six
 * texts, and the events waiting for their drawdown are listed in `usage_pending`, a table of
 * their own that the drawdown deletes from, so applying an event no longer rewrites its row (the
 * `applied_at` stamp and the partial index on it are gone). Existing rows are backfilled on both
 * engines: every event gets its hash, every event not yet applied its pending row.
 */
export const compactUsageIdempotency: Migration = {
  id: '0200-compact-usage-idempotency',
  statements: (dialect) => [
    `alter table usage_events add column idempotency_hash ${dialect === 'postgres' ? 'bytea' : 'blob'}`,
    dialect === 'postgres'
      ? `update usage_events set idempotency_hash = ${POSTGRES_IDEMPOTENCY_HASH}`
      : backfillSqliteHashes,
    ...(dialect === 'postgres' ? ['alter table usage_events alter column idempotency_hash set not null'] : []),
    'create unique index usage_events_by_idempotency_hash on usage_events (idempotency_hash)',
    'drop index usage_events_idempotency',
    `create table usage_pending (sequence ${dialect === 'postgres' ? 'bigint' : 'integer'} primary key)`,
    'insert into usage_pending (sequence) select sequence from usage_events where applied_at is null',
    'drop index usage_events_pending',
    'alter table usage_events drop column applied_at',
  ],
};
