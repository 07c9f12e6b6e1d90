/**
 * @module
 * One-time charges on a subscription (`POST /subscriptions/{id}/charge` and its preview): one-off
 * prices billed now, in a `subscription_charge` transaction collected the subscription's way,
 * or with the next renewal. A declined immediate charge follows `on_payment_failure` as an item
 * change does: `prevent_change` (the default) writes nothing, `apply_change` leaves the charge
 * and the subscription past due.
 */

import { BillingError } from '../shared/billing-error.js';
import type { Context } from '../shared/context.js';
import { requirePaymentMethodFor } from './cardless-trial.js';
import { type ChangeLine, toPending } from './proration.js';
import type { SubscriptionSlice } from './repositories.js';
import type { Subscription } from './subscription.js';
import { type RenewalPayment, sandboxPaymentOutcome } from './subscription-billing.js';
import { now, saveChange } from './subscription-changes.js';
import {
  chargeChangeNow,
  type OnPaymentFailure,
  previewInRollback,
  requireChangeable,
  type SubscriptionUpdatePreview,
  type SubscriptionUpdateResult,
} from './update-subscription.js';

export interface OneTimeChargeInput {
  readonly effectiveFrom: 'immediately' | 'next_billing_period';
  readonly items: readonly { readonly priceId: string; readonly quantity: number }[];
  readonly onPaymentFailure?: OnPaymentFailure | undefined;
}

async function chargeLines(
  tx: SubscriptionSlice,
  context: Context<SubscriptionSlice>,
  subscription: Subscription,
  items: OneTimeChargeInput['items'],
): Promise<ChangeLine[]> {
  if (items.length === 0) throw BillingError.invalidField('items', 'must hold at least one item');
  const repeated = items.findIndex((item, index) => items.findIndex((other) => other.priceId === item.priceId) < index);
  if (repeated >= 0) {
    throw new BillingError(
      'subscription_charge_duplicate_price_ids',
      `Price ${items[repeated]?.priceId} appears more than once; a one-time charge names each price once.`,
      [{ field: `items[${repeated}].price_id`, message: 'must not repeat the price of an earlier item' }],
    );
  }
  const lines: ChangeLine[] = [];
  for (const [index, item] of items.entries()) {
    const price = await tx.prices.findById(context.scope, item.priceId);
    if (!price) throw new BillingError('price_not_found', `Price ${item.priceId} not found.`);
    if (price.status === 'archived') throw new BillingError('entity_archived', `Price ${item.priceId} is archived.`);
    if (price.billingCycle !== null) {
      throw new BillingError(
        'subscription_charge_price_not_one_off',
        `Price ${item.priceId} is recurring; a one-time charge takes one-off prices (change the items to add a recurring one).`,
        [{ field: `items[${index}].price_id`, message: 'must be a one-off price' }],
      );
    }
    if (price.unitPrice.currencyCode !== subscription.currencyCode) {
      throw new BillingError(
        'subscription_currency_mismatch',
        `Price ${item.priceId} is in ${price.unitPrice.currencyCode}; the subscription bills in ${subscription.currencyCode}.`,
      );
    }
    if (item.quantity < price.quantity.minimum || item.quantity > price.quantity.maximum) {
      throw new BillingError(
        'subscription_quantity_out_of_range',
        `Quantity ${item.quantity} of price ${item.priceId} is outside ${price.quantity.minimum} to ${price.quantity.maximum}.`,
      );
    }
    const product = await tx.products.findById(context.scope, price.productId);
    if (!product) throw new BillingError('product_not_found', `Product ${price.productId} not found.`);
    lines.push({ price, product, quantity: item.quantity, share: null });
  }
  return lines;
}

/** Applies a one-time charge inside the caller's database transaction (the charge and its preview). */
export async function applyOneTimeCharge(
  context: Context<SubscriptionSlice>,
  tx: SubscriptionSlice,
  id: string,
  input: OneTimeChargeInput,
  payment: RenewalPayment,
): Promise<SubscriptionUpdateResult> {
  const current = await requireChangeable(await tx.subscriptions.findByIdForUpdate(context.scope, id), id);
  requirePaymentMethodFor(current, 'subscription_one_off_charges_not_allowed_on_cardless_trial', 'a one-time charge');
  if (current.status === 'paused') {
    throw new BillingError(
      'subscription_update_when_paused',
      `Subscription ${id} is paused; resume it before charging it.`,
    );
  }
  const immediately = input.effectiveFrom === 'immediately';
  if (current.status === 'past_due' && immediately) {
    throw new BillingError(
      'subscription_update_when_past_due',
      `Subscription ${id} is past due; settle its open transaction before a charge that bills now.`,
    );
  }
  const lines = await chargeLines(tx, context, current, input.items);
  const at = now(context);
  const saved = await saveChange(context, tx, {
    before: current,
    after: {
      ...current,
      internal: {
        ...current.internal,
        pendingLines: [...(current.internal.pendingLines ?? []), ...(immediately ? [] : lines.map(toPending))],
      },
      updatedAt: at,
    },
    eventTypes: ['subscription.updated'],
    at,
  });
  if (!immediately) return { subscription: saved, immediateTransaction: null, nextPeriodLines: lines };
  // The subscription's started discount takes its share, as renewals take it for charges left to them (ADR 1013).
  return chargeChangeNow(context, tx, saved, lines, {
    origin: 'subscription_charge',
    payment,
    onPaymentFailure: input.onPaymentFailure,
    refusal: () => declinedOneTimeCharge(id),
    at,
  });
}

/** The refusal of a one-time charge that was declined, with `prevent_change`. */
export function declinedOneTimeCharge(id: string): BillingError {
  return new BillingError(
    'subscription_payment_declined',
    `The one-time charge on subscription ${id} was declined; with on_payment_failure prevent_change nothing was charged.`,
  );
}

/** `POST /subscriptions/{id}/charge`. */
export async function createOneTimeCharge(
  context: Context<SubscriptionSlice>,
  id: string,
  input: OneTimeChargeInput,
): Promise<Subscription> {
  const payment = await sandboxPaymentOutcome(context);
  const result = await context.store.transaction((tx) => applyOneTimeCharge(context, tx, id, input, payment));
  return result.subscription;
}

/** `POST /subscriptions/{id}/charge/preview`: the same code, rolled back. */
export function previewOneTimeCharge(
  context: Context<SubscriptionSlice>,
  id: string,
  input: OneTimeChargeInput,
): Promise<SubscriptionUpdatePreview> {
  return previewInRollback(context, (tx) => applyOneTimeCharge(context, tx, id, input, 'await_report'));
}
