/**
 * @module
 * Accepting usage events: exactly one per request, malformed fields refused outright, the time
 * window and unknown customers rejected per event, and everything else durably recorded
 * before the answer. Text no engine can store (NUL, an unpaired surrogate) in any of an
 * event's fields is that event's own rejection, `invalid_characters` (ADR 0901). A resend of an event already recorded (same customer, action, event_key
 * and occurred_at) changes nothing and is answered as accepted.
 */
import { BillingError } from '../shared/billing-error.js';
import { toTimestamp } from '../shared/clock.js';
import type { Context } from '../shared/context.js';
import { holdsUnstorableText, UNSTORABLE_TEXT_REASON } from '../shared/storable-text.js';
import type { IngestPorts, UsageSlice } from './repositories.js';
import { checkEventWindow, type UsageEventInput, type UsageEventResult, validateUsageEvent } from './usage-event.js';

export const EVENTS_PER_REQUEST = 1;

export async function recordUsageEvents(
  context: Context<UsageSlice> & IngestPorts,
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
  const checked = events.map((event, index) => {
    const unstorable = unstorableField(event);
    return unstorable === undefined ? validateUsageEvent(event, index) : { event, unstorable };
  });
  const now = context.clock.now();
  return Promise.all(
    checked.map(async (event): Promise<UsageEventResult> => {
      if ('unstorable' in event) {
        return {
          eventKey: event.event.eventKey,
          status: 'rejected',
          error: { code: 'invalid_characters', detail: `${event.unstorable} ${UNSTORABLE_TEXT_REASON}.` },
        };
      }
      const outsideWindow = checkEventWindow(event.occurredAt, now);
      if (outsideWindow) return { eventKey: event.eventKey, status: 'rejected', error: outsideWindow };
      try {
        const outcome = await context.store.usageIngest.record(
          context.scope,
          { ...event, id: context.ids.newId('uev') },
          toTimestamp(now),
        );
        if (outcome === 'archived_customer') {
          return {
            eventKey: event.eventKey,
            status: 'rejected',
            error: { code: 'entity_archived', detail: `Customer ${event.customerId} is archived.` },
          };
        }
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

const WIRE_NAMES = {
  eventKey: 'event_key',
  customerId: 'customer_id',
  action: 'action',
  quantity: 'quantity',
  occurredAt: 'occurred_at',
} as const satisfies Record<keyof UsageEventInput, string>;

/** The wire name of the first field of the event holding unstorable text, if any. */
function unstorableField(event: UsageEventInput): string | undefined {
  const field = (Object.keys(WIRE_NAMES) as (keyof UsageEventInput)[]).find((name) => holdsUnstorableText(event[name]));
  return field === undefined ? undefined : WIRE_NAMES[field];
}
