import type { Migration } from './migration.js';
import { documentTable } from './migration.js';

/** Businesses under customers (issue 13). */
export const businesses: Migration = {
  id: '0031-businesses',
  statements: () => [
    documentTable('businesses', ['customer_id', 'status', 'search']),
    'create index businesses_by_customer on businesses (account_id, environment, customer_id, id)',
  ],
};
