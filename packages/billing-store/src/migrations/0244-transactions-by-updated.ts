import type { Migration } from './migration.js';

/** `GET /transactions?order_by=updated_at[…]` (issue 36): keyset on (updated_at, id) per account environment. */
export const transactionsByUpdated: Migration = {
  id: '0244-transactions-by-updated',
  statements: () => ['create index transactions_by_updated on transactions (account_id, environment, updated_at, id)'],
};
