/**
 * @module
 * Changing a subscription: its items (an upgrade, a downgrade, a quantity change, an added or
 * removed item), its collection mode, custom data, address, or removing its scheduled change.
 *
 * Item changes apply at once and bill as `proration_billing_mode` says (`proration.ts`): now,
 * in a `subscription_update` transaction collected the subscription's way, or with the next
 * renewal, or not at all. Allowance prices refuse the prorated modes (the seed, rule 8); their
 * balances move as the seed's effects table says, in the same database transaction as the
 * change and its charge. When an immediate charge is declined, `prevent_change` undoes the
 * whole change (nothing is written) and `apply_change` keeps it with the subscription past due.
 * In live with a provider that authorises, `prevent_change` holds the money before this code
 * commits and captures it after (`payments/authorised-changes.ts`, ADR 1426).
 *
 * A preview runs exactly this code in a database transaction that is then rolled back.
 */

import { resolveBusiness } from '../catalogue/businesses.js';
import type { Address, CustomData } from '../catalogue/entities.js';
import { usableAddressOf, usableCustomer } from '../catalogue/references.js';
import { isSupportedCurrency } from '../money/currencies.js';
import { BillingError } from '../shared/billing-error.js';
import type { Context } from '../shared/context.js';
import { unitPriceFor } from '../transactions/build-transaction.js';
import { DEFAULT_BILLING_DETAILS } from '../transactions/due-dates.js';
import type { BillingDetails, Transaction } from '../transactions/transaction.js';
import { changeBillingCycle, changedBillingCycle } from './billing-cycle.js';
import { moveBillingDate, readNextBilledAt } from './billing-date.js';
import { periodAt } from './billing-period.js';
import { requireCardlessItems } from './cardless-trial.js';
import { withPaidTax } from './paid-tax.js';
import {
  billsWhen,
  type ChangeLine,
  changeLines,
  fromPending,
  type ProrationBillingMode,
  toPending,
} from './proration.js';
import type { SubscriptionSlice } from './repositories.js';
import type { CollectionMode, Subscription, SubscriptionItem } from './subscription.js';
import { hasAllowances } from './subscription.js';
import {
  changeItems,
  issueCharge,
  markPastDue,
  priceCharge,
  type RenewalPayment,
  recurringItems,
  sandboxPaymentOutcome,
} from './subscription-billing.js';
import { now, saveChange } from './subscription-changes.js';
import {
  changeSubscriptionDiscount,
  discountForCharge,
  discountForRenewal,
  type SubscriptionDiscountInput,
} from './subscription-discount.js';
import { type RequestedItem, requireCollectionMode, resolveItems } from './subscription-items.js';

export { PRORATION_BILLING_MODES, type ProrationBillingMode } from './proration.js';

export const ON_PAYMENT_FAILURE = ['prevent_change', 'apply_change'] as const;
export type OnPaymentFailure = (typeof ON_PAYMENT_FAILURE)[number];

export interface UpdateSubscriptionInput {
  readonly items?: readonly RequestedItem[] | undefined;
  readonly prorationBillingMode?: ProrationBillingMode | undefined;
  /** What a declined immediate charge does; `prevent_change` unless given. */
  readonly onPaymentFailure?: OnPaymentFailure | undefined;
  readonly collectionMode?: CollectionMode | undefined;
  readonly customData?: CustomData | undefined;
  /** Only `null` is accepted: it removes the scheduled change. */
  readonly scheduledChange?: null | undefined;
  readonly addressId?: string | undefined;
  /** Moves the subscription to another customer of the account; needs an address of that customer. */
  readonly customerId?: string | undefined;
  /** A business of the subscription's customer; null removes it. */
  readonly businessId?: string | null | undefined;
  /** Moves the next billing date and the day later periods renew on (`billing-date.ts`). */
  readonly nextBilledAt?: string | undefined;
  /** Invoice terms for manual collection; refused on a subscription collected automatically. */
  readonly billingDetails?: BillingDetails | null | undefined;
  /** A discount from the next billing period or from now (ADRs 1105, 1013); null removes the subscription's discount. */
  readonly discount?: SubscriptionDiscountInput | null | undefined;
  /** The currency the subscription bills in from now on (ADR 1009). */
  readonly currencyCode?: string | undefined;
}

/** What an update did: the subscription after it, the charge it issued now, the lines it left for the next renewal. */
export interface SubscriptionUpdateResult {
  readonly subscription: Subscription;
  readonly immediateTransaction: Transaction | null;
  readonly nextPeriodLines: readonly ChangeLine[];
}

function sameItems(left: readonly SubscriptionItem[], right: readonly SubscriptionItem[]): boolean {
  return (
    left.length === right.length &&
    left.every((item, index) => item.price.id === right[index]?.price.id && item.quantity === right[index]?.quantity)
  );
}

export async function requireChangeable(subscription: Subscription | undefined, id: string): Promise<Subscription> {
  if (!subscription) throw BillingError.notFound('Subscription', id);
  if (subscription.status === 'canceled') {
    throw new BillingError(
      'subscription_canceled',
      `Subscription ${id} is canceled; canceled subscriptions are final.`,
    );
  }
  return subscription;
}

function requireBillable(current: Subscription, mode: ProrationBillingMode): void {
  const when = billsWhen(mode);
  if (current.status === 'paused' && when !== 'never') {
    throw new BillingError(
      'subscription_update_when_paused',
      `Subscription ${current.id} is paused and has no billing period to bill a change against; use do_not_bill or resume it first.`,
      [{ field: 'proration_billing_mode', message: 'must be do_not_bill while the subscription is paused' }],
    );
  }
  if (current.status === 'past_due' && when === 'now') {
    throw new BillingError(
      'subscription_update_when_past_due',
      `Subscription ${current.id} is past due; settle its open transaction before a change that charges now.`,
      [{ field: 'proration_billing_mode', message: 'cannot charge immediately while the subscription is past due' }],
    );
  }
}

/**
 * Applies an update inside the caller's database transaction: the shared body of the change
 * and of its preview. `payment` settles an automatic immediate charge.
 */
export async function applySubscriptionUpdate(
  context: Context<SubscriptionSlice>,
  tx: SubscriptionSlice,
  id: string,
  input: UpdateSubscriptionInput,
  payment: RenewalPayment,
): Promise<SubscriptionUpdateResult> {
  const locked = await requireChangeable(await tx.subscriptions.findByIdForUpdate(context.scope, id), id);
  const at = now(context);
  let current = locked;
  let items = current.items;
  let lines: ChangeLine[] = [];
  const mode = input.prorationBillingMode;
  if (input.nextBilledAt !== undefined) {
    if (input.items !== undefined) {
      throw BillingError.invalidField(
        'next_billed_at',
        'cannot move in the same request as an item change: send each alone',
      );
    }
    if (mode === undefined) {
      throw BillingError.invalidField('proration_billing_mode', 'is required when next_billed_at changes');
    }
    if (mode.startsWith('prorated') && hasAllowances(current.items)) {
      throw new BillingError(
        'subscription_prorated_billing_not_allowed_for_allowance',
        'Prorated billing modes are not allowed on a subscription whose price has allowances: move its billing date with do_not_bill.',
      );
    }
    const moved = moveBillingDate(current, readNextBilledAt(input.nextBilledAt), mode, at);
    current = moved.subscription;
    items = current.items;
    lines = [...moved.lines];
  } else if (input.items !== undefined) {
    if (mode === undefined) {
      throw new BillingError(
        'subscription_items_update_missing_proration_billing_mode',
        'proration_billing_mode is required when updating subscription items.',
        [{ field: 'proration_billing_mode', message: 'is required when items change' }],
      );
    }
    items = await resolveItems(tx, context.scope, input.items, at, current.items);
    if (mode.startsWith('prorated') && (hasAllowances(current.items) || hasAllowances(items))) {
      throw new BillingError(
        'subscription_prorated_billing_not_allowed_for_allowance',
        'Prorated billing modes are not allowed on a subscription whose price has allowances: use full_immediately for upgrades and full_next_billing_period for downgrades.',
      );
    }
    requireBillable(current, mode);
    requireModeWithScheduledChange(current, mode);
    requireCardlessItems(current, items);
    const period = current.currentBillingPeriod;
    // Nothing was charged for a trial, so a change during one bills nothing: the items it
    // leaves are charged when the trial ends (ADR 1004).
    const trial = current.status === 'trialing' ? (current.items[0]?.trialDates ?? null) : null;
    if (trial) items = items.map((item) => ({ ...item, status: 'trialing', trialDates: trial }));
    const cycle = changedBillingCycle(current, items);
    if (cycle) {
      const changed = changeBillingCycle(current, items, cycle, mode, at);
      // An immediate change closes the old period now: lines next-period modes left for its
      // renewal are billed with it, as a renewal would have billed them (ADR 1008).
      const closes = changed.lines.length > 0;
      lines = [...(closes ? (current.internal.pendingLines ?? []).map(fromPending) : []), ...changed.lines];
      current = closes
        ? { ...changed.subscription, internal: { ...changed.subscription.internal, pendingLines: [] } }
        : changed.subscription;
      if (closes) items = items.map((item) => ({ ...item, previouslyBilledAt: at }));
    } else {
      lines = period && !trial ? changeLines(current.items, items, mode, period, at) : [];
    }
  } else if (mode !== undefined) {
    throw BillingError.invalidField('proration_billing_mode', 'applies only to a change of items or of next_billed_at');
  }
  // Credits give back the tax paid on what they credit (ADR 1447).
  lines = await withPaidTax(context, tx, locked, lines);
  const collectionMode = input.collectionMode ?? current.collectionMode;
  requireCollectionMode(items, collectionMode);
  const customerId = await changedCustomer(context, tx, current, items, input);
  // The address bills every renewal: it must be the subscription customer's, and usable.
  const newAddress =
    input.addressId === undefined ? undefined : await usableAddressOf(tx, context.scope, customerId, input.addressId);
  const currencyCode = await billedCurrency(context, tx, current, items, newAddress, input, lines);
  const businessId =
    input.businessId === undefined
      ? current.businessId
      : input.businessId === null
        ? null
        : (await resolveBusiness(context, tx, input.businessId, customerId)).id;
  if (collectionMode === 'automatic' && input.billingDetails) {
    throw BillingError.invalidField('billing_details', 'applies only to a subscription collected manually');
  }
  const billingDetails =
    collectionMode === 'automatic' ? null : (input.billingDetails ?? current.billingDetails ?? DEFAULT_BILLING_DETAILS);
  const when = mode === undefined ? 'never' : billsWhen(mode);
  const pending = when === 'next_renewal' ? lines.map(toPending) : [];
  const discount =
    input.discount === undefined
      ? current.discount
      : await changeSubscriptionDiscount(context, tx, { ...current, items, currencyCode }, input.discount, at);
  const next: Subscription = {
    ...current,
    discount,
    items: items.map((item) => ({ ...item, nextBilledAt: current.nextBilledAt })),
    collectionMode,
    billingDetails,
    customData: input.customData === undefined ? current.customData : input.customData,
    customerId,
    businessId,
    addressId: input.addressId ?? current.addressId,
    currencyCode,
    scheduledChange: input.scheduledChange === null ? null : current.scheduledChange,
    internal: {
      ...current.internal,
      pendingLines: [...(current.internal.pendingLines ?? []), ...pending],
      // What the plan-changed email tells (ADR 1503); a save that changes no item clears it.
      planChange: sameItems(locked.items, items)
        ? undefined
        : { at, billing: lines.length === 0 || when === 'never' ? 'none' : when },
      // A scheduled cancellation taken back takes its reason with it (ADR 0806).
      cancellationReason:
        input.scheduledChange === null && current.scheduledChange?.action === 'cancel'
          ? undefined
          : current.internal.cancellationReason,
    },
    updatedAt: at,
  };
  const saved = await saveChange(context, tx, {
    before: locked,
    after: next,
    balanceChange: sameItems(current.items, items) ? undefined : 'change_items',
    eventTypes: ['subscription.updated'],
    at,
  });
  if (when !== 'now' || lines.length === 0) {
    return { subscription: saved, immediateTransaction: null, nextPeriodLines: when === 'next_renewal' ? lines : [] };
  }
  return chargeChangeNow(context, tx, saved, lines, {
    origin: 'subscription_update',
    payment,
    onPaymentFailure: input.onPaymentFailure,
    refusal: () => declinedUpdate(id),
    at,
  });
}

/**
 * Bills a saved change's lines now, the subscription's started discount taking its share (ADR 1013). A declined
 * charge throws `refusal` under `prevent_change` (the default): thrown inside the database transaction, the change,
 * its charge and its balance effects roll back together. Under `apply_change` the change stands and the
 * subscription is past due. Updates and one-time charges bill the same way.
 */
export async function chargeChangeNow(
  context: Context<SubscriptionSlice>,
  tx: SubscriptionSlice,
  saved: Subscription,
  lines: readonly ChangeLine[],
  how: {
    readonly origin: 'subscription_update' | 'subscription_charge';
    readonly payment: RenewalPayment;
    readonly onPaymentFailure: OnPaymentFailure | undefined;
    readonly refusal: () => BillingError;
    readonly at: string;
  },
): Promise<SubscriptionUpdateResult> {
  const outcome = await issueCharge(
    context,
    tx,
    saved,
    {
      origin: how.origin,
      items: changeItems(lines),
      billingPeriod: saved.currentBillingPeriod,
      discount: await discountForCharge(context, tx, saved, how.at, lines),
    },
    how.payment,
  );
  if (!outcome.declined) return { subscription: saved, immediateTransaction: outcome.transaction, nextPeriodLines: [] };
  if ((how.onPaymentFailure ?? 'prevent_change') === 'prevent_change') throw how.refusal();
  const pastDue = await markPastDue(context, tx, saved, how.at);
  return { subscription: pastDue, immediateTransaction: outcome.transaction, nextPeriodLines: [] };
}

/** The refusal of a change whose immediate charge was declined, with `prevent_change`. */
export function declinedUpdate(id: string): BillingError {
  return new BillingError(
    'subscription_payment_declined',
    `The immediate charge for this change to subscription ${id} was declined; with on_payment_failure prevent_change the subscription is unchanged.`,
  );
}

/** Next-period modes cannot bill a change on a subscription whose period ends in a pause or cancellation. */
function requireModeWithScheduledChange(current: Subscription, mode: ProrationBillingMode): void {
  if (current.scheduledChange !== null && billsWhen(mode) === 'next_renewal') {
    throw new BillingError(
      'subscription_invalid_billing_mode_for_scheduled_change',
      `Subscription ${current.id} has a scheduled ${current.scheduledChange.action}, so it can only be updated with do_not_bill, full_immediately or prorated_immediately: no renewal may follow to bill the change.`,
      [{ field: 'proration_billing_mode', message: 'must be do_not_bill, full_immediately or prorated_immediately' }],
    );
  }
}

/**
 * The currency the subscription bills in after the update (ADR 1009). Each item bills at the
 * unit price for the subscription's address country (an override, or the price's own), and
 * Drawdown converts no currency: every item must be priced in that currency there. A change of
 * currency follows the public API's rules on credits: none pending, none created with it.
 */
async function billedCurrency(
  context: Context<SubscriptionSlice>,
  tx: SubscriptionSlice,
  current: Subscription,
  items: readonly SubscriptionItem[],
  newAddress: Address | undefined,
  input: UpdateSubscriptionInput,
  lines: readonly ChangeLine[],
): Promise<string> {
  const currencyCode = input.currencyCode ?? current.currencyCode;
  if (!isSupportedCurrency(currencyCode)) {
    throw BillingError.invalidField('currency_code', 'is not a supported currency');
  }
  if (currencyCode !== current.currencyCode) {
    if ((current.internal.pendingLines ?? []).some((line) => line.quantity < 0)) {
      throw new BillingError(
        'subscription_currency_update_not_allowed',
        `Subscription ${current.id} has credits pending for its next renewal in ${current.currencyCode}; change its currency after that renewal.`,
        [{ field: 'currency_code', message: 'cannot change while credits are pending' }],
      );
    }
    if (lines.some((line) => line.quantity < 0)) {
      throw new BillingError(
        'subscription_currency_update_and_actions_creating_credits_not_allowed',
        'Updating the currency and making a change that credits the customer are not allowed in one request: send them separately.',
        [{ field: 'currency_code', message: 'cannot change in a request that creates credits' }],
      );
    }
  }
  const touched = input.items !== undefined || input.addressId !== undefined || currencyCode !== current.currencyCode;
  if (!touched) return currencyCode;
  const address =
    newAddress ?? (current.addressId ? await tx.addresses.findById(context.scope, current.addressId) : undefined);
  const countryCode = address?.countryCode ?? null;
  for (const [index, item] of items.entries()) {
    const unitPrice = unitPriceFor(item.price, countryCode);
    if (unitPrice.currencyCode === currencyCode) continue;
    const field =
      input.items !== undefined
        ? `items[${index}].price_id`
        : input.currencyCode !== undefined
          ? 'currency_code'
          : 'address_id';
    throw new BillingError(
      'subscription_currency_mismatch',
      `Price ${item.price.id} is priced in ${unitPrice.currencyCode}${countryCode ? ` for ${countryCode}` : ''}; the subscription would bill in ${currencyCode}, and Drawdown converts no currency.`,
      [{ field, message: `must be priced in ${currencyCode} for the subscription's address` }],
    );
  }
  return currencyCode;
}

/**
 * The customer the subscription bills after the update. Another customer of the account takes
 * an address of theirs in the same request (the old one is not theirs), and a business the old
 * customer held must be replaced or removed: nothing of the old customer's carries over silently.
 * Allowance balances belong to a customer, so a subscription with allowances keeps its customer.
 */
async function changedCustomer(
  context: Context<SubscriptionSlice>,
  tx: SubscriptionSlice,
  current: Subscription,
  items: readonly SubscriptionItem[],
  input: UpdateSubscriptionInput,
): Promise<string> {
  if (input.customerId === undefined || input.customerId === current.customerId) return current.customerId;
  const customer = await usableCustomer(tx, context.scope, input.customerId);
  if (hasAllowances(current.items) || hasAllowances(items)) {
    throw new BillingError(
      'subscription_customer_change_not_allowed_for_allowance',
      `Subscription ${current.id} grants allowances to its customer's usage balances; it cannot move to another customer.`,
      [{ field: 'customer_id', message: 'cannot change on a subscription whose prices have allowances' }],
    );
  }
  if (input.addressId === undefined) {
    throw BillingError.invalidField(
      'address_id',
      'is required when customer_id changes: an address of the new customer',
    );
  }
  if (current.businessId !== null && input.businessId === undefined) {
    throw BillingError.invalidField(
      'business_id',
      'is required when customer_id changes (a business of the new customer, or null): the current one is the previous customer’s',
    );
  }
  return customer.id;
}

export async function updateSubscription(
  context: Context<SubscriptionSlice>,
  id: string,
  input: UpdateSubscriptionInput,
): Promise<Subscription> {
  const payment = await sandboxPaymentOutcome(context);
  const result = await context.store.transaction((tx) => applySubscriptionUpdate(context, tx, id, input, payment));
  return result.subscription;
}

/** A preview: the update's result, with the transactions it implies priced but not stored. */
export interface SubscriptionUpdatePreview extends SubscriptionUpdateResult {
  /** The change's lines priced, whether billed now or with the next renewal. */
  readonly changeTransaction: Transaction | null;
  /** The next renewal: the items for the next period plus the lines left for it. */
  readonly nextTransaction: Transaction | null;
  /** The items alone, as every later renewal bills them. */
  readonly recurringTransaction: Transaction | null;
}

export const SUBSCRIPTION_INCLUDES = ['next_transaction', 'recurring_transaction_details'] as const;
export type SubscriptionInclude = (typeof SUBSCRIPTION_INCLUDES)[number];

/**
 * `GET /subscriptions/{id}?include=…`: the subscription with its next renewal priced (items
 * plus the lines left for it) and the recurring items alone, as a preview prices them; reads only.
 */
export async function getSubscriptionWithIncludes(
  context: Context<SubscriptionSlice>,
  id: string,
  includes: readonly SubscriptionInclude[],
): Promise<{
  subscription: Subscription;
  nextTransaction?: Transaction | null;
  recurringTransaction?: Transaction | null;
}> {
  const subscription = await context.store.subscriptions.findById(context.scope, id);
  if (!subscription) throw BillingError.notFound('Subscription', id);
  if (includes.length === 0) return { subscription };
  const projected = await projectPreview(context, context.store, {
    subscription,
    immediateTransaction: null,
    nextPeriodLines: [],
  });
  return {
    subscription,
    ...(includes.includes('next_transaction') ? { nextTransaction: projected.nextTransaction } : {}),
    ...(includes.includes('recurring_transaction_details')
      ? { recurringTransaction: projected.recurringTransaction }
      : {}),
  };
}

/** Carries a preview's result out of the database transaction it rolls back. */
class PreviewRollback extends Error {
  constructor(readonly result: SubscriptionUpdatePreview) {
    super('preview rollback');
  }
}

export async function projectPreview(
  context: Context<SubscriptionSlice>,
  tx: SubscriptionSlice,
  result: SubscriptionUpdateResult,
): Promise<SubscriptionUpdatePreview> {
  const { subscription } = result;
  const nextPeriod =
    subscription.status === 'paused' || subscription.currentBillingPeriod === null
      ? null
      : periodAt(subscription.internal.billingAnchor, subscription.billingCycle, subscription.internal.periodIndex + 1);
  // A period that ends in a scheduled pause or cancellation renews into nothing: the public API
  // documents `next_transaction` as null then; the items' recurring price is still shown.
  const ending = subscription.scheduledChange?.action === 'pause' || subscription.scheduledChange?.action === 'cancel';
  const pending = (subscription.internal.pendingLines ?? []).map(fromPending);
  const changeLinesPriced = result.immediateTransaction
    ? result.immediateTransaction
    : result.nextPeriodLines.length > 0
      ? await priceCharge(context, tx, subscription, {
          origin: 'subscription_update',
          items: changeItems(result.nextPeriodLines),
          billingPeriod: subscription.currentBillingPeriod,
        })
      : null;
  // A paused subscription's recurring charge is the period a resume now would start: what
  // resuming bills, so the customer can be told before they confirm (ADR 1449).
  const recurringPeriod =
    subscription.status === 'paused' ? periodAt(now(context), subscription.billingCycle, 0) : nextPeriod;
  // The next renewal applies the subscription's discount if it has an interval left, as the renewal will.
  const discount = recurringPeriod ? (await discountForRenewal(context, tx, subscription)).terms : null;
  return {
    ...result,
    changeTransaction: changeLinesPriced,
    nextTransaction:
      nextPeriod && !ending
        ? await priceCharge(context, tx, subscription, {
            origin: 'subscription_recurring',
            items: [...recurringItems(subscription), ...changeItems(pending)],
            billingPeriod: nextPeriod,
            discount,
          })
        : null,
    recurringTransaction: recurringPeriod
      ? await priceCharge(context, tx, subscription, {
          origin: 'subscription_recurring',
          items: recurringItems(subscription),
          billingPeriod: recurringPeriod,
          discount,
        })
      : null,
  };
}

/**
 * `PATCH /subscriptions/{id}/preview`: what the update would do, computed by the same code in
 * a database transaction that is rolled back, so nothing is written. The immediate charge is
 * shown as issued, before any payment.
 */
export function previewSubscriptionUpdate(
  context: Context<SubscriptionSlice>,
  id: string,
  input: UpdateSubscriptionInput,
): Promise<SubscriptionUpdatePreview> {
  return previewInRollback(context, (tx) => applySubscriptionUpdate(context, tx, id, input, 'await_report'));
}

/**
 * Runs `apply` (a subscription operation, its charge unpaid) in a database transaction, prices
 * what it implies, and rolls everything back: the shared body of every subscription preview.
 */
export async function previewInRollback(
  context: Context<SubscriptionSlice>,
  apply: (tx: SubscriptionSlice) => Promise<SubscriptionUpdateResult>,
): Promise<SubscriptionUpdatePreview> {
  try {
    await context.store.transaction(async (tx) => {
      throw new PreviewRollback(await projectPreview(context, tx, await apply(tx)));
    });
  } catch (error) {
    if (error instanceof PreviewRollback) return error.result;
    throw error;
  }
  throw new Error('A preview transaction committed');
}
