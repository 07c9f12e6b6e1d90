/**
 * @module
 * Wire forms that are more than the entity with its keys snake-cased.
 */
import type { StoredEvent } from '@drawdown/billing-core';

/** The event envelope of `GET /events` and webhook bodies: `event_id`, not `id`. */
export function presentEvent(event: StoredEvent): unknown {
  return {
    eventId: event.id,
    eventType: event.eventType,
    occurredAt: event.occurredAt,
    data: event.entity,
  };
}
