/**
 * @module
 * Accepting usage events: exactly one per request, malformed fields refused outright, the time
 * window and unknown customers rejected per event, and everything else durably recorded
 * before the answer. A resend of an event already recorded (same customer, action, event_key
 * and occurred_at) changes nothing and is answered as accepted.
 */
import { BillingError } from '../shared/billing-error.js';
import { toTimestamp } from '../shared/clock.js';
import type { OperationContext } from '../shared/operation-context.js';
import { checkEventWindow, type UsageEventInput, type UsageEventResult, validateUsageEvent } from './usage-event.js';

export const EVENTS_PER_REQUEST = 1;

export async function recordUsageEvents(
  context: OperationContext,
  events: readonly UsageEventInput[],
  onStorageFailure: (error: unknown) => void,
): Promise<UsageEventResult[]> {
  if (events.length > EVENTS_PER_REQUEST) {
    throw new BillingError(
      'usage_events_limit_exceeded',
      `Send exactly ${EVENTS_PER_REQUEST} event per request; this one had ${events.length}.`,
    );
  }
  if (events.length === 0) throw BillingError.invalidField('events', 'must hold exactly one event');
  const valid = events.map((event, index) => validateUsageEvent(event, index));
  const now = context.clock.now();
  return Promise.all(
    valid.map(async (event): Promise<UsageEventResult> => {
      const outsideWindow = checkEventWindow(event.occurredAt, now);
      if (outsideWindow) return { eventKey: event.eventKey, status: 'rejected', error: outsideWindow };
      try {
        const outcome = await context.store.usageIngest.record(
          context.scope,
          { ...event, id: context.ids.newId('uev') },
          toTimestamp(now),
        );
        if (outcome === 'unknown_customer') {
          return {
            eventKey: event.eventKey,
            status: 'rejected',
            error: { code: 'customer_not_found', detail: `Customer ${event.customerId} not found.` },
          };
        }
        return { eventKey: event.eventKey, status: 'accepted' };
      } catch (error) {
        onStorageFailure(error);
        return {
          eventKey: event.eventKey,
          status: 'rejected',
          error: { code: 'internal_error', detail: 'The event could not be stored; retry it unchanged.' },
        };
      }
    }),
  );
}
