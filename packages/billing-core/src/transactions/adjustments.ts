/**
 * @module
 * Creating and listing adjustments. Amounts are per transaction line item, tax included; each
 * item's tax is its share of the line's remaining tax, rounded half to even, and an item that
 * takes all that remains takes exactly the remaining tax, so a line adjusted in full sums back
 * to its totals to the unit.
 */

import { recordEvent } from '../events/record-event.js';
import { adjustmentMetricDeltas } from '../metrics/metric-rollups.js';
import { MINOR_UNIT_AMOUNT_PATTERN } from '../money/decimal-patterns.js';
import { divideRounded } from '../money/rounding.js';
import { BillingError } from '../shared/billing-error.js';
import { type Context, nowTimestamp } from '../shared/context.js';
import type { ListQuery, Page } from '../shared/pagination.js';
import {
  type Adjustment,
  type AdjustmentAction,
  type AdjustmentItem,
  type AdjustmentType,
  adjustmentSign,
  adjustmentTaxRatesUsed,
} from './adjustment.js';
import { grantCredit } from './credit-balances.js';
import { refuseWhilePaymentInFlight } from './payment-in-flight.js';
import { completeSettled, type TransactionHooks } from './payments.js';
import type { AdjustmentColumn, TransactionSlice } from './repositories.js';
import type { Transaction } from './transaction.js';
import { saveTransaction } from './transaction-changes.js';
import { composeDetails, decompose } from './transaction-totals.js';

export interface AdjustmentItemInput {
  readonly itemId: string;
  readonly type: AdjustmentType;
  /** Required for `partial`; `full` takes what remains of the line. */
  readonly amount?: string | null | undefined;
}

export interface CreateAdjustmentInput {
  readonly action: AdjustmentAction;
  readonly transactionId: string;
  readonly reason: string;
  /** `full` adjusts everything that remains; `partial` (the default) the listed items. */
  readonly type?: AdjustmentType | undefined;
  readonly items?: readonly AdjustmentItemInput[] | undefined;
}

const ALLOWED_STATUSES: Record<AdjustmentAction, ReadonlySet<string>> = {
  credit: new Set(['billed', 'past_due', 'completed']),
  refund: new Set(['completed']),
  chargeback: new Set(['completed']),
  chargeback_reverse: new Set(['completed']),
  chargeback_warning: new Set(['completed']),
};

/** What is left of a line after its adjustments. */
export interface Remaining {
  readonly tax: bigint;
  readonly total: bigint;
}

/**
 * What each line still has to adjust: its totals minus every earlier adjustment of it. The one
 * rule for every path that adjusts a transaction (the API's adjustments, a refund the provider
 * made on its own).
 */
export async function remainingByLine(
  context: Context<TransactionSlice>,
  tx: TransactionSlice,
  transaction: Transaction,
): Promise<Map<string, Remaining>> {
  const remaining = new Map<string, Remaining>();
  for (const line of transaction.details.lineItems) {
    remaining.set(line.id, { tax: BigInt(line.totals.tax), total: BigInt(line.totals.total) });
  }
  let after: string | undefined;
  for (;;) {
    const page = await tx.adjustments.list(context.scope, {
      filter: { transaction_id: [{ op: 'eq', value: transaction.id }] },
      perPage: 200,
      direction: 'asc',
      after,
    });
    for (const adjustment of page.items) {
      // A rejected refund gave nothing back; a pending one holds its amounts until it is decided (ADR 1463).
      if (adjustment.status === 'rejected') continue;
      const sign = adjustmentSign(adjustment.action);
      for (const item of adjustment.items) {
        const line = remaining.get(item.itemId);
        if (line) {
          remaining.set(item.itemId, {
            tax: line.tax - sign * BigInt(item.totals.tax),
            total: line.total - sign * BigInt(item.totals.total),
          });
        }
      }
    }
    if (!page.hasMore) break;
    after = page.items.at(-1)?.id;
  }
  return remaining;
}

function amountAbove(detail: string): BillingError {
  return new BillingError('adjustment_amount_above_remaining', detail);
}

/**
 * How `POST /adjustments` makes one. `pendingRefund`, for a refund the account's payment provider
 * must make (ADR 1463): the callback (in the same database transaction) records what the provider
 * will be asked, or refuses the refund, and says whether it goes to the provider; if so the
 * adjustment is stored `pending_approval` and the transaction's totals wait for its approval.
 */
export interface AdjustmentRequestOptions {
  /**
   * True when the refund is sent to the provider (then pending); false when it is recorded as
   * before. A method, so a feature above transactions (payments) may declare `tx` as its own
   * slice (ADR 0922).
   */
  pendingRefund(tx: TransactionSlice, transaction: Transaction, adjustment: Adjustment): Promise<boolean>;
}

/**
 * A refund or chargeback recorded as it stands, never sent to a provider: for an account without
 * a refunding provider, and for what the provider already made on its own (its refunds and
 * disputes). Passed explicitly: no path gets it by leaving the options out.
 */
export const RECORDED_AS_IT_STANDS: AdjustmentRequestOptions = { pendingRefund: async () => false };

export async function createAdjustment(
  context: Context<TransactionSlice>,
  input: CreateAdjustmentInput,
  hooks: TransactionHooks,
  options: AdjustmentRequestOptions,
): Promise<Adjustment> {
  return context.store.transaction(async (tx) => {
    // The public API refuses any adjustment while a refund of the transaction awaits its approval;
    // read under the transaction's row lock, so two requests never both pass it.
    await tx.transactions.findByIdForUpdate(context.scope, input.transactionId);
    const pending = await tx.adjustments.list(context.scope, {
      filter: {
        transaction_id: [{ op: 'eq', value: input.transactionId }],
        status: [{ op: 'eq', value: 'pending_approval' }],
      },
      perPage: 1,
      direction: 'asc',
    });
    if (pending.items.length > 0) {
      throw new BillingError(
        'adjustment_pending_refund_request',
        `Refund ${pending.items[0]?.id} of transaction ${input.transactionId} awaits the payment provider's answer: no further adjustment until it is approved or rejected.`,
      );
    }
    return createAdjustmentInTransaction(context, tx, input, hooks, options);
  });
}

/** `createAdjustment` inside the caller's database transaction (a provider's dispute records its chargeback with its own record). */
export async function createAdjustmentInTransaction(
  context: Context<TransactionSlice>,
  tx: TransactionSlice,
  input: CreateAdjustmentInput,
  hooks: TransactionHooks,
  options: AdjustmentRequestOptions,
): Promise<Adjustment> {
  const type = input.type ?? 'partial';
  if (type === 'partial' && (input.items === undefined || input.items.length === 0)) {
    throw BillingError.invalidField('items', 'must list at least one item for a partial adjustment');
  }
  const transaction = await tx.transactions.findByIdForUpdate(context.scope, input.transactionId);
  if (!transaction) {
    throw new BillingError('transaction_not_found', `Transaction ${input.transactionId} not found.`);
  }
  if (!ALLOWED_STATUSES[input.action].has(transaction.status) || transaction.customerId === null) {
    throw new BillingError(
      'adjustment_transaction_status_not_allowed',
      `Transaction ${transaction.id} is ${transaction.status}: refunds need a completed transaction, credits a billed, past-due or completed one.`,
    );
  }
  // A credit lowers what an unpaid invoice owes: not while a payment of the old amount is in flight (ADR 1468).
  if (transaction.status !== 'completed') {
    await refuseWhilePaymentInFlight(context, tx, transaction.id, `a ${input.action} adjustment`);
  }
  const remaining = await remainingByLine(context, tx, transaction);
  const requested: readonly AdjustmentItemInput[] =
    type === 'full'
      ? transaction.details.lineItems
          .filter((line) => (remaining.get(line.id)?.total ?? 0n) > 0n)
          .map((line) => ({ itemId: line.id, type: 'full' as const }))
      : (input.items ?? []);
  if (requested.length === 0) throw amountAbove(`Nothing remains to adjust on transaction ${transaction.id}.`);
  const seen = new Set<string>();
  const items = requested.map((item, index): AdjustmentItem => {
    const line = remaining.get(item.itemId);
    if (!line) {
      throw BillingError.invalidField(`items[${index}].item_id`, `is not a line item of transaction ${transaction.id}`);
    }
    if (seen.has(item.itemId)) throw BillingError.invalidField(`items[${index}].item_id`, 'appears more than once');
    seen.add(item.itemId);
    let total = line.total;
    if (item.type === 'partial') {
      if (item.amount == null || !MINOR_UNIT_AMOUNT_PATTERN.test(item.amount) || BigInt(item.amount) <= 0n) {
        throw BillingError.invalidField(
          `items[${index}].amount`,
          'must be a positive integer string in the lowest currency unit for a partial item',
        );
      }
      total = BigInt(item.amount);
    }
    if (total <= 0n || total > line.total) {
      throw amountAbove(`Item ${item.itemId} has ${line.total} left to adjust; ${total} was asked.`);
    }
    const tax = total === line.total ? line.tax : divideRounded(total * line.tax, line.total, 'half-even');
    return {
      id: context.ids.newId('adjitm'),
      itemId: item.itemId,
      type: item.type,
      amount: total.toString(),
      proration: null,
      totals: { subtotal: (total - tax).toString(), tax: tax.toString(), total: total.toString() },
    };
  });
  const sum = items.reduce(
    (acc, item) => ({ tax: acc.tax + BigInt(item.totals.tax), total: acc.total + BigInt(item.totals.total) }),
    { tax: 0n, total: 0n },
  );
  const unpaid = transaction.status !== 'completed';
  const balance = BigInt(transaction.details.totals.balance);
  if (unpaid && sum.total > balance) {
    throw amountAbove(`A credit can cover at most the balance still due, ${balance}; ${sum.total} was asked.`);
  }
  const now = nowTimestamp(context);
  const built: Adjustment = {
    id: context.ids.newId('adj'),
    action: input.action,
    type,
    transactionId: transaction.id,
    subscriptionId: transaction.subscriptionId,
    customerId: transaction.customerId,
    reason: input.reason,
    creditAppliedToBalance: input.action === 'credit' ? !unpaid && transaction.collectionMode === 'automatic' : null,
    currencyCode: transaction.currencyCode,
    status: 'approved',
    items,
    totals: {
      subtotal: (sum.total - sum.tax).toString(),
      tax: sum.tax.toString(),
      total: sum.total.toString(),
      fee: '0',
      earnings: (sum.total - sum.tax).toString(),
      retainedFee: '0',
      currencyCode: transaction.currencyCode,
    },
    payoutTotals: null,
    taxRatesUsed: adjustmentTaxRatesUsed(items, transaction.details.lineItems),
    taxMode: 'internal',
    createdAt: now,
    updatedAt: now,
  };
  const sent = input.action === 'refund' && (await options.pendingRefund(tx, transaction, built));
  const adjustment: Adjustment = sent ? { ...built, status: 'pending_approval' } : built;
  await tx.adjustments.insert(context.scope, adjustment);
  if (sent) {
    // The provider decides (ADR 1463): totals, metrics and credit notes wait for the approval.
    await recordEvent(context, tx, 'adjustment.created', 'adjustment', adjustment);
    return adjustment;
  }
  await recordEvent(context, tx, 'adjustment.created', 'adjustment', adjustment);
  await applyApprovedAdjustment(context, tx, transaction, adjustment, hooks);
  return adjustment;
}

/**
 * A pending refund the provider decided (ADR 1463), inside the caller's database transaction:
 * `approved` applies it as an adjustment approved at once would have been (the transaction's
 * adjusted totals, metrics; its credit note becomes available); `rejected` changes nothing else.
 * Either way `adjustment.updated` is recorded. False when it was no longer pending.
 */
export async function decidePendingAdjustment(
  context: Context<TransactionSlice>,
  tx: TransactionSlice,
  adjustmentId: string,
  status: 'approved' | 'rejected',
  hooks: TransactionHooks,
): Promise<Adjustment | undefined> {
  const pending = await tx.adjustments.findByIdForUpdate(context.scope, adjustmentId);
  if (pending?.status !== 'pending_approval') return undefined;
  const transaction = await tx.transactions.findByIdForUpdate(context.scope, pending.transactionId);
  if (!transaction) return undefined;
  const decided: Adjustment = { ...pending, status, updatedAt: nowTimestamp(context) };
  await tx.adjustments.update(context.scope, decided);
  await recordEvent(context, tx, 'adjustment.updated', 'adjustment', decided);
  if (status === 'approved') await applyApprovedAdjustment(context, tx, transaction, decided, hooks);
  return decided;
}

/** What an approved adjustment does to its transaction (read and locked by the caller) and the metrics. */
async function applyApprovedAdjustment(
  context: Context<TransactionSlice>,
  tx: TransactionSlice,
  transaction: Transaction,
  adjustment: Adjustment,
  hooks: TransactionHooks,
): Promise<void> {
  const now = adjustment.updatedAt;
  await tx.metricRollups.add(context.scope, adjustmentMetricDeltas(adjustment, now));
  // An early fraud warning moves no money: the transaction's totals stay as they are (ADR 1462).
  if (adjustment.action === 'chargeback_warning') return;
  const sum = { tax: BigInt(adjustment.totals.tax), total: BigInt(adjustment.totals.total) };
  const unpaid = transaction.status !== 'completed';
  const input = { action: adjustment.action };

  const { lines, settlement } = decompose(transaction);
  const credited = unpaid && input.action === 'credit';
  const details = composeDetails(
    lines,
    {
      ...settlement,
      creditTotal: settlement.creditTotal + (credited ? sum.total : 0n),
      creditTax: settlement.creditTax + (credited ? sum.tax : 0n),
      adjustments: {
        subtotal: settlement.adjustments.subtotal + (sum.total - sum.tax),
        discount: 0n,
        tax: settlement.adjustments.tax + sum.tax,
        total: settlement.adjustments.total + sum.total,
      },
    },
    transaction.currencyCode,
  );
  const adjusted: Transaction = { ...transaction, details, updatedAt: now };
  // A credit on a completed, automatically collected transaction goes to the customer's
  // credit balance, which their next transactions in this currency use first (ADR 1002).
  if (
    input.action === 'credit' &&
    !unpaid &&
    transaction.collectionMode === 'automatic' &&
    transaction.customerId !== null
  ) {
    await grantCredit(context, tx, {
      customerId: transaction.customerId,
      currencyCode: transaction.currencyCode,
      amount: sum.total,
      transactionId: transaction.id,
      at: now,
    });
  }
  if (credited && BigInt(details.totals.balance) === 0n) {
    await completeSettled(context, tx, transaction, adjusted, hooks);
  } else {
    await saveTransaction(context, tx, transaction, adjusted);
  }
}

/**
 * `chargeback_reverse`: a chargeback the seller won is given back (ADR 1462): the same items and
 * amounts as the chargeback, approved at once, raising what remains of each line again and
 * lowering the transaction's adjusted totals by as much.
 */
export async function reverseChargebackInTransaction(
  context: Context<TransactionSlice>,
  tx: TransactionSlice,
  chargeback: Adjustment,
  reason: string,
): Promise<Adjustment> {
  const transaction = await tx.transactions.findByIdForUpdate(context.scope, chargeback.transactionId);
  if (!transaction || transaction.status !== 'completed') {
    throw new BillingError(
      'adjustment_transaction_status_not_allowed',
      `Transaction ${chargeback.transactionId} is not completed: its chargeback cannot be reversed.`,
    );
  }
  const now = nowTimestamp(context);
  const adjustment: Adjustment = {
    ...chargeback,
    id: context.ids.newId('adj'),
    action: 'chargeback_reverse',
    reason,
    items: chargeback.items.map((item) => ({ ...item, id: context.ids.newId('adjitm') })),
    createdAt: now,
    updatedAt: now,
  };
  await tx.adjustments.insert(context.scope, adjustment);
  await recordEvent(context, tx, 'adjustment.created', 'adjustment', adjustment);
  const total = BigInt(adjustment.totals.total);
  const tax = BigInt(adjustment.totals.tax);
  const { lines, settlement } = decompose(transaction);
  const details = composeDetails(
    lines,
    {
      ...settlement,
      adjustments: {
        subtotal: settlement.adjustments.subtotal - (total - tax),
        discount: settlement.adjustments.discount,
        tax: settlement.adjustments.tax - tax,
        total: settlement.adjustments.total - total,
      },
    },
    transaction.currencyCode,
  );
  await saveTransaction(context, tx, transaction, { ...transaction, details, updatedAt: now });
  return adjustment;
}

export function listAdjustments(
  context: Context<TransactionSlice>,
  query: ListQuery<AdjustmentColumn>,
): Promise<Page<Adjustment>> {
  return context.store.adjustments.list(context.scope, query);
}
