/**
 * @module
 * An account's payment provider webhooks (ADR 1422). The provider verifies the request (Stripe:
 * `Stripe-Signature` with the account's signing secret) and reads it as a neutral notification;
 * Drawdown then applies it once: the notification's id is recorded in the same database
 * transaction as its effect, so a replayed webhook changes nothing. A payment's success or
 * decline goes to the attempt its reference names (the first final outcome wins, ADR 1410);
 * a dispute becomes a `chargeback` adjustment of the transaction paid. A notification for a
 * payment this account never started is answered and ignored (`unknown_payment`).
 */
import { BillingError } from '../shared/billing-error.js';
import type { OperationContext } from '../shared/operation-context.js';
import type { Repositories, Store } from '../shared/repository.js';
import type { Scope } from '../shared/scope.js';
import { createAdjustmentInTransaction } from '../transactions/adjustments.js';
import type { TransactionHooks } from '../transactions/payments.js';
import type {
  IncomingNotification,
  PaymentOutcome,
  PaymentProviders,
  ProviderNotification,
} from './payment-provider.js';
import type { NotificationOutcome } from './provider-settings.js';

/** The attempt a provider's payment reference names, wherever it is. */
export interface FoundAttempt {
  readonly scope: Scope;
  readonly attemptId: string;
  readonly transactionId: string;
}

export interface ProviderWebhookPorts {
  readonly store: Store;
  readonly providers: PaymentProviders;
  contextFor(scope: Scope): Promise<OperationContext | undefined>;
  hooksFor(context: OperationContext): TransactionHooks;
  findAttempt(provider: string, providerPaymentRef: string): Promise<FoundAttempt | undefined>;
  /** An attempt of this scope by its id (the provider echoed it before its reference was stored). */
  findAttemptById(
    scope: Scope,
    attemptId: string,
  ): Promise<(FoundAttempt & { readonly provider: string; readonly providerPaymentRef: string | null }) | undefined>;
  /** Applies an outcome to an attempt inside `tx`, once (ADR 1410): false when the attempt already had its final outcome. */
  applyOutcome(
    context: OperationContext,
    tx: Repositories,
    attemptId: string,
    outcome: PaymentOutcome,
    hooks: TransactionHooks,
  ): Promise<boolean>;
}

export interface ReceivedNotification {
  readonly notificationRef: string;
  readonly kind: ProviderNotification['kind'];
  /** `duplicate`: handled before; nothing changed now. */
  readonly outcome: NotificationOutcome | 'duplicate';
}

function outcomeOf(notification: ProviderNotification): PaymentOutcome | undefined {
  switch (notification.kind) {
    case 'payment_succeeded':
    case 'setup_succeeded':
      return { status: 'succeeded', providerPaymentRef: notification.providerPaymentRef, method: notification.method };
    case 'payment_declined':
      return {
        status: 'declined',
        providerPaymentRef: notification.providerPaymentRef,
        errorCode: notification.errorCode,
        method: notification.method,
      };
    default:
      return undefined;
  }
}

/** `POST /payment-providers/{provider}/webhooks/{account_id}` on the live address. */
export async function receiveProviderNotification(
  ports: ProviderWebhookPorts,
  accountId: string,
  providerName: string,
  incoming: IncomingNotification,
): Promise<ReceivedNotification> {
  const scope: Scope = { accountId, environment: 'live' };
  const context = await ports.contextFor(scope);
  const provider = context ? await ports.providers.providerFor(scope) : undefined;
  if (!context || provider?.name !== providerName) {
    throw new BillingError('not_found', `No ${providerName} payment provider is configured for account ${accountId}.`);
  }
  const notification = await provider.readNotification(incoming);
  const { notificationRef, kind } = notification;
  const log = { ref: notificationRef, kind };
  if (await ports.store.providerNotifications.seen(scope, provider.name, notificationRef)) {
    return { notificationRef, kind, outcome: 'duplicate' };
  }
  const now = new Date(context.clock.now()).toISOString();
  if (notification.kind === 'ignored') {
    await ports.store.providerNotifications.record(scope, provider.name, { ...log, outcome: 'ignored' }, now);
    return { notificationRef, kind, outcome: 'ignored' };
  }
  const found = await attemptOf(ports, scope, provider.name, notification);
  if (!found) {
    await ports.store.providerNotifications.record(scope, provider.name, { ...log, outcome: 'unknown_payment' }, now);
    return { notificationRef, kind, outcome: 'unknown_payment' };
  }
  const hooks = ports.hooksFor(context);
  const outcome = await ports.store.transaction(async (tx): Promise<NotificationOutcome | 'duplicate'> => {
    // The record and the effect commit together: a concurrent delivery of the same event waits, then finds it.
    if (!(await tx.providerNotifications.record(scope, provider.name, { ...log, outcome: 'applied' }, now))) {
      return 'duplicate';
    }
    if (notification.kind === 'payment_disputed') {
      if (await recordChargeback(context, tx, found.transactionId, notification)) return 'applied';
      await tx.providerNotifications.settle(scope, provider.name, notificationRef, 'ignored');
      return 'ignored';
    }
    const paymentOutcome = outcomeOf(notification);
    if (paymentOutcome && (await ports.applyOutcome(context, tx, found.attemptId, paymentOutcome, hooks))) {
      return 'applied';
    }
    // The attempt already had its outcome (the checkout or the off-session charge heard first).
    await tx.providerNotifications.settle(scope, provider.name, notificationRef, 'ignored');
    return 'ignored';
  });
  return { notificationRef, kind, outcome };
}

/** The attempt a notification is about, in this scope only: by the provider's reference, or by the attempt id it echoes. */
async function attemptOf(
  ports: ProviderWebhookPorts,
  scope: Scope,
  provider: string,
  notification: Exclude<ProviderNotification, { kind: 'ignored' }>,
): Promise<FoundAttempt | undefined> {
  const byRef = await ports.findAttempt(provider, notification.providerPaymentRef);
  if (byRef) {
    return byRef.scope.accountId === scope.accountId && byRef.scope.environment === scope.environment
      ? byRef
      : undefined;
  }
  if (!notification.attemptId) return undefined;
  const byId = await ports.findAttemptById(scope, notification.attemptId);
  if (!byId || byId.provider !== provider) return undefined;
  // An attempt whose reference is stored names another payment: not this one.
  if (byId.providerPaymentRef !== null && byId.providerPaymentRef !== notification.providerPaymentRef) return undefined;
  return byId;
}

/**
 * A disputed payment (a chargeback) becomes a `chargeback` adjustment of the whole transaction
 * it paid, approved at once: the card network already took the money back. Nothing when the
 * transaction is not completed or nothing remains to adjust.
 */
async function recordChargeback(
  context: OperationContext,
  tx: Repositories,
  transactionId: string,
  dispute: Extract<ProviderNotification, { kind: 'payment_disputed' }>,
): Promise<boolean> {
  const transaction = await tx.transactions.findById(context.scope, transactionId);
  if (transaction?.status !== 'completed') return false;
  try {
    await createAdjustmentInTransaction(context, tx, {
      action: 'chargeback',
      transactionId,
      type: 'full',
      reason: `Disputed by the cardholder (${dispute.reason}); payment ${dispute.providerPaymentRef}.`,
    });
    return true;
  } catch (error) {
    if (error instanceof BillingError && error.code === 'adjustment_amount_above_remaining') return false;
    throw error;
  }
}
