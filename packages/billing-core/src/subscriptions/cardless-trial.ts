/**
 * @module
 * A cardless trial subscription before its customer gives a payment method (ADR 1010): started
 * by a transaction that needed no payment, still trialing, with no saved method. The public API
 * cancels it when the trial ends, and refuses what would need a payment method before then:
 * pausing, scheduling a change, one-time charges, activation, and prices that require a method.
 */
import { isCardlessTrialPrice } from '../catalogue/prices.js';
import { BillingError } from '../shared/billing-error.js';
import type { ErrorCode } from '../shared/error-codes.js';
import type { Subscription, SubscriptionItem } from './subscription.js';

export function awaitsPaymentMethod(subscription: Subscription): boolean {
  return (
    subscription.status === 'trialing' &&
    subscription.internal.cardlessTrial === true &&
    !subscription.internal.paymentMethodId
  );
}

/** Refuses `what` on a cardless trial that has no payment method yet, with the public API's `code`. */
export function requirePaymentMethodFor(subscription: Subscription, code: ErrorCode, what: string): void {
  if (!awaitsPaymentMethod(subscription)) return;
  throw new BillingError(
    code,
    `Subscription ${subscription.id} is a cardless trial without a payment method: ${what} needs one. Add one with its update-payment-method transaction first.`,
  );
}

/** Before a method is added, a cardless trial holds cardless trial prices only. */
export function requireCardlessItems(subscription: Subscription, items: readonly SubscriptionItem[]): void {
  if (!awaitsPaymentMethod(subscription)) return;
  const needing = items.find((item) => !isCardlessTrialPrice(item.price));
  if (!needing) return;
  throw new BillingError(
    'subscription_price_requires_payment_method_on_cardless_trial',
    `Price ${needing.price.id} requires a payment method, and subscription ${subscription.id} is a cardless trial without one.`,
  );
}
