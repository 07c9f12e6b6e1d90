/**
 * @module
 * Where invoices exist (the seed): for completed automatically collected transactions, and for
 * manually collected ones that are billed or completed; never for zero-value transactions
 * (subtotal not above zero), such as the one that starts a trial.
 */
import { BillingError } from '../shared/billing-error.js';
import type { Transaction } from '../transactions/transaction.js';

export type InvoiceUnavailableReason = 'zero_value' | 'not_completed' | 'not_billed';

/** Null when the transaction has an invoice, else why it has none. */
export function invoiceUnavailableReason(transaction: Transaction): InvoiceUnavailableReason | null {
  if (BigInt(transaction.details.totals.subtotal) <= 0n) return 'zero_value';
  if (transaction.collectionMode === 'automatic') return transaction.status === 'completed' ? null : 'not_completed';
  return transaction.status === 'billed' || transaction.status === 'completed' ? null : 'not_billed';
}

const EXPLANATIONS: Record<InvoiceUnavailableReason, string> = {
  zero_value: 'zero-value transactions have no invoice',
  not_completed: 'an automatically collected transaction has an invoice once it is completed',
  not_billed: 'a manually collected transaction has an invoice once it is billed, and while billed or completed',
};

/** @throws BillingError `transaction_invoice_not_available` when the transaction has no invoice. */
export function requireInvoice(transaction: Transaction): void {
  const reason = invoiceUnavailableReason(transaction);
  if (reason !== null) {
    throw new BillingError(
      'transaction_invoice_not_available',
      `Transaction ${transaction.id} (${transaction.collectionMode}, ${transaction.status}) has no invoice: ${EXPLANATIONS[reason]}.`,
    );
  }
}
