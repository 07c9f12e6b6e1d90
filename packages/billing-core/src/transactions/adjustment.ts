/**
 * @module
 * Adjustments change a billed or completed transaction after the fact (ADR 0405): a `credit`
 * lowers what an unpaid invoice still owes (its `credit` total rises, so grand total and
 * balance fall) or, on a completed transaction, is credit granted after payment; a `refund`
 * returns money on a completed transaction. Both lower `adjusted_totals`; neither touches
 * usage balances. Drawdown records adjustments approved at once, except a refund it sends to the
 * live account's payment provider, which waits for the provider's answer (ADR 1463).
 * A `chargeback` is never asked for through the API: it records a payment the cardholder
 * disputed, as the payment provider reported it (ADR 1422); a `chargeback_reverse` gives back a
 * chargeback the seller won, and a `chargeback_warning` records an early fraud warning, which
 * moves no money (ADR 1462).
 */
export const ADJUSTMENT_ACTIONS = [
  'credit',
  'refund',
  'chargeback',
  'chargeback_reverse',
  'chargeback_warning',
] as const;
export type AdjustmentAction = (typeof ADJUSTMENT_ACTIONS)[number];

/**
 * How an adjustment counts against what its transaction's lines have left to adjust and in its
 * adjusted totals: a reversal gives back (−1), a warning counts nothing (0), the rest take (1).
 */
export function adjustmentSign(action: AdjustmentAction): bigint {
  if (action === 'chargeback_reverse') return -1n;
  if (action === 'chargeback_warning') return 0n;
  return 1n;
}
export type AdjustmentType = 'full' | 'partial';
export type AdjustmentStatus = 'pending_approval' | 'approved' | 'rejected';

export interface AdjustmentItemTotals {
  readonly subtotal: string;
  readonly tax: string;
  readonly total: string;
}

export interface AdjustmentItem {
  readonly id: string;
  /** The transaction line item (`txnitm_…`) adjusted. */
  readonly itemId: string;
  readonly type: AdjustmentType;
  /** Lowest units, tax included. */
  readonly amount: string;
  readonly proration: null;
  readonly totals: AdjustmentItemTotals;
}

/** One tax rate of the adjusted lines and what the adjustment took at it. */
export interface AdjustmentTaxRateUsed {
  /** As the transaction's line wrote it (`"0.2"` for 20%). */
  readonly taxRate: string;
  readonly totals: AdjustmentItemTotals;
}

/**
 * Groups an adjustment's items by the tax rate of the transaction line each adjusts, in the order
 * the rates first appear, and sums each group's totals. A line the transaction no longer lists
 * (never, in practice) counts at rate `"0"`.
 */
export function adjustmentTaxRatesUsed(
  items: readonly AdjustmentItem[],
  lineItems: readonly { readonly id: string; readonly taxRate: string }[],
): AdjustmentTaxRateUsed[] {
  const rateOf = new Map(lineItems.map((line) => [line.id, line.taxRate]));
  const byRate = new Map<string, { subtotal: bigint; tax: bigint; total: bigint }>();
  for (const item of items) {
    const rate = rateOf.get(item.itemId) ?? '0';
    const sum = byRate.get(rate) ?? { subtotal: 0n, tax: 0n, total: 0n };
    byRate.set(rate, {
      subtotal: sum.subtotal + BigInt(item.totals.subtotal),
      tax: sum.tax + BigInt(item.totals.tax),
      total: sum.total + BigInt(item.totals.total),
    });
  }
  return [...byRate.entries()].map(([taxRate, sum]) => ({
    taxRate,
    totals: { subtotal: sum.subtotal.toString(), tax: sum.tax.toString(), total: sum.total.toString() },
  }));
}

export interface AdjustmentTotals {
  readonly subtotal: string;
  readonly tax: string;
  readonly total: string;
  readonly fee: string;
  readonly earnings: string;
  readonly retainedFee: string;
  readonly currencyCode: string;
}

export interface Adjustment {
  readonly id: string;
  readonly action: AdjustmentAction;
  readonly type: AdjustmentType;
  readonly transactionId: string;
  readonly subscriptionId: string | null;
  readonly customerId: string;
  readonly reason: string;
  /** True when a credit went to a completed transaction (nothing was left to owe). */
  readonly creditAppliedToBalance: boolean | null;
  readonly currencyCode: string;
  /**
   * `approved` at once, except a refund sent to the account's payment provider (ADR 1463):
   * `pending_approval` until the provider answers, then `approved` or `rejected`.
   */
  readonly status: AdjustmentStatus;
  readonly items: readonly AdjustmentItem[];
  readonly totals: AdjustmentTotals;
  readonly payoutTotals: null;
  /** The items' totals grouped by the tax rate of the lines they adjust. */
  readonly taxRatesUsed: readonly AdjustmentTaxRateUsed[];
  readonly taxMode: 'internal';
  readonly createdAt: string;
  readonly updatedAt: string;
}
