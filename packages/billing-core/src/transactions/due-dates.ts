/**
 * @module
 * When a manually collected invoice falls due, and when it becomes past due: 24 hours after
 * its due date (the seed), the due date being the billing time plus the payment terms.
 */

import { addCycles } from '../catalogue/durations.js';
import type { Duration } from '../catalogue/entities.js';
import type { BillingDetails, Transaction } from './transaction.js';

export const PAST_DUE_GRACE_MS = 24 * 60 * 60 * 1000;

/** Net 30: the payment terms of a manual transaction created without billing details. */
export const DEFAULT_PAYMENT_TERMS: Duration = { interval: 'day', frequency: 30 };

export const DEFAULT_BILLING_DETAILS: BillingDetails = {
  enableCheckout: false,
  purchaseOrderNumber: null,
  additionalInformation: null,
  paymentTerms: DEFAULT_PAYMENT_TERMS,
};

/** The due date of a billed manual invoice, or null when none applies. */
export function invoiceDueAt(transaction: Transaction): string | null {
  if (transaction.collectionMode !== 'manual' || transaction.billedAt === null) return null;
  return addCycles(transaction.billedAt, (transaction.billingDetails ?? DEFAULT_BILLING_DETAILS).paymentTerms, 1);
}

/**
 * The instant a billed manual invoice, still unpaid, becomes past due; null for anything that
 * is not an unpaid billed manual invoice. Storage promotes it so the check is one index range.
 */
export function pastDueAfter(transaction: Transaction): string | null {
  if (transaction.status !== 'billed') return null;
  const due = invoiceDueAt(transaction);
  if (due === null) return null;
  return new Date(Date.parse(due) + PAST_DUE_GRACE_MS).toISOString();
}
