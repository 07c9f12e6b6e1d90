/**
 * @module
 * A payment in flight owns its transaction (ADR 1468). While a provider payment waits (a 3-D
 * Secure challenge, a browser's confirmation, the provider's answer), nothing that changes what
 * the transaction owes or whether it may be paid is accepted: cancel, reported and simulated
 * payments, item, currency, customer, address, discount and billing changes, and credits. Each is
 * refused with `transaction_payment_in_progress` and changes nothing; the payment ends (paid,
 * declined, or canceled at the provider when it is abandoned) and the change can be asked again.
 * The check runs under the transaction's row lock, the lock under which attempts begin, so a
 * payment cannot start between the check and the change.
 */
import { BillingError } from '../shared/billing-error.js';
import type { Context } from '../shared/context.js';
import type { TransactionSlice } from './repositories.js';

/**
 * How long a customer-present payment may wait for the customer (a challenge, a browser's
 * confirmation) before the recovery step cancels it at the provider (ADR 1468).
 */
export const WAITING_PAYMENT_EXPIRES_MS = 30 * 60_000;

/** Refuses `what` while a payment of `transactionId` is in flight. Call it holding the transaction's row lock. */
export async function refuseWhilePaymentInFlight(
  context: Context<TransactionSlice>,
  tx: TransactionSlice,
  transactionId: string,
  what: string,
): Promise<void> {
  if (!(await tx.transactions.hasPaymentInFlight(context.scope, transactionId))) return;
  throw new BillingError(
    'transaction_payment_in_progress',
    `A payment of transaction ${transactionId} is in progress (the customer is authenticating or the payment provider has not answered yet); ${what} is refused until it ends. A payment left waiting is canceled at the provider after ${WAITING_PAYMENT_EXPIRES_MS / 60_000} minutes.`,
  );
}
