/**
 * @module
 * Saving a subscription change: the new document, its balance effects and its events, all in
 * the caller's transaction.
 */

import type { EventTypeName } from '../events/event-types.js';
import type { EntityKind } from '../events/stored-event.js';
import { subscriptionMetricDeltas } from '../metrics/metric-rollups.js';
import { toTimestamp } from '../shared/clock.js';
import type { Context } from '../shared/context.js';
import { applyBalanceEffects } from '../usage/apply-balance-effects.js';
import { balanceEffects, type SubscriptionChange } from '../usage/balance-effects.js';
import type { SubscriptionSlice } from './repositories.js';
import { assertStatusTransition, type Subscription } from './subscription.js';

export interface ChangeRecord {
  readonly before: Subscription | null;
  readonly after: Subscription;
  /** What the change does to balances, when anything. */
  readonly balanceChange?: SubscriptionChange | undefined;
  readonly eventTypes: readonly EventTypeName[];
  readonly at: string;
}

const SUBSCRIPTION: EntityKind = 'subscription';

export async function saveChange(
  context: Context<SubscriptionSlice>,
  tx: SubscriptionSlice,
  record: ChangeRecord,
): Promise<Subscription> {
  const after: Subscription = {
    ...record.after,
    internal: { ...record.after.internal, version: (record.before?.internal.version ?? 0) + 1 },
  };
  if (record.before) assertStatusTransition(record.before.status, after.status);
  if (record.before) await tx.subscriptions.update(context.scope, after);
  else await tx.subscriptions.insert(context.scope, after);
  await tx.metricRollups.add(context.scope, subscriptionMetricDeltas(record.before, after, record.at));
  if (record.balanceChange) {
    const effects = balanceEffects({
      change: record.balanceChange,
      subscriptionId: after.id,
      at: record.at,
      before: record.before?.items ?? [],
      after: after.items,
      expiresAt: after.currentBillingPeriod?.endsAt ?? null,
    });
    await applyBalanceEffects(tx, context, after.customerId, effects, record.at);
  }
  for (const eventType of record.eventTypes) {
    await tx.events.append(context.scope, {
      id: context.ids.newId('evt'),
      eventType,
      occurredAt: record.at,
      entityKind: SUBSCRIPTION,
      entity: after,
    });
  }
  return after;
}

/** The environment's now, as wire text. */
export function now(context: Context<SubscriptionSlice>): string {
  return toTimestamp(context.clock.now());
}
