/**
 * @module
 * The transaction lifecycle as data (ADR 0401). Every status change goes through
 * `requireTransition`, so an illegal change is refused the same way wherever it is attempted.
 */
import { BillingError } from '../shared/billing-error.js';
import type { TransactionStatus } from './transaction.js';

/**
 * Which statuses each status may move to.
 * - `draft` becomes `ready` once customer and address are known.
 * - `ready` is billed (an invoice issued), paid (an automatic payment succeeded), goes
 *   `past_due` (an automatic payment failed), or is canceled.
 * - `billed` is paid, goes `past_due` (a failed automatic payment, or an invoice unpaid 24 hours
 *   after its due date), or is canceled.
 * - `past_due` is paid later, records another failure (stays `past_due`), or is canceled.
 * - `paid` is completed (at once: Drawdown has no settlement step).
 * - `completed` and `canceled` are final.
 */
export const NEXT_TRANSACTION_STATUSES = {
  draft: ['ready'],
  ready: ['billed', 'paid', 'past_due', 'canceled'],
  billed: ['paid', 'past_due', 'canceled'],
  past_due: ['paid', 'past_due', 'canceled'],
  paid: ['completed'],
  completed: [],
  canceled: [],
} as const satisfies Record<TransactionStatus, readonly TransactionStatus[]>;

export function canTransition(from: TransactionStatus, to: TransactionStatus): boolean {
  return (NEXT_TRANSACTION_STATUSES[from] as readonly TransactionStatus[]).includes(to);
}

/** @throws BillingError `transaction_status_transition_not_allowed` for a change the table forbids. */
export function requireTransition(transactionId: string, from: TransactionStatus, to: TransactionStatus): void {
  if (!canTransition(from, to)) {
    throw new BillingError(
      'transaction_status_transition_not_allowed',
      `Transaction ${transactionId} is ${from} and cannot become ${to}.`,
    );
  }
}
