/**
 * @module
 * `POST /subscriptions/{id}/activate`: ends a trial now. The first billing period starts at
 * once and is charged at once, collected the subscription's way (sandbox: the simulated card,
 * ADR 1003). A declined charge activates nothing: the database transaction rolls back. In live
 * with a provider that authorises, the charge is held before this runs and captured after
 * (`payments/authorised-changes.ts`, ADR 1426).
 */
import { BillingError } from '../shared/billing-error.js';
import type { Context } from '../shared/context.js';
import { periodAt } from './billing-period.js';
import { requirePaymentMethodFor } from './cardless-trial.js';
import type { SubscriptionSlice } from './repositories.js';
import type { Subscription } from './subscription.js';
import { issueCharge, type RenewalPayment, recurringItems, sandboxPaymentOutcome } from './subscription-billing.js';
import { now, saveChange } from './subscription-changes.js';
import { discountForRenewal } from './subscription-discount.js';
import { requireChangeable, type SubscriptionUpdateResult } from './update-subscription.js';

export async function activateSubscription(context: Context<SubscriptionSlice>, id: string): Promise<Subscription> {
  const payment = await sandboxPaymentOutcome(context);
  const result = await context.store.transaction((tx) => applyActivation(context, tx, id, payment));
  return result.subscription;
}

/** The refusal of an activation whose charge was declined. */
export function declinedActivation(id: string): BillingError {
  return new BillingError(
    'subscription_payment_declined',
    `The charge that activates subscription ${id} was declined; it is still trialing.`,
  );
}

/** Activates inside the caller's database transaction; a declined charge throws, so nothing is written. */
export async function applyActivation(
  context: Context<SubscriptionSlice>,
  tx: SubscriptionSlice,
  id: string,
  payment: RenewalPayment,
): Promise<SubscriptionUpdateResult> {
  const current = await requireChangeable(await tx.subscriptions.findByIdForUpdate(context.scope, id), id);
  if (current.status !== 'trialing') {
    throw new BillingError(
      'subscription_cannot_activate',
      `Subscription ${id} is ${current.status}; only a trialing subscription can be activated.`,
    );
  }
  requirePaymentMethodFor(current, 'subscription_missing_payment_method_cannot_activate', 'activation');
  const at = now(context);
  const period = periodAt(at, current.billingCycle, 0);
  const items = current.items.map((item) => ({
    ...item,
    status: 'active' as const,
    previouslyBilledAt: at,
    nextBilledAt: period.endsAt,
    updatedAt: at,
  }));
  // The first period is the discount's next interval, as when the trial ends by the clock (ADR 1105).
  const { terms, discount } = await discountForRenewal(context, tx, { ...current, items }, period.startsAt);
  const active: Subscription = {
    ...current,
    status: 'active',
    firstBilledAt: at,
    currentBillingPeriod: period,
    nextBilledAt: period.endsAt,
    items,
    discount,
    internal: { ...current.internal, billingAnchor: at, periodIndex: 0 },
    updatedAt: at,
  };
  const saved = await saveChange(context, tx, {
    before: current,
    after: active,
    balanceChange: 'renew',
    eventTypes: ['subscription.activated', 'subscription.updated'],
    at,
  });
  const outcome = await issueCharge(
    context,
    tx,
    saved,
    { origin: 'subscription_recurring', items: recurringItems(saved), billingPeriod: period, discount: terms },
    payment,
  );
  if (outcome.declined) throw declinedActivation(id);
  return { subscription: saved, immediateTransaction: outcome.transaction, nextPeriodLines: [] };
}
