/**
 * @module
 * A subscription's discount (ADR 1105, ADR 1013): a recurring discount from the checkout that
 * started it, or one set with `PATCH /subscriptions/{id}` `{discount: {id, effective_from}}`,
 * from the next billing period or from now. Each renewal applies it to the new period's
 * transaction while it has intervals left; charges within a period it applies to (an update's
 * immediate transaction) take it too. The count lives on the subscription and is saved with the
 * renewal that used it, under the subscription's row lock and version, so each interval is
 * counted exactly once even when two workers renew at once. `ends_at` is the end of the last
 * billing period it applies to when its intervals are limited (ADR 1015), null when it recurs
 * for ever; it is set when the discount starts and recomputed at each period it applies to, so a
 * pause or a change of billing date moves it.
 */

import type { Duration } from '../catalogue/entities.js';
import { type DiscountTerms, discountEligible } from '../discounts/apply-discount.js';
import type { Discount } from '../discounts/discount.js';
import { redeemDiscount, releaseDiscount } from '../discounts/discounts.js';
import { BillingError } from '../shared/billing-error.js';
import type { Context } from '../shared/context.js';
import { addCycles } from './billing-period.js';
import type { SubscriptionSlice } from './repositories.js';
import type { Subscription, SubscriptionDiscount } from './subscription.js';

export const SUBSCRIPTION_DISCOUNT_EFFECTIVE_FROM = ['next_billing_period', 'immediately'] as const;

export interface SubscriptionDiscountInput {
  readonly id: string;
  readonly effectiveFrom: (typeof SUBSCRIPTION_DISCOUNT_EFFECTIVE_FROM)[number];
}

/** Whether a discount still has an interval to apply after `used` of them. */
function intervalsLeft(discount: Pick<Discount, 'recur' | 'maximumRecurringIntervals'>, used: number): boolean {
  if (!discount.recur) return used === 0;
  return discount.maximumRecurringIntervals === null || used < discount.maximumRecurringIntervals;
}

/**
 * When a discount stops applying, seen from the period starting at `periodStartsAt`, which is its
 * `used`-th interval: the end of its last interval, or null when it recurs for ever.
 */
export function discountEndsAt(
  discount: Pick<Discount, 'recur' | 'maximumRecurringIntervals'>,
  periodStartsAt: string,
  cycle: Duration,
  used: number,
): string | null {
  const total = discount.recur ? discount.maximumRecurringIntervals : 1;
  if (total === null) return null;
  return addCycles(periodStartsAt, cycle, Math.max(total - used + 1, 0));
}

/** The discount a subscription started by `discount`'s checkout carries on: null unless it recurs past the first period. */
export function discountFromCheckout(
  discount: Discount | undefined,
  at: string,
  cycle: Duration,
): SubscriptionDiscount | null {
  if (!discount || !intervalsLeft(discount, 1)) return null;
  return { id: discount.id, startsAt: at, endsAt: discountEndsAt(discount, at, cycle, 1), intervalsUsed: 1 };
}

/**
 * The discount terms for the renewal that starts a new period, and the subscription's discount
 * after it: counted once more, or dropped when its intervals are used up.
 */
export async function discountForRenewal(
  context: Context<SubscriptionSlice>,
  tx: SubscriptionSlice,
  subscription: Subscription,
  periodStartsAt?: string,
): Promise<{ terms: DiscountTerms | null; discount: SubscriptionDiscount | null }> {
  const current = subscription.discount;
  if (current === null) return { terms: null, discount: null };
  const discount = await tx.discounts.findById(context.scope, current.id);
  const used = current.intervalsUsed ?? 0;
  if (!discount || !intervalsLeft(discount, used)) return { terms: null, discount: null };
  const lines = subscription.items.map((item) => ({ priceId: item.price.id, productId: item.product.id }));
  // A discount restricted to prices the subscription no longer has, or in another currency, skips the period.
  const applies =
    discountEligible(discount, lines) &&
    (discount.type === 'percentage' || discount.currencyCode === subscription.currencyCode);
  const endsAt =
    periodStartsAt === undefined
      ? current.endsAt
      : discountEndsAt(discount, periodStartsAt, subscription.billingCycle, used + 1);
  const next = { ...current, endsAt, intervalsUsed: used + 1 };
  return { terms: applies ? discount : null, discount: intervalsLeft(discount, used + 1) ? next : null };
}

/**
 * The subscription's discount after an update asked for `input` (ADR 1105, ADR 1013): a
 * catalogue discount, redeemed now (usage limits counted), for the subscription's items and
 * currency after the update; null removes it and gives the redemption back.
 * - `next_billing_period`: it starts with the next renewal, which is its first interval.
 * - `immediately`: it starts now and the current billing period is its first interval; the
 *   update's immediate transaction, if it makes one, and any later charge in this period take it
 *   (`discountForCharge`). Asking it of the subscription's own discount not yet started starts it
 *   now, with no second redemption. Refused on a trialing subscription (nothing is billed before
 *   the trial ends) and on a paused one (it has no current period).
 * @throws BillingError `subscription_trialing_discount_update_invalid_options`, `invalid_field`,
 *   `subscription_invalid_discount_currency`, `subscription_discount_not_valid_for_items`, and the
 *   refusals of `redeemDiscount`.
 */
export async function changeSubscriptionDiscount(
  context: Context<SubscriptionSlice>,
  tx: SubscriptionSlice,
  subscription: Subscription,
  input: SubscriptionDiscountInput | null,
  at: string,
): Promise<SubscriptionDiscount | null> {
  const current = subscription.discount;
  if (input === null) {
    if (current !== null) await releaseDiscount(context, tx, current.id);
    return null;
  }
  const immediately = input.effectiveFrom === 'immediately';
  if (immediately) requireCurrentPeriod(subscription);
  if (input.id === current?.id) {
    // The subscription's own discount: `immediately` starts it now if it waits for the next renewal.
    if (!immediately || current.startsAt <= at) return current;
    const own = await tx.discounts.findById(context.scope, current.id);
    const used = (current.intervalsUsed ?? 0) + 1;
    const periodStart = subscription.currentBillingPeriod?.startsAt ?? at;
    return {
      ...current,
      startsAt: at,
      endsAt: own ? discountEndsAt(own, periodStart, subscription.billingCycle, used) : current.endsAt,
      intervalsUsed: used,
    };
  }
  if (current !== null) await releaseDiscount(context, tx, current.id);
  const discount = await redeemDiscount(context, tx, input.id);
  requireApplicable(discount, subscription);
  const cycle = subscription.billingCycle;
  if (immediately) {
    const periodStart = subscription.currentBillingPeriod?.startsAt ?? at;
    return { id: discount.id, startsAt: at, endsAt: discountEndsAt(discount, periodStart, cycle, 1), intervalsUsed: 1 };
  }
  const startsAt = subscription.nextBilledAt ?? at;
  return { id: discount.id, startsAt, endsAt: discountEndsAt(discount, startsAt, cycle, 1), intervalsUsed: 0 };
}

function requireCurrentPeriod(subscription: Subscription): void {
  if (subscription.status === 'trialing') {
    throw new BillingError(
      'subscription_trialing_discount_update_invalid_options',
      `Subscription ${subscription.id} is trialing: a discount takes effect from the next billing period, the trial's end.`,
      [{ field: 'discount.effective_from', message: 'must be next_billing_period while the subscription is trialing' }],
    );
  }
  if (subscription.status === 'paused' || subscription.currentBillingPeriod === null) {
    throw BillingError.invalidField(
      'discount.effective_from',
      'must be next_billing_period while the subscription is paused: it has no current billing period',
    );
  }
}

/** A discount the subscription could not use at all: a flat one in another currency, or one for none of its items. */
function requireApplicable(discount: Discount, subscription: Subscription): void {
  if (discount.type !== 'percentage' && discount.currencyCode !== subscription.currencyCode) {
    throw new BillingError(
      'subscription_invalid_discount_currency',
      `Discount ${discount.id} is in ${discount.currencyCode}; subscription ${subscription.id} bills in ${subscription.currencyCode}.`,
      [{ field: 'discount.id', message: `must be a percentage discount or one in ${subscription.currencyCode}` }],
    );
  }
  const lines = subscription.items.map((item) => ({ priceId: item.price.id, productId: item.product.id }));
  if (!discountEligible(discount, lines)) {
    throw new BillingError(
      'subscription_discount_not_valid_for_items',
      `Discount ${discount.id} is restricted to prices and products none of subscription ${subscription.id}'s items use.`,
      [{ field: 'discount.id', message: 'must apply to at least one item of the subscription' }],
    );
  }
}

/**
 * The discount terms a charge the subscription makes at `at` within its current period takes (an
 * update's immediate transaction): its discount once started, while it applies to the charge's
 * subscription (its items and currency, as renewals judge it). Counts no interval: the current
 * period was counted when the discount started applying to it (checkout, renewal or `immediately`).
 */
export async function discountForCharge(
  context: Context<SubscriptionSlice>,
  tx: SubscriptionSlice,
  subscription: Subscription,
  at: string,
  charged: readonly { readonly price: { readonly id: string }; readonly product: { readonly id: string } }[],
): Promise<DiscountTerms | null> {
  const current = subscription.discount;
  if (current === null || current.startsAt > at) return null;
  const discount = await tx.discounts.findById(context.scope, current.id);
  if (!discount) return null;
  const lines = charged.map((item) => ({ priceId: item.price.id, productId: item.product.id }));
  const applies =
    discountEligible(discount, lines) &&
    (discount.type === 'percentage' || discount.currencyCode === subscription.currencyCode);
  return applies ? discount : null;
}
