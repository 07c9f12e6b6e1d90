/**
 * @module
 * Refund adjustments sent to the live account's payment provider (ADR 1463). Authorise-before-
 * commit's shape (ADR 1426) turned round: nothing can be held, so the refund is recorded first and
 * decided after.
 *
 * 1. `POST /adjustments` with `action: refund` stores the adjustment `pending_approval` and a
 *    provider refund record (`processing`: which payment, how much) in one database transaction;
 *    the transaction's totals do not move yet, but the amounts count against what remains, and
 *    no other adjustment of the transaction is accepted until it is decided.
 * 2. After the commit, outside any database transaction, the provider refunds the payment, keyed
 *    by the adjustment id (with the id in the refund's metadata).
 * 3. The first final answer, from the call, from a webhook (`charge.refunded`, `refund.updated`,
 *    `refund.failed`) or from the recovery step, decides it once, under the record's row lock:
 *    `approved` (totals, metrics, credit note, `adjustment.updated`) or `rejected`.
 *
 * A refund goes to one payment the provider took for the transaction: the latest whose amount,
 * less the refunds already made of it, covers the refund; otherwise it is refused
 * (`adjustment_refund_spans_payments`). A transaction the provider never took a payment for
 * (reported, or paid before the provider was configured) keeps the record-only refund.
 */
import { BillingError } from '../shared/billing-error.js';
import { type Context, nowTimestamp } from '../shared/context.js';
import type { Adjustment } from '../transactions/adjustment.js';
import {
  type CreateAdjustmentInput,
  createAdjustment,
  decidePendingAdjustment,
  RECORDED_AS_IT_STANDS,
} from '../transactions/adjustments.js';
import type { TransactionHooks } from '../transactions/payments.js';
import type { Transaction } from '../transactions/transaction.js';
import { RECOVERY_GRACE_MS, RECOVERY_PAGE, settleStale } from './authorised-changes.js';
import type { ProviderRefundRecord } from './entities.js';
import type { PaymentAttempt } from './payment-attempt.js';
import type { PaymentProvider, PaymentProviders, RefundOutcome, RefundRequest } from './payment-provider.js';
import type { PaymentSlice } from './repositories.js';

export interface ProviderRefundPorts {
  readonly providers: PaymentProviders;
  readonly hooks: TransactionHooks;
  reportError(message: string, error: unknown): void;
}

/** The payments of a transaction the provider took (succeeded checkout or off-session attempts), newest first. */
async function paymentsTaken(
  context: Context<PaymentSlice>,
  tx: PaymentSlice,
  transactionId: string,
  provider: string,
): Promise<PaymentAttempt[]> {
  const taken: PaymentAttempt[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await tx.paymentAttempts.list(context.scope, {
      filter: {
        transaction_id: [{ op: 'eq', value: transactionId }],
        status: [{ op: 'eq', value: 'succeeded' }],
      },
      perPage: 200,
      direction: 'asc',
      after,
      countTotal: false,
    });
    for (const attempt of page.items) {
      if (
        attempt.provider === provider &&
        attempt.kind !== 'setup' &&
        attempt.providerPaymentRef !== null &&
        BigInt(attempt.amount) > 0n
      ) {
        taken.push(attempt);
      }
    }
    if (!page.hasMore) break;
    after = page.items.at(-1)?.id;
  }
  return taken.reverse();
}

/** What is left to refund of one payment: its amount less every refund of it not failed. */
async function refundableOf(
  context: Context<PaymentSlice>,
  tx: PaymentSlice,
  attempt: PaymentAttempt,
): Promise<bigint> {
  let left = BigInt(attempt.amount);
  let after: string | undefined;
  for (;;) {
    const page = await tx.providerRefunds.list(context.scope, {
      filter: { provider_payment_ref: [{ op: 'eq', value: attempt.providerPaymentRef ?? '' }] },
      perPage: 200,
      direction: 'asc',
      after,
      countTotal: false,
    });
    for (const refund of page.items) {
      if (refund.status !== 'failed') left -= BigInt(refund.amount);
    }
    if (!page.hasMore) break;
    after = page.items.at(-1)?.id;
  }
  return left;
}

/**
 * `POST /adjustments`. A refund in live, when the account's provider refunds and took a payment
 * for the transaction, is sent to it (the module's steps); everything else is recorded as before,
 * approved at once.
 */
export async function createAdjustmentThroughProvider(
  context: Context<PaymentSlice>,
  ports: ProviderRefundPorts,
  input: CreateAdjustmentInput,
): Promise<Adjustment> {
  const provider =
    input.action === 'refund' && context.scope.environment === 'live'
      ? await ports.providers.providerFor(context.scope)
      : undefined;
  if (!provider?.refunds) return createAdjustment(context, input, ports.hooks, RECORDED_AS_IT_STANDS);
  let sent: ProviderRefundRecord | undefined;
  const adjustment = await createAdjustment(context, input, ports.hooks, {
    pendingRefund: async (tx: PaymentSlice, transaction: Transaction, pending: Adjustment) => {
      sent = await recordPendingRefund(context, tx, provider.name, transaction, pending);
      return sent !== undefined;
    },
  });
  if (!sent) return adjustment;
  return (await sendRefund(context, ports, provider, sent)) ?? adjustment;
}

/**
 * The provider refund record of a refund about to be stored pending: the payment it goes to.
 * Undefined when the provider took no payment for the transaction (the record-only refund);
 * throws `adjustment_refund_spans_payments` when no single payment has enough left.
 */
async function recordPendingRefund(
  context: Context<PaymentSlice>,
  tx: PaymentSlice,
  provider: string,
  transaction: Transaction,
  adjustment: Adjustment,
): Promise<ProviderRefundRecord | undefined> {
  const amount = BigInt(adjustment.totals.total);
  const payments = await paymentsTaken(context, tx, transaction.id, provider);
  // Paid outside the provider (a reported payment): the refund is recorded, as without a provider.
  if (payments.length === 0) return undefined;
  const left: string[] = [];
  for (const payment of payments) {
    const refundable = await refundableOf(context, tx, payment);
    if (refundable >= amount) {
      const now = nowTimestamp(context);
      const record: ProviderRefundRecord = {
        id: adjustment.id,
        transactionId: transaction.id,
        provider,
        paymentAttemptId: payment.id,
        providerPaymentRef: payment.providerPaymentRef ?? '',
        amount: amount.toString(),
        currencyCode: adjustment.currencyCode,
        refundRef: null,
        status: 'processing',
        origin: 'drawdown',
        failureReason: null,
        createdAt: now,
        updatedAt: now,
      };
      await tx.providerRefunds.insert(context.scope, record);
      return record;
    }
    left.push(`${payment.providerPaymentRef} has ${refundable} left to refund`);
  }
  throw new BillingError(
    'adjustment_refund_spans_payments',
    `A refund of ${amount} cannot be sent to one ${provider} payment of transaction ${transaction.id}: ${left.join('; ')}. Refund at most what one payment has left in one adjustment.`,
  );
}

/** Asks the provider for the refund, outside any database transaction, and applies its answer; undefined when it did not answer. */
/** The provider's refund of a record, keyed by its adjustment: the same request however often it is sent. */
function refundRequest(context: Context<PaymentSlice>, record: ProviderRefundRecord): RefundRequest {
  return {
    scope: context.scope,
    adjustmentId: record.id,
    transactionId: record.transactionId,
    providerPaymentRef: record.providerPaymentRef,
    amount: record.amount,
    currencyCode: record.currencyCode,
  };
}

async function sendRefund(
  context: Context<PaymentSlice>,
  ports: ProviderRefundPorts,
  provider: PaymentProvider,
  record: ProviderRefundRecord,
): Promise<Adjustment | undefined> {
  let outcome: RefundOutcome;
  try {
    outcome = await (provider.refunds as NonNullable<PaymentProvider['refunds']>).refund(
      refundRequest(context, record),
    );
  } catch (error) {
    // The answer was lost: the provider may have refunded. A webhook or the recovery step decides.
    ports.reportError(`sending refund ${record.id} to ${provider.name}`, error);
    return undefined;
  }
  try {
    await context.store.transaction((tx) => settleProviderRefund(context, tx, record.id, outcome, ports.hooks));
  } catch (error) {
    // The refund exists and its webhook or the recovery step decides it: the request still answers.
    ports.reportError(`applying ${provider.name}'s answer to refund ${record.id}`, error);
  }
  return context.store.adjustments.findById(context.scope, record.id);
}

/**
 * Applies a provider's answer about Drawdown's own refund, once, inside `tx`: under the record's
 * row lock, a `processing` record becomes `succeeded` (its adjustment approved) or `failed` (its
 * adjustment rejected); `pending` only stores the provider's reference. Anything after the first
 * final answer changes nothing: true only when this call decided it.
 */
export async function settleProviderRefund(
  context: Context<PaymentSlice>,
  tx: PaymentSlice,
  adjustmentId: string,
  outcome: RefundOutcome,
  hooks: TransactionHooks,
  providerPaymentRef?: string,
): Promise<boolean> {
  const record = await tx.providerRefunds.findByIdForUpdate(context.scope, adjustmentId);
  if (!record || record.status !== 'processing' || record.origin !== 'drawdown') return false;
  // A webhook names the payment: one naming another payment is not about this refund.
  if (providerPaymentRef !== undefined && providerPaymentRef !== record.providerPaymentRef) return false;
  const now = nowTimestamp(context);
  if (outcome.status === 'pending') {
    if (record.refundRef !== outcome.refundRef) {
      await tx.providerRefunds.update(context.scope, { ...record, refundRef: outcome.refundRef, updatedAt: now });
    }
    return false;
  }
  await tx.providerRefunds.update(context.scope, {
    ...record,
    status: outcome.status,
    refundRef: outcome.refundRef ?? record.refundRef,
    failureReason: outcome.status === 'failed' ? outcome.reason : null,
    updatedAt: now,
  });
  const decided = await decidePendingAdjustment(
    context,
    tx,
    adjustmentId,
    outcome.status === 'succeeded' ? 'approved' : 'rejected',
    hooks,
  );
  return decided !== undefined;
}

/** A refund made at the provider (ADR 1461), recorded beside its adjustment so later refunds of the payment see it. */
export async function recordRefundMadeAtProvider(
  context: Context<PaymentSlice>,
  tx: PaymentSlice,
  provider: string,
  adjustment: Adjustment,
  payment: { readonly attemptId: string; readonly providerPaymentRef: string },
  refundRef: string,
): Promise<void> {
  const now = nowTimestamp(context);
  await tx.providerRefunds.insert(context.scope, {
    id: adjustment.id,
    transactionId: adjustment.transactionId,
    provider,
    paymentAttemptId: payment.attemptId,
    providerPaymentRef: payment.providerPaymentRef,
    amount: adjustment.totals.total,
    currencyCode: adjustment.currencyCode,
    refundRef,
    status: 'succeeded',
    origin: 'provider',
    failureReason: null,
    createdAt: now,
    updatedAt: now,
  });
}

export interface RefundRecoveryReport {
  readonly settled: number;
  readonly waiting: number;
}

/**
 * The recovery step for refunds (part of the `payment_recovery` due work, ADR 1463): each refund
 * still `processing` past the grace period is looked for among its payment's refunds at the
 * provider (by the adjustment id in its metadata); one found is applied as it stands, and one never
 * made is asked for again with the same key (the provider answers its first outcome, or refunds
 * now if the first request never reached it). Never a second refund: the lookup comes first, and
 * the key covers the window in which the lookup could miss it.
 */
export async function recoverProviderRefunds(
  context: Context<PaymentSlice>,
  ports: ProviderRefundPorts,
): Promise<RefundRecoveryReport> {
  if (context.scope.environment !== 'live') return { settled: 0, waiting: 0 };
  const page = await context.store.providerRefunds.list(context.scope, {
    filter: { status: [{ op: 'eq', value: 'processing' }] },
    ...RECOVERY_PAGE,
  });
  return settleStale(context, ports, page.items, {
    cutoff: context.clock.now() - RECOVERY_GRACE_MS,
    what: (record) => `refund ${record.id}`,
    doing: (record) => `recovering refund ${record.id}`,
    settle: async (record, provider) => {
      const refunds = provider.refunds;
      if (!refunds) return false;
      const outcome =
        (await refunds.findRefund(context.scope, record.providerPaymentRef, record.id)) ??
        (await refunds.refund(refundRequest(context, record)));
      return context.store.transaction((tx) => settleProviderRefund(context, tx, record.id, outcome, ports.hooks));
    },
  });
}
