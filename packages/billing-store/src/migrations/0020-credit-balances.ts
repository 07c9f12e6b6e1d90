import type { Migration } from './migration.js';
import { columnTypes } from './migration.js';

/**
 * Credit balances (ADR 1002): one row per customer and currency holding the folded amounts,
 * beside the append-only ledger that produced them.
 */
export const creditBalances: Migration = {
  id: '0020-credit-balances',
  statements: (dialect) => {
    const types = columnTypes(dialect);
    return [
      `create table credit_balances (
  account_id text not null,
  environment text not null,
  customer_id text not null,
  currency_code text not null,
  body text not null,
  primary key (account_id, environment, customer_id, currency_code)
)`,
      `create table credit_ledger (
  sequence ${types.sequence},
  account_id text not null,
  environment text not null,
  customer_id text not null,
  currency_code text not null,
  entry text not null
)`,
      'create index credit_ledger_by_balance on credit_ledger (account_id, environment, customer_id, currency_code, sequence)',
    ];
  },
};
