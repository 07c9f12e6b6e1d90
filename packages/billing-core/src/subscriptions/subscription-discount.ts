/**
 * @module
 * A subscription's discount (ADR 1105): a recurring discount from the checkout that started it,
 * or one set with `PATCH /subscriptions/{id}` `{discount: {id, effective_from:
 * next_billing_period}}`. Each renewal applies it to the new period's transaction while it has
 * intervals left; the count lives on the subscription and is saved with the renewal that used
 * it, under the subscription's row lock and version, so each interval is counted exactly once
 * even when two workers renew at once.
 */
import { type DiscountTerms, discountEligible } from '../discounts/apply-discount.js';
import type { Discount } from '../discounts/discount.js';
import { redeemDiscount, releaseDiscount } from '../discounts/discounts.js';
import { BillingError } from '../shared/billing-error.js';
import type { OperationContext } from '../shared/operation-context.js';
import type { Repositories } from '../shared/repository.js';
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

/** The discount a subscription started by `discount`'s checkout carries on: null unless it recurs past the first period. */
export function discountFromCheckout(discount: Discount | undefined, at: string): SubscriptionDiscount | null {
  if (!discount || !intervalsLeft(discount, 1)) return null;
  return { id: discount.id, startsAt: at, endsAt: null, intervalsUsed: 1 };
}

/**
 * The discount terms for the renewal that starts a new period, and the subscription's discount
 * after it: counted once more, or dropped when its intervals are used up.
 */
export async function discountForRenewal(
  context: OperationContext,
  tx: Repositories,
  subscription: Subscription,
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
  const next = { ...current, intervalsUsed: used + 1 };
  return { terms: applies ? discount : null, discount: intervalsLeft(discount, used + 1) ? next : null };
}

/**
 * The subscription's discount after an update asked for `input`: a catalogue discount, redeemed
 * now (usage limits counted), applied from the next billing period; null removes it.
 * @throws BillingError `subscription_discount_immediately_not_supported`, and the refusals of
 *   `redeemDiscount`.
 */
export async function changeSubscriptionDiscount(
  context: OperationContext,
  tx: Repositories,
  subscription: Subscription,
  input: SubscriptionDiscountInput | null,
): Promise<SubscriptionDiscount | null> {
  if (input !== null && input.effectiveFrom !== 'next_billing_period') {
    throw new BillingError(
      'subscription_discount_immediately_not_supported',
      'A subscription discount takes effect from the next billing period; effective_from: immediately is not offered.',
    );
  }
  if (input !== null && input.id === subscription.discount?.id) return subscription.discount;
  if (subscription.discount !== null) await releaseDiscount(context, tx, subscription.discount.id);
  if (input === null) return null;
  const discount = await redeemDiscount(context, tx, input.id);
  return {
    id: discount.id,
    startsAt: subscription.nextBilledAt ?? subscription.updatedAt,
    endsAt: null,
    intervalsUsed: 0,
  };
}
