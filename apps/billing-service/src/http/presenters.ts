/**
 * @module
 * Wire forms that are more than the entity with its keys snake-cased.
 */
import {
  balanceTotals,
  type EntityPresenter,
  type StoredEvent,
  type Subscription,
  type UsageBalance,
  type WireData,
} from '@drawdown/billing-core';
import { toSnakeCase } from './wire-case.js';

/** A subscription without the fields only the service uses. */
export function presentSubscription(subscription: Subscription): unknown {
  const { internal: _internal, ...wire } = subscription;
  return wire;
}

/**
 * A usage balance as the seed shows it: `used`, `remaining` and `overage`, each with a total
 * and a breakdown whose `subscription` part always equals the total (top-ups do not exist).
 */
export function presentUsageBalance(balance: UsageBalance): unknown {
  const totals = balanceTotals(balance.state);
  return {
    id: balance.id,
    customerId: balance.customerId,
    usageBalanceUnitId: balance.usageBalanceUnitId,
    balance: {
      used: { total: totals.used, breakdown: { subscription: totals.used } },
      remaining: { total: totals.remaining, breakdown: { subscription: totals.remaining } },
      overage: {
        total: totals.overage,
        startedAt: balance.state.overageStartedAt,
        breakdown: { subscription: totals.overage },
      },
    },
    createdAt: balance.createdAt,
    updatedAt: balance.updatedAt,
  };
}

/** The wire form of an event's entity, by kind. */
export function presentEntity(kind: StoredEvent['entityKind'], entity: unknown): unknown {
  switch (kind) {
    case 'subscription':
      return presentSubscription(entity as Subscription);
    case 'usage_balance':
      return presentUsageBalance(entity as UsageBalance);
    default:
      return entity;
  }
}

/** The event envelope of `GET /events` and webhook bodies: `event_id`, not `id`. */
export function presentEvent(event: StoredEvent): unknown {
  return {
    eventId: event.id,
    eventType: event.eventType,
    occurredAt: event.occurredAt,
    data: presentEntity(event.entityKind, event.entity),
  };
}

/** The wire form of entities, for the core's simulations (which copy real entities into payloads). */
export const wirePresenter: EntityPresenter = {
  present: (kind, entity) => toSnakeCase(presentEntity(kind, entity)) as WireData,
};
