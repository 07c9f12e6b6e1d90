import type { Migration } from './migration.js';
import { columnTypes, documentTable } from './migration.js';

/** Subscriptions, usage balances and their ledger, usage events, sandbox clocks. */
export const usage: Migration = {
  id: '0002-usage',
  statements: (dialect) => {
    const types = columnTypes(dialect);
    return [
      documentTable('subscriptions', [
        'customer_id',
        'address_id',
        'status',
        'collection_mode',
        'scheduled_change_action',
        'due_at',
      ]),
      'create index subscriptions_by_customer on subscriptions (account_id, environment, customer_id, id)',
      'create index subscriptions_by_status on subscriptions (account_id, environment, status, id)',
      'create index subscriptions_due on subscriptions (environment, due_at)',
      documentTable('usage_balances', ['customer_id', 'usage_balance_unit_id']),
      'create unique index usage_balances_by_customer_unit on usage_balances (account_id, environment, customer_id, usage_balance_unit_id)',
      `create table usage_ledger (
  sequence ${types.sequence},
  account_id text not null,
  environment text not null,
  balance_id text not null,
  entry text not null
)`,
      'create index usage_ledger_by_balance on usage_ledger (account_id, environment, balance_id, sequence)',
      `create table usage_events (
  sequence ${types.sequence},
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
  applied_at text
)`,
      // The seed: an event counts once per customer, action, event_key and occurred_at.
      'create unique index usage_events_idempotency on usage_events (account_id, environment, customer_id, action, event_key, occurred_at)',
      'create index usage_events_pending on usage_events (sequence) where applied_at is null',
      `create table sandbox_clocks (
  account_id text primary key,
  offset_ms ${types.integer} not null
)`,
    ];
  },
};
