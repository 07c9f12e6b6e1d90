/**
 * @module
 * Live off-session charges (ADR 1423): a subscription's renewal, immediate change or one-time
 * charge issues a `ready` transaction inside its database transaction; afterwards, outside any
 * database transaction, the account's provider charges the subscription's saved method. The
 * same three steps as a checkout (ADR 1411): an `off_session` attempt stored under the
 * transaction's row lock (one per transaction: a second run finds it and charges nothing), the
 * provider's call keyed by the attempt, the outcome applied once. A decline sends the
 * transaction `past_due` and its subscription `past_due` (the public API's dunning); the
 * provider's webhook for the same attempt then changes nothing.
 */
import type { OperationContext } from '../shared/operation-context.js';
import { nowTimestamp } from '../shared/operation-context.js';
import type { TransactionHooks } from '../transactions/payments.js';
import type { Transaction } from '../transactions/transaction.js';
import { applyOutcome } from './checkout.js';
import type { PaymentAttempt } from './payment-attempt.js';
import type { PaymentOutcome, PaymentProvider, PaymentProviders } from './payment-provider.js';

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
  context: OperationContext,
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
    if (await chargeSavedMethodOf(context, ports, provider, transaction)) charged += 1;
  }
  return charged;
}

async function chargeSavedMethodOf(
  context: OperationContext,
  ports: OffSessionPorts,
  provider: PaymentProvider,
  candidate: Transaction,
): Promise<boolean> {
  const begun = await context.store.transaction(async (tx) => {
    const transaction = await tx.transactions.findByIdForUpdate(context.scope, candidate.id);
    if (transaction?.status !== 'ready' || transaction.subscriptionId === null || transaction.customerId === null) {
      return undefined;
    }
    const balance = BigInt(transaction.details.totals.balance);
    if (balance <= 0n) return undefined;
    const earlier = await tx.paymentAttempts.list(context.scope, {
      filter: { transaction_id: [{ op: 'eq', value: transaction.id }] },
      direction: 'asc',
      perPage: 1,
      countTotal: false,
    });
    // One automatic charge per transaction: after a decline the customer pays through checkout.
    if (earlier.items.length > 0) return undefined;
    const subscription = await tx.subscriptions.findById(context.scope, transaction.subscriptionId);
    const methodId = subscription?.internal.paymentMethodId ?? null;
    const method = methodId === null ? undefined : await tx.paymentMethods.findById(context.scope, methodId);
    if (!method || method.internal.status !== 'saved' || method.internal.provider !== provider.name) return undefined;
    const customer = await tx.customers.findById(context.scope, transaction.customerId);
    if (!customer) return undefined;
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
    await tx.paymentAttempts.insert(context.scope, attempt);
    return {
      attempt,
      transaction,
      customerEmail: customer.email,
      providerMethodRef: method.internal.providerMethodRef,
    };
  });
  if (!begun) return false;
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
    ports.reportError(`charging transaction ${begun.transaction.id} off-session`, error);
    return true;
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
      : outcome;
  await context.store.transaction((tx) => applyOutcome(context, tx, begun.attempt.id, settled, ports.hooks));
  return true;
}
