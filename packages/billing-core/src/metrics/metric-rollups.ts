/**
 * @module
 * Daily rollups behind the metrics endpoints (ADR 1302). Every change that moves a metric adds
 * its delta to the day's row in the same database transaction as the change, so a metric is
 * the exact sum of the changes stored, read in one indexed range per request however many
 * transactions exist. Amounts are integers in the currency's smallest unit.
 */

// What the metrics read of transactions, adjustments and subscriptions, as shapes: those
// features call into this one, so it names only the fields it needs (no import cycle).

interface Transaction {
  readonly status: string;
  readonly origin: string;
  readonly currencyCode: string;
  readonly createdAt: string;
  readonly details: { readonly totals: { readonly total: string; readonly tax: string; readonly fee: string | null } };
}

interface Adjustment {
  readonly action: string;
  readonly status: string;
  readonly currencyCode: string;
  readonly totals: { readonly total: string; readonly tax: string };
}

interface Subscription {
  readonly status: string;
  readonly currencyCode: string;
  readonly items: readonly {
    readonly status: string;
    readonly recurring: boolean;
    readonly quantity: number;
    readonly price: {
      readonly unitPrice: { readonly amount: string };
      readonly billingCycle: {
        readonly interval: 'day' | 'week' | 'month' | 'year';
        readonly frequency: number;
      } | null;
    };
  }[];
}

export const METRIC_NAMES = [
  'revenue',
  'refunds',
  'chargebacks',
  'checkouts',
  'checkouts_completed',
  'active_subscribers',
  'monthly_recurring_revenue',
] as const;
export type MetricName = (typeof METRIC_NAMES)[number];

/** One change to one day's row: amounts and counts are added, never set. */
export interface MetricDelta {
  readonly metric: MetricName;
  readonly currencyCode: string;
  /** `YYYY-MM-DD` (UTC). */
  readonly day: string;
  readonly amount: bigint;
  readonly count: number;
}

export interface MetricDay {
  readonly day: string;
  readonly amount: bigint;
  readonly count: number;
}

export const dayOf = (timestamp: string): string => timestamp.slice(0, 10);

function net(transaction: Transaction): bigint {
  const totals = transaction.details.totals;
  return BigInt(totals.total) - BigInt(totals.tax) - BigInt(totals.fee ?? '0');
}

/** A checkout is a purchase the customer starts: any transaction not issued by a subscription. */
const isCheckout = (transaction: Transaction): boolean => !transaction.origin.startsWith('subscription_');

/**
 * What a transaction's change does to the metrics: completion adds its net revenue (after tax
 * and fees) on the day it completes; a checkout counts on the day it is created, and its
 * completion counts toward that same day's conversion.
 */
export function transactionMetricDeltas(before: Transaction | null, after: Transaction, at: string): MetricDelta[] {
  const deltas: MetricDelta[] = [];
  const currencyCode = after.currencyCode;
  if (before === null && isCheckout(after)) {
    deltas.push({ metric: 'checkouts', currencyCode, day: dayOf(after.createdAt), amount: 0n, count: 1 });
  }
  if (after.status === 'completed' && before?.status !== 'completed') {
    deltas.push({ metric: 'revenue', currencyCode, day: dayOf(at), amount: net(after), count: 1 });
    if (isCheckout(after)) {
      deltas.push({ metric: 'checkouts_completed', currencyCode, day: dayOf(after.createdAt), amount: 0n, count: 1 });
    }
  }
  return deltas;
}

/** A refund or a chargeback counts on the day it is approved (adjustments are approved as they are made), net of tax. */
export function adjustmentMetricDeltas(adjustment: Adjustment, at: string): MetricDelta[] {
  if (adjustment.status !== 'approved' || (adjustment.action !== 'refund' && adjustment.action !== 'chargeback')) {
    return [];
  }
  const amount = BigInt(adjustment.totals.total) - BigInt(adjustment.totals.tax);
  const metric = adjustment.action === 'refund' ? 'refunds' : 'chargebacks';
  return [{ metric, currencyCode: adjustment.currencyCode, day: dayOf(at), amount, count: 1 }];
}

/** Subscribers are subscriptions that are active or past due (still subscribed, payment pending). */
const isSubscribed = (subscription: Subscription | null): boolean =>
  subscription !== null && (subscription.status === 'active' || subscription.status === 'past_due');

// Months per billing interval, as a fraction: a price every `frequency` intervals is
// `amount × numerator / (denominator × frequency)` a month.
const MONTHLY_FACTOR = {
  day: [365n, 12n],
  week: [52n, 12n],
  month: [1n, 1n],
  year: [1n, 12n],
} as const;

/** `numerator / denominator` rounded half to even, in integers. */
export function divideHalfEven(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  const remainder = numerator % denominator;
  const twice = 2n * (remainder < 0n ? -remainder : remainder);
  if (twice < denominator || (twice === denominator && quotient % 2n === 0n)) return quotient;
  return quotient + (numerator < 0n ? -1n : 1n);
}

/**
 * A subscription's monthly recurring revenue in its currency's smallest unit: each recurring
 * item's unit price times quantity, normalised to a month, rounded half to even once per
 * subscription. Zero unless subscribed.
 */
export function monthlyRecurringRevenue(subscription: Subscription | null): bigint {
  if (subscription === null || !isSubscribed(subscription)) return 0n;
  let numerator = 0n;
  let denominator = 1n;
  for (const item of subscription.items) {
    const cycle = item.price.billingCycle;
    if (!item.recurring || item.status === 'inactive' || cycle === null) continue;
    const [perMonth, months] = MONTHLY_FACTOR[cycle.interval];
    const itemNumerator = BigInt(item.price.unitPrice.amount) * BigInt(item.quantity) * perMonth;
    const itemDenominator = months * BigInt(cycle.frequency);
    numerator = numerator * itemDenominator + itemNumerator * denominator;
    denominator *= itemDenominator;
  }
  return divideHalfEven(numerator, denominator);
}

/** What a subscription's change does to subscriber counts and recurring revenue, on the day of `at`. */
export function subscriptionMetricDeltas(before: Subscription | null, after: Subscription, at: string): MetricDelta[] {
  const day = dayOf(at);
  const deltas: MetricDelta[] = [];
  const currencyCode = after.currencyCode;
  const count = Number(isSubscribed(after)) - Number(isSubscribed(before));
  if (count !== 0) deltas.push({ metric: 'active_subscribers', currencyCode, day, amount: 0n, count });
  const previous = monthlyRecurringRevenue(before);
  const next = monthlyRecurringRevenue(after);
  // A subscription keeps its currency; were it ever to change, the old currency loses its share.
  if (before !== null && before.currencyCode !== currencyCode && previous !== 0n) {
    deltas.push({
      metric: 'monthly_recurring_revenue',
      currencyCode: before.currencyCode,
      day,
      amount: -previous,
      count: 0,
    });
    if (next !== 0n) deltas.push({ metric: 'monthly_recurring_revenue', currencyCode, day, amount: next, count: 0 });
  } else if (next !== previous) {
    deltas.push({ metric: 'monthly_recurring_revenue', currencyCode, day, amount: next - previous, count: 0 });
  }
  return deltas;
}
