/**
 * @module
 * Changing a subscription: its items (an upgrade, a downgrade, a quantity change), its
 * collection mode, custom data, or removing its scheduled change. Item changes apply at once
 * in every billing mode; allowance prices refuse the prorated modes (the seed, rule 8), and
 * the old allowance expires while the new one is granted in full.
 */
import type { CustomData } from '../catalogue/entities.js';
import { usableAddressOf } from '../catalogue/references.js';
import { BillingError } from '../shared/billing-error.js';
import type { OperationContext } from '../shared/operation-context.js';
import type { CollectionMode, Subscription, SubscriptionItem } from './subscription.js';
import { hasAllowances } from './subscription.js';
import { now, saveChange } from './subscription-changes.js';
import { changeSubscriptionDiscount, type SubscriptionDiscountInput } from './subscription-discount.js';
import { type RequestedItem, requireCollectionMode, resolveItems } from './subscription-items.js';

export const PRORATION_BILLING_MODES = [
  'prorated_immediately',
  'prorated_next_billing_period',
  'full_immediately',
  'full_next_billing_period',
  'do_not_bill',
] as const;
export type ProrationBillingMode = (typeof PRORATION_BILLING_MODES)[number];

export interface UpdateSubscriptionInput {
  readonly items?: readonly RequestedItem[] | undefined;
  readonly prorationBillingMode?: ProrationBillingMode | undefined;
  readonly collectionMode?: CollectionMode | undefined;
  readonly customData?: CustomData | undefined;
  /** Only `null` is accepted: it removes the scheduled change. */
  readonly scheduledChange?: null | undefined;
  readonly addressId?: string | undefined;
  /** A discount from the next billing period (ADR 1105); null removes the subscription's discount. */
  readonly discount?: SubscriptionDiscountInput | null | undefined;
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

export async function updateSubscription(
  context: OperationContext,
  id: string,
  input: UpdateSubscriptionInput,
): Promise<Subscription> {
  return context.store.transaction(async (tx) => {
    const current = await requireChangeable(await tx.subscriptions.findByIdForUpdate(context.scope, id), id);
    const at = now(context);
    let items = current.items;
    if (input.items !== undefined) {
      const mode = input.prorationBillingMode;
      if (mode === undefined) {
        throw BillingError.invalidField('proration_billing_mode', 'is required when items change');
      }
      items = await resolveItems(tx, context.scope, input.items, at, current.items);
      if (mode.startsWith('prorated') && (hasAllowances(current.items) || hasAllowances(items))) {
        throw new BillingError(
          'subscription_prorated_billing_not_allowed_for_allowance',
          'Prorated billing modes are not allowed on a subscription whose price has allowances: use full_immediately for upgrades and full_next_billing_period for downgrades.',
        );
      }
      if (
        items[0]?.price.billingCycle?.interval !== current.billingCycle.interval ||
        items[0]?.price.billingCycle?.frequency !== current.billingCycle.frequency
      ) {
        throw new BillingError(
          'subscription_billing_cycle_mismatch',
          'New items must have the subscription’s billing cycle.',
        );
      }
    }
    // The address bills every renewal: it must be the subscription customer's, and active.
    if (input.addressId !== undefined) await usableAddressOf(tx, context.scope, current.customerId, input.addressId);
    const collectionMode = input.collectionMode ?? current.collectionMode;
    requireCollectionMode(items, collectionMode);
    const itemsChanged = !sameItems(current.items, items);
    const discount =
      input.discount === undefined
        ? current.discount
        : await changeSubscriptionDiscount(context, tx, current, input.discount);
    const next: Subscription = {
      ...current,
      items: items.map((item) => ({ ...item, nextBilledAt: current.nextBilledAt })),
      collectionMode,
      customData: input.customData === undefined ? current.customData : input.customData,
      addressId: input.addressId ?? current.addressId,
      scheduledChange: input.scheduledChange === null ? null : current.scheduledChange,
      discount,
      updatedAt: at,
    };
    return saveChange(context, tx, {
      before: current,
      after: next,
      balanceChange: itemsChanged ? 'change_items' : undefined,
      eventTypes: ['subscription.updated'],
      at,
    });
  });
}
