import type { Migration } from './migration.js';
import { columnTypes, documentTable } from './migration.js';

/** Accounts, API keys, the catalogue and the event outbox. */
export const foundation: Migration = {
  id: '0001-foundation',
  statements: (dialect) => {
    const types = columnTypes(dialect);
    return [
      `create table accounts (
  id text primary key,
  name text not null,
  early_access ${types.boolean} not null,
  created_at text not null
)`,
      `create table api_keys (
  id text primary key,
  account_id text not null references accounts (id),
  environment text not null,
  name text not null,
  permissions text not null,
  secret_hash text not null,
  created_at text not null,
  expires_at text,
  revoked_at text
)`,
      'create index api_keys_by_account on api_keys (account_id, environment)',
      documentTable('products', ['status', 'type', 'tax_category']),
      'create index products_by_status on products (account_id, environment, status, id)',
      documentTable('prices', ['product_id', 'status', 'type', 'recurring']),
      'create index prices_by_product on prices (account_id, environment, product_id, id)',
      'create index prices_by_status on prices (account_id, environment, status, id)',
      documentTable('customers', ['status', 'email', 'search']),
      'create unique index customers_by_email on customers (account_id, environment, email)',
      'create index customers_by_status on customers (account_id, environment, status, id)',
      documentTable('addresses', ['customer_id', 'status']),
      'create index addresses_by_customer on addresses (account_id, environment, customer_id, id)',
      documentTable('usage_balance_units', ['status']),
      'create index usage_balance_units_by_status on usage_balance_units (account_id, environment, status, id)',
      documentTable('meters', ['status', 'usage_balance_unit_id', 'action']),
      // The seed: no two meters share an action and unit, even when one is archived.
      'create unique index meters_by_unit_and_action on meters (account_id, environment, usage_balance_unit_id, action)',
      'create index meters_by_status on meters (account_id, environment, status, id)',
      `create table events (
  sequence ${types.sequence},
  account_id text not null,
  environment text not null,
  id text not null,
  event_type text not null,
  occurred_at text not null,
  entity_kind text not null,
  body text not null
)`,
      'create unique index events_by_id on events (account_id, environment, id)',
      'create index events_by_type on events (account_id, environment, event_type, id)',
    ];
  },
};
