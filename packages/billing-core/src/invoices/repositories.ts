/**
 * @module
 * Storage port of invoices: the seller each account environment's documents name (ADR 1106).
 */

import type { Collection } from '../shared/collection.js';
import type { TransactionSlice } from '../transactions/repositories.js';
import type { SellerDetails } from './entities.js';

/** The repositories invoices own. */
export interface InvoiceRepositories {
  /** The seller the account environment's documents name (ADR 1106), as document `seller`. */
  readonly sellerDetails: Collection<SellerDetails, 'id'>;
}

/** What invoices use: the seller and the transactions and adjustments they document. */
export interface InvoiceSlice extends InvoiceRepositories, TransactionSlice {}
