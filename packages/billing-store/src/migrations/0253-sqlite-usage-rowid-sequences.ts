import type { Migration } from './migration.js';

/**
 * Issue 39, ADR 0739: on SQLite, `usage_events` and `usage_ledger` number their rows with the
 * plain rowid instead of `autoincrement`. With `autoincrement` every insert statement read and
 * rewrote the table's row in `sqlite_sequence`, and every commit that inserted wrote that page to
 * the WAL: one frame per ingest commit and per drawdown commit. Neither table is ever deleted
 * from, so the next rowid (one above the largest) is the next number `autoincrement` would have
 * given: the numbering is the same. Each table is rebuilt with the same columns, rows and
 * sequences, and its indexes made again. PostgreSQL's `bigserial` has no such cost: nothing there.
 */
export const sqliteUsageRowidSequences: Migration = {
  id: '0253-sqlite-usage-rowid-sequences',
  statements: (dialect) =>
    dialect === 'postgres'
      ? []
      : [
          `create table usage_events_rowid (
  sequence integer primary key,
  account_id text not null,
  environment text not null,
  id text not null,
  customer_id text not null,
  action text not null,
  event_key text not null,
  occurred_at text not null,
  quantity text not null,
  accepted_at text not null,
  drawdowns text not null,
  idempotency_hash blob
)`,
          `insert into usage_events_rowid (sequence, account_id, environment, id, customer_id, action, event_key, occurred_at, quantity, accepted_at, drawdowns, idempotency_hash)
  select sequence, account_id, environment, id, customer_id, action, event_key, occurred_at, quantity, accepted_at, drawdowns, idempotency_hash
  from usage_events order by sequence`,
          'drop table usage_events',
          'alter table usage_events_rowid rename to usage_events',
          'create unique index usage_events_by_idempotency_hash on usage_events (idempotency_hash)',
          `create table usage_ledger_rowid (
  sequence integer primary key,
  account_id text not null,
  environment text not null,
  balance_id text not null,
  entry text not null
)`,
          `insert into usage_ledger_rowid (sequence, account_id, environment, balance_id, entry)
  select sequence, account_id, environment, balance_id, entry from usage_ledger order by sequence`,
          'drop table usage_ledger',
          'alter table usage_ledger_rowid rename to usage_ledger',
          'create index usage_ledger_by_balance on usage_ledger (account_id, environment, balance_id, sequence)',
        ],
};
