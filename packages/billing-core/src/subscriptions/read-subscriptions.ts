import { BillingError } from '../shared/billing-error.js';
import type { Context } from '../shared/context.js';
import type { ListQuery, Page } from '../shared/pagination.js';
import type { SubscriptionColumn, SubscriptionSlice } from './repositories.js';
import type { Subscription } from './subscription.js';

export async function getSubscription(context: Context<SubscriptionSlice>, id: string): Promise<Subscription> {
  const subscription = await context.store.subscriptions.findById(context.scope, id);
  if (!subscription) throw BillingError.notFound('Subscription', id);
  return subscription;
}

export function listSubscriptions(
  context: Context<SubscriptionSlice>,
  query: ListQuery<SubscriptionColumn>,
): Promise<Page<Subscription>> {
  return context.store.subscriptions.list(context.scope, query);
}
