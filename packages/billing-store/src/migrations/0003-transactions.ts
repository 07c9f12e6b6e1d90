import type { Migration } from './migration.js';
import { columnTypes, documentTable } from './migration.js';

/** Transactions, invoice number sequences, adjustments, tax settings and service secrets. */
export const transactions: Migration = {
  id: '0003-transactions',
  statements: (dialect) => {
    const types = columnTypes(dialect);
    return [
      documentTable('transactions', [
        'customer_id',
        'status',
        'subscription_id',
        'collection_mode',
        'invoice_number',
        'origin',
        'billed_at',
        'created_at',
        'updated_at',
        // billed_at, or '' before billing: a non-null key for ordering by billed_at with an id cursor.
        'billed_key',
        // When a billed manual invoice, still unpaid, becomes past due; null otherwise.
        'past_due_after',
      ]),
      // One customer's page for a status set: an index range per status, at most a page to sort.
      'create index transactions_by_customer on transactions (account_id, environment, customer_id, status, id)',
      'create index transactions_by_status on transactions (account_id, environment, status, id)',
      'create index transactions_by_subscription on transactions (account_id, environment, subscription_id, id)',
      'create index transactions_by_billed on transactions (account_id, environment, billed_key, id)',
      'create unique index transactions_by_invoice_number on transactions (account_id, environment, invoice_number)',
      'create index transactions_overdue on transactions (environment, past_due_after, account_id) where past_due_after is not null',
      `create table invoice_sequences (
  account_id text not null,
  environment text not null,
  year ${types.integer} not null,
  last_number ${types.integer} not null,
  primary key (account_id, environment, year)
)`,
      documentTable('adjustments', ['transaction_id', 'customer_id', 'subscription_id', 'action', 'status']),
      'create index adjustments_by_transaction on adjustments (account_id, environment, transaction_id, id)',
      'create index adjustments_by_customer on adjustments (account_id, environment, customer_id, id)',
      `create table tax_settings (
  account_id text not null,
  environment text not null,
  body text not null,
  primary key (account_id, environment)
)`,
      `create table service_secrets (
  name text primary key,
  value text not null,
  created_at text not null
)`,
    ];
  },
};
