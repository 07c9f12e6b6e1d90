/**
 * @module
 * An account's payment provider webhooks (ADR 1422). The provider verifies the request (Stripe:
 * `Stripe-Signature` with the account's signing secret) and reads it as a neutral notification;
 * Drawdown then applies it once: the notification's id is recorded in the same database
 * transaction as its effect, so a replayed webhook changes nothing. A payment's success or
 * decline goes to the attempt its reference names (the first final outcome wins, ADR 1410);
 * a dispute becomes a `chargeback` adjustment of the transaction paid, a refund made at the
 * provider a `refund` adjustment (ADR 1461), and the answer about a refund Drawdown asked for
 * decides its pending adjustment (ADR 1463). A notification for a
 * payment this account never started is answered and ignored (`unknown_payment`).
 */
import { BillingError } from '../shared/billing-error.js';
import type { Context, StoreOf } from '../shared/context.js';
import type { Scope } from '../shared/scope.js';
import type { Adjustment } from '../transactions/adjustment.js';
import {
  createAdjustmentInTransaction,
  RECORDED_AS_IT_STANDS,
  remainingByLine,
  reverseChargebackInTransaction,
} from '../transactions/adjustments.js';
import { NO_HOOKS, type TransactionHooks } from '../transactions/payments.js';
import type { NotificationOutcome } from './entities.js';
import type {
  IncomingNotification,
  PaymentOutcome,
  PaymentProviders,
  ProviderNotification,
} from './payment-provider.js';
import { recordRefundMadeAtProvider, settleProviderRefund } from './provider-refunds.js';
import type { PaymentSlice } from './repositories.js';

/** The attempt a provider's payment reference names, wherever it is. */
export interface FoundAttempt {
  readonly scope: Scope;
  readonly attemptId: string;
  readonly transactionId: string;
}

export interface ProviderWebhookPorts {
  readonly store: StoreOf<PaymentSlice>;
  readonly providers: PaymentProviders;
  contextFor(scope: Scope): Promise<Context<PaymentSlice> | undefined>;
  hooksFor(context: Context<PaymentSlice>): TransactionHooks;
  findAttempt(provider: string, providerPaymentRef: string): Promise<FoundAttempt | undefined>;
  /** An attempt of this scope by its id (the provider echoed it before its reference was stored). */
  findAttemptById(
    scope: Scope,
    attemptId: string,
  ): Promise<(FoundAttempt & { readonly provider: string; readonly providerPaymentRef: string | null }) | undefined>;
  /** Applies an outcome to an attempt inside `tx`, once (ADR 1410): false when the attempt already had its final outcome. */
  applyOutcome(
    context: Context<PaymentSlice>,
    tx: PaymentSlice,
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
    if (notification.kind === 'refund_updated') {
      // Drawdown's own refund decided at the provider (ADR 1463); any other refund arrives as `charge.refunded`.
      const settled =
        notification.drawdownAdjustmentId !== null &&
        (await settleProviderRefund(
          context,
          tx,
          notification.drawdownAdjustmentId,
          notification.status === 'failed'
            ? { status: 'failed', refundRef: notification.refundRef, reason: notification.reason ?? 'failed' }
            : { status: notification.status, refundRef: notification.refundRef },
          hooks,
          notification.providerPaymentRef,
        ));
      if (settled) return 'applied';
      await tx.providerNotifications.settle(scope, provider.name, notificationRef, 'ignored');
      return 'ignored';
    }
    if (notification.kind === 'payment_refunded') {
      if (await recordProviderRefunds(context, tx, provider.name, found, notification, now, hooks)) return 'applied';
      await tx.providerNotifications.settle(scope, provider.name, notificationRef, 'ignored');
      return 'ignored';
    }
    if (notification.kind === 'dispute_closed' || notification.kind === 'fraud_warning') {
      if (await recordDisputeOutcome(context, tx, provider.name, found.transactionId, notification, now)) {
        return 'applied';
      }
      await tx.providerNotifications.settle(scope, provider.name, notificationRef, 'ignored');
      return 'ignored';
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
  context: Context<PaymentSlice>,
  tx: PaymentSlice,
  transactionId: string,
  dispute: Extract<ProviderNotification, { kind: 'payment_disputed' }>,
): Promise<boolean> {
  const transaction = await tx.transactions.findById(context.scope, transactionId);
  if (transaction?.status !== 'completed') return false;
  try {
    await createAdjustmentInTransaction(
      context,
      tx,
      {
        action: 'chargeback',
        transactionId,
        type: 'full',
        reason: `Disputed by the cardholder (${dispute.reason}); payment ${dispute.providerPaymentRef}.`,
      },
      NO_HOOKS,
      RECORDED_AS_IT_STANDS,
    );
    return true;
  } catch (error) {
    if (error instanceof BillingError && error.code === 'adjustment_amount_above_remaining') return false;
    throw error;
  }
}

/**
 * Refunds made at the provider (ADR 1461), each recorded once as an approved `refund` adjustment
 * of the transaction it paid: `full` when it takes all that remains, else `partial`, spread over
 * the lines in proportion to what remains of each. A refund is recorded under its own reference in
 * the notification log (so a later notification listing it again adds nothing). Drawdown's own
 * refunds (their adjustment id in the metadata) are never recorded again: a succeeded one approves
 * its adjustment if it is still pending (ADR 1463). False when nothing new.
 */
async function recordProviderRefunds(
  context: Context<PaymentSlice>,
  tx: PaymentSlice,
  provider: string,
  found: FoundAttempt,
  notification: Extract<ProviderNotification, { kind: 'payment_refunded' }>,
  now: string,
  hooks: TransactionHooks,
): Promise<boolean> {
  const { transactionId } = found;
  let recorded = false;
  // Drawdown's own first: deciding one locks its refund record, then the transaction, the order the
  // API's answer takes too (ADR 1463); the dashboard's refunds then lock only the transaction.
  const ownFirst = [...notification.refunds].sort(
    (a, b) => Number(a.drawdownAdjustmentId === null) - Number(b.drawdownAdjustmentId === null),
  );
  for (const refund of ownFirst) {
    if (refund.drawdownAdjustmentId !== null) {
      // Drawdown's own refund (ADR 1463): its succeeding approves the adjustment, if nothing did yet.
      const settled = await settleProviderRefund(
        context,
        tx,
        refund.drawdownAdjustmentId,
        { status: 'succeeded', refundRef: refund.refundRef },
        hooks,
        notification.providerPaymentRef,
      );
      recorded ||= settled;
      continue;
    }
    const amount = BigInt(refund.amount);
    if (amount <= 0n) continue;
    const transaction = await tx.transactions.findByIdForUpdate(context.scope, transactionId);
    if (transaction?.status !== 'completed') return recorded;
    // The refund's own reference, in the same log as the notifications: once per refund, whichever event lists it.
    const first = await tx.providerNotifications.record(
      context.scope,
      provider,
      { ref: `refund:${refund.refundRef}`, kind: 'payment_refunded', outcome: 'applied' },
      now,
    );
    if (!first) continue;
    const reason = `Refunded at the payment provider: refund ${refund.refundRef} of payment ${notification.providerPaymentRef}.`;
    const remaining = await remainingOf(context, tx, transactionId);
    const left = remaining.reduce((sum, line) => sum + line.total, 0n);
    if (left <= 0n) continue;
    let adjustment: Adjustment;
    if (amount >= left) {
      adjustment = await createAdjustmentInTransaction(
        context,
        tx,
        {
          action: 'refund',
          transactionId,
          type: 'full',
          reason,
        },
        NO_HOOKS,
        RECORDED_AS_IT_STANDS,
      );
    } else {
      adjustment = await createAdjustmentInTransaction(
        context,
        tx,
        {
          action: 'refund',
          transactionId,
          type: 'partial',
          reason,
          items: spread(amount, remaining).map((line) => ({
            itemId: line.itemId,
            type: 'partial' as const,
            amount: line.amount.toString(),
          })),
        },
        NO_HOOKS,
        RECORDED_AS_IT_STANDS,
      );
    }
    // Beside its adjustment, so what is left to refund of this payment counts it (ADR 1463).
    await recordRefundMadeAtProvider(
      context,
      tx,
      provider,
      adjustment,
      { attemptId: found.attemptId, providerPaymentRef: notification.providerPaymentRef },
      refund.refundRef,
    );
    recorded = true;
  }
  return recorded;
}

/** What remains to adjust of each line with something left (its total, less every adjustment of it so far). */
async function remainingOf(
  context: Context<PaymentSlice>,
  tx: PaymentSlice,
  transactionId: string,
): Promise<{ readonly itemId: string; readonly total: bigint }[]> {
  const transaction = await tx.transactions.findById(context.scope, transactionId);
  if (!transaction) return [];
  const left = await remainingByLine(context, tx, transaction);
  return [...left].map(([itemId, line]) => ({ itemId, total: line.total })).filter((line) => line.total > 0n);
}

/** `amount` over the lines in proportion to what remains of each, exactly, none above its remainder. */
export function spread(
  amount: bigint,
  lines: readonly { readonly itemId: string; readonly total: bigint }[],
): { readonly itemId: string; readonly amount: bigint }[] {
  const whole = lines.reduce((sum, line) => sum + line.total, 0n);
  const shares = lines.map((line) => ({ itemId: line.itemId, cap: line.total, amount: (amount * line.total) / whole }));
  let left = amount - shares.reduce((sum, share) => sum + share.amount, 0n);
  for (const share of shares) {
    if (left === 0n) break;
    const room = share.cap - share.amount;
    const take = room < left ? room : left;
    share.amount += take;
    left -= take;
  }
  return shares.filter((share) => share.amount > 0n).map(({ itemId, amount: share }) => ({ itemId, amount: share }));
}

/**
 * A dispute closed or an early fraud warning (ADR 1462). A dispute the seller **won** gives back
 * the transaction's latest chargeback not yet reversed (`chargeback_reverse`); a lost one changes
 * nothing (its chargeback was recorded when it opened). An early fraud warning becomes a `full`
 * `chargeback_warning` adjustment, which moves no money, once per warning. False when nothing changed.
 */
async function recordDisputeOutcome(
  context: Context<PaymentSlice>,
  tx: PaymentSlice,
  provider: string,
  transactionId: string,
  notification: Extract<ProviderNotification, { kind: 'dispute_closed' | 'fraud_warning' }>,
  now: string,
): Promise<boolean> {
  const transaction = await tx.transactions.findByIdForUpdate(context.scope, transactionId);
  if (transaction?.status !== 'completed') return false;
  if (notification.kind === 'fraud_warning') {
    const first = await tx.providerNotifications.record(
      context.scope,
      provider,
      { ref: `fraud_warning:${notification.warningRef}`, kind: 'fraud_warning', outcome: 'applied' },
      now,
    );
    if (!first) return false;
    try {
      await createAdjustmentInTransaction(
        context,
        tx,
        {
          action: 'chargeback_warning',
          transactionId,
          type: 'full',
          reason: `Early fraud warning from the card issuer (${notification.fraudType}); payment ${notification.providerPaymentRef}.`,
        },
        NO_HOOKS,
        RECORDED_AS_IT_STANDS,
      );
    } catch (error) {
      // Refunded or charged back in full already: nothing left to warn about.
      if (error instanceof BillingError && error.code === 'adjustment_amount_above_remaining') return false;
      throw error;
    }
    return true;
  }
  if (notification.outcome !== 'won') return false;
  const first = await tx.providerNotifications.record(
    context.scope,
    provider,
    { ref: `dispute_won:${notification.disputeRef}`, kind: 'dispute_closed', outcome: 'applied' },
    now,
  );
  if (!first) return false;
  const chargebacks: Adjustment[] = [];
  let reversals = 0;
  let after: string | undefined;
  for (;;) {
    const page = await tx.adjustments.list(context.scope, {
      filter: { transaction_id: [{ op: 'eq', value: transactionId }] },
      perPage: 200,
      direction: 'asc',
      after,
    });
    for (const adjustment of page.items) {
      if (adjustment.action === 'chargeback') chargebacks.push(adjustment);
      if (adjustment.action === 'chargeback_reverse') reversals += 1;
    }
    if (!page.hasMore) break;
    after = page.items.at(-1)?.id;
  }
  const open = chargebacks[chargebacks.length - 1 - reversals];
  if (reversals >= chargebacks.length || !open) return false;
  await reverseChargebackInTransaction(
    context,
    tx,
    open,
    `Dispute ${notification.disputeRef} won: the chargeback of payment ${notification.providerPaymentRef} is reversed.`,
  );
  return true;
}
