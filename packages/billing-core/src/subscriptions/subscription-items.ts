/**
 * @module
 * Turning requested items (price id and quantity) into subscription items, with the rules
 * every subscription's items obey: recurring prices only, one billing cycle, quantities within
 * each price's limits, and automatic collection whenever a price carries allowances.
 */
import type { Duration } from '../catalogue/entities.js';
import { usablePrice } from '../catalogue/references.js';
import { BillingError } from '../shared/billing-error.js';
import type { Scope } from '../shared/scope.js';
import type { SubscriptionSlice } from './repositories.js';
import type { CollectionMode, SubscriptionItem } from './subscription.js';
import { hasAllowances } from './subscription.js';

export interface RequestedItem {
  readonly priceId: string;
  readonly quantity: number;
}

export async function resolveItems(
  tx: SubscriptionSlice,
  scope: Scope,
  requested: readonly RequestedItem[],
  at: string,
  existing: readonly SubscriptionItem[] = [],
): Promise<SubscriptionItem[]> {
  if (requested.length === 0) throw BillingError.invalidField('items', 'must hold at least one item');
  const seen = new Set<string>();
  const items: SubscriptionItem[] = [];
  for (const [index, item] of requested.entries()) {
    if (seen.has(item.priceId)) throw BillingError.invalidField(`items[${index}].price_id`, 'appears more than once');
    seen.add(item.priceId);
    const price = await usablePrice(tx, scope, item.priceId);
    if (price.billingCycle === null) {
      throw new BillingError(
        'subscription_price_not_recurring',
        `Price ${item.priceId} is one-off; subscriptions hold recurring prices only.`,
      );
    }
    if (item.quantity < price.quantity.minimum || item.quantity > price.quantity.maximum) {
      throw new BillingError(
        'subscription_quantity_out_of_range',
        `Quantity ${item.quantity} of price ${item.priceId} is outside ${price.quantity.minimum} to ${price.quantity.maximum}.`,
        [{ field: `items[${index}].quantity`, message: 'is outside the price’s quantity limits' }],
      );
    }
    const product = await tx.products.findById(scope, price.productId);
    if (!product) throw new BillingError('product_not_found', `Product ${price.productId} not found.`);
    const previous = existing.find((candidate) => candidate.price.id === price.id);
    items.push({
      status: 'active',
      quantity: item.quantity,
      recurring: true,
      createdAt: previous?.createdAt ?? at,
      updatedAt: at,
      previouslyBilledAt: previous?.previouslyBilledAt ?? null,
      nextBilledAt: previous?.nextBilledAt ?? null,
      trialDates: null,
      price,
      product,
    });
  }
  requireOneBillingCycle(items.map((item) => item.price.billingCycle));
  return items;
}

function requireOneBillingCycle(cycles: readonly (Duration | null)[]): void {
  const [first, ...rest] = cycles;
  if (rest.some((cycle) => cycle?.interval !== first?.interval || cycle?.frequency !== first?.frequency)) {
    throw new BillingError(
      'subscription_billing_cycle_mismatch',
      'Every price on a subscription must have the same billing cycle.',
    );
  }
}

/** The seed: subscriptions whose prices have allowances must be automatically collected. */
export function requireCollectionMode(items: readonly SubscriptionItem[], collectionMode: CollectionMode): void {
  if (collectionMode === 'manual' && hasAllowances(items)) {
    throw new BillingError(
      'subscription_manual_collection_not_allowed_for_allowance',
      'A subscription whose prices have allowances must be collected automatically; manual collection is not available.',
    );
  }
}
