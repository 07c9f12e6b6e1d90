/**
 * @module
 * Payments are recorded, never processed (DESIGN §4). The sandbox simulates success and
 * failure; a live deployment records what the operator's payment provider reports. A payment
 * that settles the balance makes the transaction `paid` and, at once, `completed` (Drawdown
 * has no settlement delay; ADR 0401); the completion runs the caller's `afterCompleted` hook
 * in the same database transaction, where the subscription engine starts or renews the
 * subscription the transaction paid for.
 */

import type { EventTypeName } from '../events/event-types.js';
import { recordEvent } from '../events/record-event.js';
import { BillingError } from '../shared/billing-error.js';
import { type Context, nowTimestamp } from '../shared/context.js';
import { settleCreditOnCompletion } from './credit-balances.js';
import { refuseWhilePaymentInFlight } from './payment-in-flight.js';
import { scheduleRecovery } from './payment-recovery.js';
import type { TransactionSlice } from './repositories.js';
import { type CardSummary, type PaymentMethod, paymentMethodWire, SANDBOX_PROVIDER } from './saved-methods.js';
import type { Transaction, TransactionPayment } from './transaction.js';
import { saveTransaction, withInvoiceNumber } from './transaction-changes.js';
import { requireTransition } from './transaction-status.js';
import { composeDetails, decompose } from './transaction-totals.js';

export interface TransactionHooks {
  /**
   * Runs inside the database transaction in which `transaction` became `completed`. The hooks
   * come from a feature above transactions, which declares `tx` as its own slice: every slice is
   * one store, and the use-case root gives these hooks only over it (ADR 0922).
   */
  afterCompleted(tx: TransactionSlice, transaction: Transaction): Promise<void>;
  /**
   * Runs inside the database transaction in which a manually collected `transaction` was billed
   * through the API: the public API starts the subscription of a manual invoice when it is
   * issued, not when it is paid (issue 36). Absent: billing starts nothing.
   */
  afterBilled?(tx: TransactionSlice, transaction: Transaction): Promise<void>;
  /**
   * Runs inside the database transaction in which a sandbox simulated payment saved
   * `paymentMethodId` for the subscription `subscriptionId` paid for or started: it becomes the
   * subscription's method for its automatic charges. Absent: nothing is linked.
   */
  useMethodForSubscription?(tx: TransactionSlice, subscriptionId: string, paymentMethodId: string): Promise<void>;
}

/**
 * Completion runs nothing more: for the paths that must not start or revive a subscription (a
 * renewal paying itself, ADR 0920; the provider's own refunds and chargebacks of a completed
 * transaction, ADR 0923). Passed explicitly: no path gets it by leaving hooks out.
 */
export const NO_HOOKS: TransactionHooks = { afterCompleted: async () => {} };

export interface PaymentReport {
  /** Lowest units; for a captured payment at most the balance. Defaults to the whole balance. */
  readonly amount?: string | undefined;
  readonly status: 'captured' | 'error';
  /** The payment method type, for example `card` or `bank_transfer`. */
  readonly methodType: string;
  readonly providerReference: string;
  /** Why an `error` payment failed, for example `declined`. */
  readonly errorCode?: string | null | undefined;
  /** The saved method charged, and the card's summary (payments through a provider). */
  readonly paymentMethodId?: string | null | undefined;
  readonly card?: CardSummary | null | undefined;
  /** The attempt's id when a provider attempt made this payment. */
  readonly paymentAttemptId?: string | undefined;
}

export type SimulatedOutcome = 'success' | 'failure';

const PAYABLE_STATUSES: ReadonlySet<string> = new Set(['ready', 'billed', 'past_due']);

function requirePayable(transaction: Transaction): void {
  if (!PAYABLE_STATUSES.has(transaction.status)) {
    throw new BillingError(
      'transaction_not_payable',
      `Transaction ${transaction.id} is ${transaction.status}; payments are recorded only for ready, billed or past-due transactions.`,
    );
  }
}

/**
 * Completes a transaction whose balance is settled: `paid` then `completed`, invoice number
 * assigned, payout totals set, the hook run. Used by payments and by credits that settle an invoice.
 */
export async function completeSettled(
  context: Context<TransactionSlice>,
  tx: TransactionSlice,
  before: Transaction,
  settled: Transaction,
  hooks: TransactionHooks,
  extraEvents: readonly EventTypeName[] = [],
): Promise<Transaction> {
  requireTransition(settled.id, before.status, 'paid');
  const now = nowTimestamp(context);
  const { lines, settlement } = decompose(settled);
  // `billed_at` is set for billed and completed transactions: an automatically collected one
  // that was never billed is billed when it completes (issue 36).
  const billedAt = settled.billedAt ?? now;
  const completed = await withInvoiceNumber(
    context,
    tx,
    {
      ...settled,
      status: 'completed',
      details: composeDetails(lines, { ...settlement, completed: true }, settled.currencyCode),
      billedAt,
      updatedAt: now,
    },
    billedAt,
  );
  const saved = await saveTransaction(context, tx, before, completed, [...extraEvents, 'transaction.paid']);
  await settleCreditOnCompletion(context, tx, saved, now);
  await hooks.afterCompleted(tx, saved);
  // The hook may have linked the transaction to the subscription it started.
  return (await tx.transactions.findById(context.scope, saved.id)) ?? saved;
}

/**
 * Records a payment report inside the caller's database transaction. A captured payment lowers
 * the balance, completing the transaction when it reaches zero; a failed one is kept in
 * `payments[]` with status `error`, emits `transaction.payment_failed`, and sends an
 * automatically collected transaction `past_due` (dunning). A manual invoice stays billed
 * after a failed attempt: it becomes past due only by its due date.
 */
export async function recordPaymentInTransaction(
  context: Context<TransactionSlice>,
  tx: TransactionSlice,
  transactionId: string,
  report: PaymentReport,
  hooks: TransactionHooks,
): Promise<Transaction> {
  const current = await tx.transactions.findByIdForUpdate(context.scope, transactionId);
  if (!current) throw BillingError.notFound('Transaction', transactionId);
  requirePayable(current);
  // A provider attempt records its own outcome after leaving flight; any other report waits for it (ADR 1468).
  await refuseWhilePaymentInFlight(context, tx, transactionId, 'recording another payment');
  const now = nowTimestamp(context);
  const balance = BigInt(current.details.totals.balance);
  const amount = report.amount === undefined ? balance : BigInt(report.amount);
  if (report.status === 'captured' && (amount > balance || (amount <= 0n && balance > 0n))) {
    throw new BillingError(
      'transaction_payment_amount_invalid',
      `A captured payment must be more than 0 and at most the balance of ${balance}; ${amount} was reported.`,
      [{ field: 'amount', message: `must be from 1 to ${balance}` }],
    );
  }
  const payment: TransactionPayment = {
    paymentAttemptId: report.paymentAttemptId ?? context.ids.newId('payatt'),
    storedPaymentMethodId: report.paymentMethodId ?? null,
    paymentMethodId: report.paymentMethodId ?? null,
    amount: amount.toString(),
    status: report.status,
    errorCode: report.status === 'error' ? (report.errorCode ?? 'declined') : null,
    methodDetails: { type: report.methodType, card: report.card ?? null, underlyingDetails: null },
    providerReference: report.providerReference,
    createdAt: now,
    capturedAt: report.status === 'captured' ? now : null,
  };
  // A zero balance (a free trial's first transaction) completes without a payment entry.
  const payments = report.status === 'captured' && amount === 0n ? current.payments : [...current.payments, payment];
  const withPayment: Transaction = { ...current, payments, updatedAt: now };
  if (report.status === 'error') {
    let failed = withPayment;
    if (current.collectionMode === 'automatic') {
      requireTransition(current.id, current.status, 'past_due');
      failed = { ...failed, status: 'past_due' };
    }
    const saved = await saveTransaction(context, tx, current, failed, ['transaction.payment_failed']);
    // A declined subscription charge enters payment recovery (ADR 1460).
    if (saved.status === 'past_due') await scheduleRecovery(context, tx, saved, now);
    return saved;
  }
  const { lines, settlement } = decompose(withPayment);
  const recomposed: Transaction = {
    ...withPayment,
    details: composeDetails(lines, settlement, current.currencyCode),
  };
  if (BigInt(recomposed.details.totals.balance) > 0n) return saveTransaction(context, tx, current, recomposed);
  return completeSettled(context, tx, current, recomposed, hooks);
}

/** `POST /transactions/{id}/payments`: a payment the operator's provider reported. */
export function recordTransactionPayment(
  context: Context<TransactionSlice>,
  transactionId: string,
  report: PaymentReport,
  hooks: TransactionHooks,
): Promise<Transaction> {
  return context.store.transaction((tx) => recordPaymentInTransaction(context, tx, transactionId, report, hooks));
}

/**
 * `POST /transactions/{id}/simulate-payment` (sandbox only): success captures the whole
 * balance by a simulated card; failure records a declined attempt.
 */
export function simulateTransactionPayment(
  context: Context<TransactionSlice>,
  transactionId: string,
  outcome: SimulatedOutcome,
  hooks: TransactionHooks,
): Promise<Transaction> {
  if (context.scope.environment !== 'sandbox') {
    return Promise.reject(
      new BillingError(
        'transaction_payment_simulation_sandbox_only',
        'Payments can be simulated only in the sandbox; in live, record the payment your provider reported with POST /transactions/{id}/payments.',
      ),
    );
  }
  if (outcome === 'failure') {
    return recordTransactionPayment(
      context,
      transactionId,
      { status: 'error', methodType: 'card', providerReference: 'sandbox', errorCode: 'declined' },
      hooks,
    );
  }
  return context.store.transaction(async (tx) => {
    const current = await tx.transactions.findByIdForUpdate(context.scope, transactionId);
    if (!current) throw BillingError.notFound('Transaction', transactionId);
    const method = savesSimulatedMethod(current) ? await saveSimulatedMethod(context, tx, current) : null;
    const completed = await recordPaymentInTransaction(
      context,
      tx,
      transactionId,
      {
        status: 'captured',
        methodType: 'card',
        providerReference: 'sandbox',
        paymentMethodId: method?.id ?? null,
        card: method?.card ?? null,
      },
      hooks,
    );
    if (method && completed.subscriptionId !== null) {
      await hooks.useMethodForSubscription?.(tx, completed.subscriptionId, method.id);
    }
    return completed;
  });
}

/**
 * Whether a simulated success saves a card, as the customer's checkout would: an automatically
 * collected transaction of a customer that starts a subscription (recurring items, no subscription
 * yet) or changes a subscription's payment method. A renewal paid by simulation charges no new
 * card, so it saves none.
 */
function savesSimulatedMethod(transaction: Transaction): boolean {
  if (transaction.collectionMode !== 'automatic' || transaction.customerId === null) return false;
  if (transaction.origin === 'subscription_payment_method_change') return true;
  return transaction.subscriptionId === null && transaction.items.some((item) => item.price.billingCycle !== null);
}

/**
 * The card a simulated success paid with, saved for the customer (`payment_method.saved`): the
 * sandbox's always-succeeding test card (4242), expiring at the end of the third year from now,
 * so its off-session charges (renewals) succeed until `simulate-payment` or the sandbox clock's
 * payment outcome says otherwise.
 */
async function saveSimulatedMethod(
  context: Context<TransactionSlice>,
  tx: TransactionSlice,
  transaction: Transaction,
): Promise<PaymentMethod> {
  const now = nowTimestamp(context);
  const method: PaymentMethod = {
    id: context.ids.newId('paymtd'),
    customerId: transaction.customerId ?? '',
    addressId: transaction.addressId,
    type: 'card',
    card: {
      type: 'visa',
      last4: '4242',
      expiryMonth: 12,
      expiryYear: new Date(now).getUTCFullYear() + 3,
      cardholderName: 'Sandbox simulation',
    },
    paypal: null,
    underlyingDetails: null,
    origin: 'subscription',
    savedAt: now,
    updatedAt: now,
    internal: {
      provider: SANDBOX_PROVIDER,
      // A sandbox token ends with its card's behaviour (`sandboxOffSessionOutcome`).
      providerMethodRef: `${context.ids.newId('sbxpm')}.success`,
      status: 'saved',
    },
  };
  await tx.paymentMethods.insert(context.scope, method);
  await recordEvent(context, tx, 'payment_method.saved', 'payment_method', paymentMethodWire(method));
  return method;
}
