/**
 * @module
 * A subscription starts when a transaction for recurring prices completes: active at once, its
 * first billing period beginning now, and every allowance of its prices granted in full.
 */

import type { CustomData } from '../catalogue/entities.js';
import type { Discount } from '../discounts/discount.js';
import { BillingError } from '../shared/billing-error.js';
import type { Context } from '../shared/context.js';
import { DEFAULT_BILLING_DETAILS } from '../transactions/due-dates.js';
import type { BillingDetails } from '../transactions/transaction.js';
import { addCycles, periodAt } from './billing-period.js';
import type { SubscriptionSlice } from './repositories.js';
import type { CollectionMode, Subscription } from './subscription.js';
import { now, saveChange } from './subscription-changes.js';
import { discountFromCheckout } from './subscription-discount.js';
import { type RequestedItem, requireCollectionMode, resolveItems } from './subscription-items.js';

export interface StartSubscriptionInput {
  readonly customerId: string;
  readonly addressId: string | null;
  readonly currencyCode: string;
  readonly collectionMode: CollectionMode;
  readonly items: readonly RequestedItem[];
  /** The completed transaction that started it, if any. */
  readonly transactionId: string | null;
  readonly customData?: CustomData | undefined;
  /** The checkout's invoice terms, kept for a manually collected subscription. */
  readonly billingDetails?: BillingDetails | null | undefined;
  readonly businessId?: string | null | undefined;
  /** The checkout's discount: a recurring one carries on (ADR 1105). */
  readonly discount?: Discount | undefined;
  /** Started without a payment method by a cardless trial transaction (ADR 1010). */
  readonly cardlessTrial?: boolean | undefined;
}

/** Starts a subscription inside the caller's transaction (the one completing the payment). */
export async function startSubscription(
  context: Context<SubscriptionSlice>,
  tx: SubscriptionSlice,
  input: StartSubscriptionInput,
): Promise<Subscription> {
  const customer = await tx.customers.findById(context.scope, input.customerId);
  if (!customer) throw new BillingError('customer_not_found', `Customer ${input.customerId} not found.`);
  const at = now(context);
  const items = await resolveItems(tx, context.scope, input.items, at);
  requireCollectionMode(items, input.collectionMode);
  const billingCycle = items[0]?.price.billingCycle;
  if (!billingCycle) throw BillingError.invalidField('items', 'must hold at least one recurring price');
  // A trial price starts the subscription trialing: the trial is its first "period", and the
  // first billing period starts (and is charged) when the trial ends (ADR 1004).
  const trialPeriod = items[0]?.price.trialPeriod ?? null;
  const trial = trialPeriod ? { startsAt: at, endsAt: addCycles(at, trialPeriod, 1) } : null;
  const period = trial ?? periodAt(at, billingCycle, 0);
  const subscription: Subscription = {
    id: context.ids.newId('sub'),
    status: trial ? 'trialing' : 'active',
    customerId: input.customerId,
    addressId: input.addressId,
    businessId: input.businessId ?? null,
    currencyCode: input.currencyCode,
    collectionMode: input.collectionMode,
    createdAt: at,
    updatedAt: at,
    startedAt: at,
    firstBilledAt: trial ? null : at,
    nextBilledAt: period.endsAt,
    pausedAt: null,
    canceledAt: null,
    currentBillingPeriod: period,
    billingCycle,
    scheduledChange: null,
    items: items.map((item) => ({
      ...item,
      status: trial ? 'trialing' : 'active',
      trialDates: trial,
      previouslyBilledAt: trial ? null : at,
      nextBilledAt: period.endsAt,
    })),
    customData: input.customData ?? null,
    discount: discountFromCheckout(input.discount, at, billingCycle),
    billingDetails: input.collectionMode === 'manual' ? (input.billingDetails ?? DEFAULT_BILLING_DETAILS) : null,
    managementUrls: { updatePaymentMethod: null, cancel: '' },
    internal: {
      // After a trial, period 0 starts at the trial's end: the renewal that ends the trial moves to it.
      billingAnchor: trial ? trial.endsAt : at,
      periodIndex: trial ? -1 : 0,
      onResume: 'start_new_billing_period',
      pausedPeriod: null,
      version: 0,
      transactionId: input.transactionId,
      ...(trial && input.cardlessTrial ? { cardlessTrial: true } : {}),
    },
  };
  return saveChange(context, tx, {
    before: null,
    after: subscription,
    balanceChange: 'start',
    eventTypes: trial ? ['subscription.created', 'subscription.trialing'] : ['subscription.created'],
    at,
  });
}
