/**
 * @module
 * Off-session charges of a subscription's saved method: the one path every automatic charge
 * takes (ADRs 1423, 1425). A renewal, immediate change or one-time charge issues a `ready`
 * transaction inside its database transaction; afterwards, outside any database transaction, the
 * provider charges the subscription's saved method. The same three steps as a checkout
 * (ADR 1411): an `off_session` attempt stored under the transaction's row lock, the provider's
 * call keyed by the attempt, the outcome applied once.
 *
 * One retry rule, whoever asks:
 * - `automatic` (after the commit, and the renewals worker): a `ready` transaction with no
 *   attempt at all is charged once; a second run, or a second worker, finds the attempt.
 * - `requested` (a retry someone asked for: `chargeSavedMethod`): a `ready` or `past_due`
 *   transaction with no attempt in flight.
 * Either way a decline sends the transaction and its subscription `past_due` (the public API's
 * dunning), and a provider that does not answer leaves the attempt in flight for its webhook, or
 * the recovery step (`authorised-changes.ts`, ADR 1426) asking again with the same key, to settle
 * (the provider may have charged: never a second attempt while one may have succeeded).
 */
import { BillingError } from '../shared/billing-error.js';
import { type Context, nowTimestamp } from '../shared/context.js';
import type { TransactionHooks } from '../transactions/payments.js';
import type { Transaction } from '../transactions/transaction.js';
import { applyOutcome, insertAttempt } from './checkout.js';
import { IN_FLIGHT, type PaymentAttempt } from './payment-attempt.js';
import type { PaymentOutcome, PaymentProvider, PaymentProviders } from './payment-provider.js';
import type { PaymentSlice } from './repositories.js';

/** A first automatic charge is for a `ready` transaction; a requested retry also for a `past_due` one. */
const FIRST_CHARGE: ReadonlySet<string> = new Set(['ready']);
const RETRYABLE: ReadonlySet<string> = new Set(['ready', 'past_due']);

const CHARGED_ORIGINS: ReadonlySet<string> = new Set([
  'subscription_recurring',
  'subscription_update',
  'subscription_charge',
]);

export interface OffSessionPorts {
  readonly providers: PaymentProviders;
  readonly hooks: TransactionHooks;
  /** Where a provider call that failed (not a decline: the provider did not answer) is reported. */
  reportError(message: string, error: unknown): void;
}

/** What to look at: every outstanding subscription charge of the scope, or one subscription's. */
export interface OffSessionSelection {
  readonly subscriptionId?: string | undefined;
  readonly limit?: number | undefined;
}

/**
 * Charges the saved methods of the scope's outstanding subscription transactions (live, with a
 * provider). Returns how many charges were attempted.
 */
export async function chargeOutstandingSubscriptionTransactions(
  context: Context<PaymentSlice>,
  ports: OffSessionPorts,
  selection: OffSessionSelection = {},
): Promise<number> {
  if (context.scope.environment !== 'live') return 0;
  const provider = await ports.providers.providerFor(context.scope);
  if (!provider) return 0;
  const limit = selection.limit ?? 100;
  const page = await context.store.transactions.list(context.scope, {
    filter: {
      status: [{ op: 'eq', value: 'ready' }],
      collection_mode: [{ op: 'eq', value: 'automatic' }],
      ...(selection.subscriptionId ? { subscription_id: [{ op: 'eq', value: selection.subscriptionId }] } : {}),
    },
    direction: 'asc',
    perPage: limit,
    countTotal: false,
  });
  let charged = 0;
  for (const transaction of page.items) {
    if (transaction.subscriptionId === null || !CHARGED_ORIGINS.has(transaction.origin)) continue;
    if ((await chargeOffSession(context, ports, provider, transaction.id, 'automatic')).charged) charged += 1;
  }
  return charged;
}

/**
 * Who asks for an off-session charge: the service after a commit, someone retrying one, or
 * payment recovery's schedule (ADR 1460; a retry like a requested one, its failures logged).
 */
export type OffSessionTrigger = 'automatic' | 'requested' | 'scheduled';

export type OffSessionResult =
  | { readonly charged: true; readonly transaction: Transaction }
  | { readonly charged: false; readonly refusal: BillingError };

/**
 * `chargeSavedMethod`: a retry of an automatically collected subscription charge with the
 * subscription's saved method, now (the same path as the automatic charge, ADR 1425).
 * @throws BillingError `transaction_not_payable`, `transaction_payment_in_progress`,
 *   `checkout_provider_not_configured`.
 */
export async function chargeSavedMethod(
  context: Context<PaymentSlice>,
  ports: OffSessionPorts,
  transactionId: string,
): Promise<Transaction> {
  const provider = await ports.providers.providerFor(context.scope);
  if (!provider) {
    throw new BillingError(
      'checkout_provider_not_configured',
      'This environment has no payment provider; the payment must be reported with POST /transactions/{id}/payments.',
    );
  }
  const result = await chargeOffSession(context, ports, provider, transactionId, 'requested');
  if (!result.charged) throw result.refusal;
  return result.transaction;
}

const notPayable = (detail: string) => new BillingError('transaction_not_payable', detail);

export async function chargeOffSession(
  context: Context<PaymentSlice>,
  ports: OffSessionPorts,
  provider: PaymentProvider,
  transactionId: string,
  trigger: OffSessionTrigger,
): Promise<OffSessionResult> {
  const begun = await context.store.transaction(async (tx) => {
    const transaction = await tx.transactions.findByIdForUpdate(context.scope, transactionId);
    if (!transaction) throw BillingError.notFound('Transaction', transactionId);
    const retryable = trigger === 'automatic' ? FIRST_CHARGE : RETRYABLE;
    if (!retryable.has(transaction.status)) {
      return notPayable(
        transaction.status === 'completed' || transaction.status === 'paid'
          ? `Transaction ${transactionId} is already paid.`
          : `Transaction ${transactionId} is ${transaction.status} and cannot be charged.`,
      );
    }
    if (
      transaction.collectionMode !== 'automatic' ||
      transaction.subscriptionId === null ||
      transaction.customerId === null ||
      !CHARGED_ORIGINS.has(transaction.origin)
    ) {
      return notPayable(`Transaction ${transactionId} is not an automatically collected subscription charge.`);
    }
    const balance = BigInt(transaction.details.totals.balance);
    if (balance <= 0n) return notPayable(`Transaction ${transactionId} owes nothing.`);
    const earlier = await tx.paymentAttempts.list(context.scope, {
      filter: {
        transaction_id: [{ op: 'eq', value: transaction.id }],
        ...(trigger !== 'automatic' ? { status: [{ op: 'in' as const, values: IN_FLIGHT }] } : {}),
      },
      direction: 'asc',
      perPage: 1,
      countTotal: false,
    });
    if (earlier.items.length > 0) {
      return new BillingError(
        'transaction_payment_in_progress',
        `A payment of transaction ${transactionId} is already in progress; wait for its outcome.`,
      );
    }
    const subscription = await tx.subscriptions.findById(context.scope, transaction.subscriptionId);
    const methodId = subscription?.internal.paymentMethodId ?? null;
    const method = methodId === null ? undefined : await tx.paymentMethods.findById(context.scope, methodId);
    if (!method || method.internal.status !== 'saved' || method.internal.provider !== provider.name) {
      return notPayable(
        `Subscription ${transaction.subscriptionId} has no saved ${provider.name} payment method to charge.`,
      );
    }
    const customer = await tx.customers.findById(context.scope, transaction.customerId);
    if (!customer) return notPayable(`Transaction ${transactionId} has no customer to charge.`);
    const now = nowTimestamp(context);
    const attempt: PaymentAttempt = {
      id: context.ids.newId('payatt'),
      transactionId: transaction.id,
      kind: 'off_session',
      provider: provider.name,
      providerPaymentRef: null,
      status: 'processing',
      submissionKey: null,
      amount: balance.toString(),
      currencyCode: transaction.currencyCode,
      saveMethod: false,
      actionUrl: null,
      errorCode: null,
      paymentMethodId: method.id,
      createdAt: now,
      updatedAt: now,
    };
    const inProgress = await insertAttempt(context, tx, attempt);
    if (inProgress !== undefined) return inProgress;
    return {
      attempt,
      transaction,
      customerEmail: customer.email,
      providerMethodRef: method.internal.providerMethodRef,
      card: method.card,
    };
  });
  if (begun instanceof BillingError) return { charged: false, refusal: begun };

  let outcome: PaymentOutcome;
  try {
    outcome = await provider.chargeSavedMethod({
      scope: context.scope,
      customerId: begun.transaction.customerId as string,
      customerEmail: begun.customerEmail,
      transactionId: begun.transaction.id,
      attemptId: begun.attempt.id,
      amount: begun.attempt.amount,
      currencyCode: begun.attempt.currencyCode,
      providerMethodRef: begun.providerMethodRef,
    });
  } catch (error) {
    // The provider did not answer: the attempt stays in flight and its webhook settles it.
    if (trigger === 'requested') throw error;
    ports.reportError(`charging transaction ${begun.transaction.id} off-session`, error);
    return { charged: true, transaction: begun.transaction };
  }
  // Off-session nobody can answer an authentication request: it is a decline, and dunning follows.
  const settled: PaymentOutcome =
    outcome.status === 'requires_action'
      ? {
          status: 'declined',
          providerPaymentRef: outcome.providerPaymentRef,
          errorCode: 'authentication_failed',
          method: null,
        }
      : // A provider that names no card (the sandbox's saved cards) charged the one on file.
        outcome.status === 'succeeded' && outcome.method.card.last4 === '' && begun.card !== null
        ? { ...outcome, method: { ...outcome.method, card: begun.card } }
        : outcome;
  await context.store.transaction((tx) => applyOutcome(context, tx, begun.attempt.id, settled, ports.hooks));
  const transaction = await context.store.transactions.findById(context.scope, transactionId);
  return { charged: true, transaction: transaction ?? begun.transaction };
}
