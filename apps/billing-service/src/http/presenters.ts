/**
 * @module
 * Wire forms that are more than the entity with its keys snake-cased.
 */
import { balanceTotals, type StoredEvent, type Subscription, type UsageBalance } from '@drawdown/billing-core';

/** A subscription without the fields only the service uses. */
export function presentSubscription(subscription: Subscription): unknown {
  const { internal: _internal, discount, ...wire } = subscription;
  // `intervals_used` is the service's count of discounted periods (ADR 1105), not a wire field.
  return {
    ...wire,
    discount: discount === null ? null : { id: discount.id, startsAt: discount.startsAt, endsAt: discount.endsAt },
  };
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
