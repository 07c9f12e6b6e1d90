/**
 * @module
 * Where an invoice exists (seed 001, rule 4): completed automatically collected transactions,
 * and manually collected ones that are billed or completed; never zero-value transactions
 * (subtotal not above zero), such as the one that starts a trial. The page offers the invoice
 * button only there, so nobody is shown a button that can only fail.
 */
import type { Transaction } from '@drawdown/sdk';

/** Whether the transaction has an invoice PDF. */
export function hasInvoice(transaction: Pick<Transaction, 'status' | 'collectionMode' | 'details'>): boolean {
  const subtotal = transaction.details?.totals?.subtotal ?? '0';
  if (!/^-?\d+$/.test(subtotal) || BigInt(subtotal) <= 0n) return false;
  if (transaction.collectionMode === 'manual') {
    return transaction.status === 'billed' || transaction.status === 'completed';
  }
  return transaction.status === 'completed';
}
