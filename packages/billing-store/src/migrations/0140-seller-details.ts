import type { Migration } from './migration.js';
import { documentTable } from './migration.js';

/** The seller each account environment's invoices and credit notes name, with its logo (ADR 1106). */
export const sellerDetails: Migration = {
  id: '0140-seller-details',
  statements: () => [documentTable('seller_details', [])],
};
