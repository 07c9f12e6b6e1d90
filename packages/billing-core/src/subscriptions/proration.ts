/**
 * @module
 * What an item change bills (ADR 1000, 1001). Pure: items before and after, the billing mode,
 * the current period and the instant of the change in; signed change lines out.
 *
 * - Each price whose quantity changed gives one line with the signed difference: a charge for
 *   units added, a credit (negative quantity) for units removed, at the price the customer was
 *   billed for them (the subscription's snapshot) or the new price for new units.
 * - Prorated modes bill the exact share of the period left: remaining ms over the period's ms.
 *   Full modes bill the change as if it spanned the whole period, with no proration.
 *   `do_not_bill` bills nothing.
 * - Immediate modes bill the lines now; next-period modes keep them for the next renewal.
 */
import { divideRounded } from '../money/rounding.js';
import type { ResolvedTaxMode } from '../transactions/transaction.js';
import type { PeriodShare } from '../transactions/transaction-totals.js';
import type { BillingPeriod, PendingChangeLine, SubscriptionItem } from './subscription.js';

export const PRORATION_BILLING_MODES = [
  'prorated_immediately',
  'prorated_next_billing_period',
  'full_immediately',
  'full_next_billing_period',
  'do_not_bill',
] as const;
export type ProrationBillingMode = (typeof PRORATION_BILLING_MODES)[number];

/** When a mode bills: now, at the next renewal, or never. */
export function billsWhen(mode: ProrationBillingMode): 'now' | 'next_renewal' | 'never' {
  if (mode === 'do_not_bill') return 'never';
  return mode.endsWith('immediately') ? 'now' : 'next_renewal';
}

/** The tax a credited unit was charged with: its rate (decimal fraction) and inclusion (ADR 1447). */
export interface PaidTax {
  readonly rate: string;
  readonly mode: ResolvedTaxMode;
}

/** One line of a change: a signed quantity of a price, prorated by `share` or billed whole. */
export interface ChangeLine {
  readonly price: SubscriptionItem['price'];
  readonly product: SubscriptionItem['product'];
  readonly quantity: number;
  readonly share: PeriodShare | null;
  /** On a credit line: the tax paid on what it credits, which it gives back (ADR 1447). */
  readonly paidTax?: PaidTax | undefined;
}

export function toPending(line: ChangeLine): PendingChangeLine {
  return {
    ...line,
    share: line.share
      ? {
          remaining: line.share.remaining.toString(),
          whole: line.share.whole.toString(),
          proration: line.share.proration,
        }
      : null,
  };
}

export function fromPending(line: PendingChangeLine): ChangeLine {
  return {
    ...line,
    share: line.share
      ? { remaining: BigInt(line.share.remaining), whole: BigInt(line.share.whole), proration: line.share.proration }
      : null,
  };
}

const RATE_PLACES = 6n;
const RATE_SCALE = 10n ** RATE_PLACES;

/** A non-negative fraction of millionths as decimal text, trailing zeros dropped (`"0.5"`, `"1"`). */
function rateText(millionths: bigint): string {
  const whole = millionths / RATE_SCALE;
  const fraction = (millionths % RATE_SCALE).toString().padStart(Number(RATE_PLACES), '0').replace(/0+$/, '');
  return fraction === '' ? whole.toString() : `${whole}.${fraction}`;
}

/**
 * The share of `period` left at `at`: remaining over whole milliseconds, exact; the presented
 * rate is that fraction rounded half to even to six places.
 */
export function remainingShare(period: BillingPeriod, at: string): PeriodShare {
  const start = Date.parse(period.startsAt);
  const end = Date.parse(period.endsAt);
  const clamped = Math.min(Math.max(Date.parse(at), start), end);
  return spanShare(period, { startsAt: new Date(clamped).toISOString(), endsAt: period.endsAt });
}

/** The share `span` is of `whole`, exact in milliseconds, with `span` as the line's proration period. */
export function spanShare(whole: BillingPeriod, span: BillingPeriod): PeriodShare {
  const remaining = BigInt(Date.parse(span.endsAt)) - BigInt(Date.parse(span.startsAt));
  const length = BigInt(Date.parse(whole.endsAt)) - BigInt(Date.parse(whole.startsAt));
  return {
    remaining,
    whole: length,
    proration: {
      rate: rateText(divideRounded(remaining * RATE_SCALE, length, 'half-even')),
      billingPeriod: { startsAt: span.startsAt, endsAt: span.endsAt },
    },
  };
}

interface Held {
  readonly item: SubscriptionItem;
  readonly quantity: number;
}

function byPrice(items: readonly SubscriptionItem[]): Map<string, Held> {
  return new Map(items.map((item) => [item.price.id, { item, quantity: item.quantity }]));
}

/**
 * The lines a change from `before` to `after` bills in `mode`, for the current `period` at `at`.
 * A price kept at the same quantity bills nothing.
 */
export function changeLines(
  before: readonly SubscriptionItem[],
  after: readonly SubscriptionItem[],
  mode: ProrationBillingMode,
  period: BillingPeriod,
  at: string,
): ChangeLine[] {
  if (mode === 'do_not_bill') return [];
  const share = mode.startsWith('prorated') ? remainingShare(period, at) : null;
  if (share?.remaining === 0n) return [];
  const old = byPrice(before);
  const next = byPrice(after);
  const priceIds = [...old.keys(), ...[...next.keys()].filter((id) => !old.has(id))];
  const lines: ChangeLine[] = [];
  for (const priceId of priceIds) {
    const was = old.get(priceId);
    const now = next.get(priceId);
    const delta = (now?.quantity ?? 0) - (was?.quantity ?? 0);
    if (delta === 0) continue;
    // Units removed are credited at what they were billed; units added are charged at the price now.
    const source = delta < 0 ? (was ?? now) : (now ?? was);
    if (!source) continue;
    lines.push({ price: source.item.price, product: source.item.product, quantity: delta, share });
  }
  return lines;
}
