/**
 * @module
 * What `include=` embeds in a transaction (ADR 1101): its address, business, customer and
 * discount as they are now, its adjustments, the sum of those adjustments, and the payment
 * methods the environment can take for it.
 */
import type { Address, Business, Customer } from '../catalogue/entities.js';
import type { Discount } from '../discounts/discount.js';
import { discountAt } from '../discounts/discount.js';
import { type Context, nowTimestamp } from '../shared/context.js';
import { type Adjustment, adjustmentSign } from './adjustment.js';
import type { TransactionSlice } from './repositories.js';
import type { Transaction } from './transaction.js';
import { findRevision, revisedParties } from './transaction-revision.js';

export const TRANSACTION_INCLUDES = [
  'address',
  'adjustments',
  'adjustments_totals',
  'available_payment_methods',
  'business',
  'customer',
  'discount',
] as const;
export type TransactionInclude = (typeof TRANSACTION_INCLUDES)[number];

export interface AdjustmentsTotals {
  readonly subtotal: string;
  readonly tax: string;
  readonly total: string;
  readonly fee: string;
  readonly earnings: string;
  readonly breakdown: { readonly credit: string; readonly refund: string; readonly chargeback: string };
  readonly currencyCode: string;
}

export interface TransactionWithIncludes extends Transaction {
  readonly address?: Address | null;
  readonly adjustments?: readonly Adjustment[];
  readonly adjustmentsTotals?: AdjustmentsTotals;
  readonly availablePaymentMethods?: readonly string[];
  readonly business?: Business | null;
  readonly customer?: Customer | null;
  readonly discount?: Discount | null;
}

const ADJUSTMENTS_PAGE = 1_000;

/** Sums a transaction's approved adjustments; Drawdown takes no fee, so earnings are net of tax. */
export function adjustmentsTotals(adjustments: readonly Adjustment[], currencyCode: string): AdjustmentsTotals {
  let subtotal = 0n;
  let tax = 0n;
  let total = 0n;
  const byAction = { credit: 0n, refund: 0n, chargeback: 0n };
  for (const adjustment of adjustments) {
    if (adjustment.status !== 'approved') continue;
    // A won chargeback's reversal nets against the chargeback; a fraud warning moves no money (ADR 1462).
    const sign = adjustmentSign(adjustment.action);
    subtotal += sign * BigInt(adjustment.totals.subtotal);
    tax += sign * BigInt(adjustment.totals.tax);
    total += sign * BigInt(adjustment.totals.total);
    const key = adjustment.action === 'chargeback_reverse' ? 'chargeback' : adjustment.action;
    if (key !== 'chargeback_warning') byAction[key] += sign * BigInt(adjustment.totals.total);
  }
  return {
    subtotal: subtotal.toString(),
    tax: tax.toString(),
    total: total.toString(),
    fee: '0',
    earnings: subtotal.toString(),
    breakdown: {
      credit: byAction.credit.toString(),
      refund: byAction.refund.toString(),
      chargeback: byAction.chargeback.toString(),
    },
    currencyCode,
  };
}

/**
 * The payment methods a transaction can still be paid with: none once it is settled or
 * canceled; in the sandbox a simulated card; in live none, since live payments are taken by the
 * operator's provider and recorded afterwards (ADR 1101).
 */
export function availablePaymentMethods(context: Context<TransactionSlice>, transaction: Transaction): string[] {
  const payable = ['ready', 'billed', 'past_due'].includes(transaction.status);
  return payable && context.scope.environment === 'sandbox' ? ['card'] : [];
}

/** The transaction with each asked-for relation embedded. */
export async function withTransactionIncludes(
  context: Context<TransactionSlice>,
  transaction: Transaction,
  includes: ReadonlySet<TransactionInclude>,
): Promise<TransactionWithIncludes> {
  if (includes.size === 0) return transaction;
  const { store, scope } = context;
  const embedded: Record<string, unknown> = {};
  if (includes.has('address') || includes.has('customer') || includes.has('business')) {
    // A revised transaction shows its revised details over the entities (ADR 1102).
    const { addressId, customerId, businessId } = transaction;
    const parties = revisedParties(
      {
        address: addressId === null ? null : ((await store.addresses.findById(scope, addressId)) ?? null),
        customer: customerId === null ? null : ((await store.customers.findById(scope, customerId)) ?? null),
        business: businessId === null ? null : ((await store.businesses.findById(scope, businessId)) ?? null),
      },
      await findRevision(context, transaction),
    );
    if (includes.has('address')) embedded.address = parties.address;
    if (includes.has('customer')) embedded.customer = parties.customer;
    if (includes.has('business')) embedded.business = parties.business;
  }
  if (includes.has('discount')) {
    const discount =
      transaction.discountId === null ? undefined : await store.discounts.findById(scope, transaction.discountId);
    embedded.discount = discount === undefined ? null : discountAt(discount, nowTimestamp(context));
  }
  if (includes.has('adjustments') || includes.has('adjustments_totals')) {
    const page = await store.adjustments.list(scope, {
      filter: { transaction_id: [{ op: 'in', values: [transaction.id] }] },
      perPage: ADJUSTMENTS_PAGE,
      direction: 'asc',
    });
    if (includes.has('adjustments')) embedded.adjustments = page.items;
    if (includes.has('adjustments_totals')) {
      embedded.adjustmentsTotals = adjustmentsTotals(page.items, transaction.currencyCode);
    }
  }
  if (includes.has('available_payment_methods')) {
    embedded.availablePaymentMethods = availablePaymentMethods(context, transaction);
  }
  return { ...transaction, ...embedded };
}
