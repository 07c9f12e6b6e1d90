/**
 * @module
 * Usage events as clients send them, and the rules an event must pass to be accepted.
 * Meter resolution (which units, which rate) is fixed at acceptance: a later rate or action
 * change never re-rates recorded usage.
 */
import type { Meter } from '../catalogue/entities.js';
import { isMeterAction } from '../catalogue/meters.js';
import { Decimal } from '../money/decimal.js';
import { QUANTITY_PATTERN } from '../money/decimal-patterns.js';
import { BillingError } from '../shared/billing-error.js';
import type { ErrorCode } from '../shared/error-codes.js';
import { isIdOf } from '../shared/ids.js';
import { canonicalTimestamp } from '../shared/timestamps.js';

export const MAX_EVENT_AGE_MS = 60 * 86_400_000;
export const MAX_EVENT_LEAD_MS = 24 * 3_600_000;
export const EVENT_KEY_MAX_LENGTH = 256;

export interface UsageEventInput {
  readonly eventKey: string;
  readonly customerId: string;
  readonly action: string;
  readonly quantity: string;
  readonly occurredAt: string;
}

/** One drawdown an event makes: `quantity × rate` of one unit, through one meter. */
export interface ResolvedDrawdown {
  readonly meterId: string;
  readonly usageBalanceUnitId: string;
  readonly amount: string;
}

export interface RecordedUsageEvent extends UsageEventInput {
  readonly id: string;
  readonly acceptedAt: string;
  readonly drawdowns: readonly ResolvedDrawdown[];
}

export type UsageEventResult =
  | { readonly eventKey: string; readonly status: 'accepted' }
  | {
      readonly eventKey: string;
      readonly status: 'rejected';
      readonly error: { readonly code: ErrorCode; readonly detail: string };
    };

/**
 * Checks the shape rules of one event. Malformed fields are the caller's bug and refuse the
 * whole request; the time window is a per-event rejection (`checkEventWindow`).
 */
export function validateUsageEvent(input: UsageEventInput, index: number): UsageEventInput {
  const field = (name: string) => `events[${index}].${name}`;
  if (input.eventKey.length === 0 || input.eventKey.length > EVENT_KEY_MAX_LENGTH) {
    throw BillingError.invalidField(field('event_key'), `must be 1 to ${EVENT_KEY_MAX_LENGTH} characters`);
  }
  if (!isIdOf('ctm', input.customerId)) throw BillingError.invalidField(field('customer_id'), 'must be a ctm_ id');
  if (!isMeterAction(input.action)) {
    throw BillingError.invalidField(field('action'), 'must match ^[a-z][a-z0-9_]*$ and be 2 to 64 characters');
  }
  if (!QUANTITY_PATTERN.test(input.quantity) || !Decimal.parse(input.quantity).isPositive()) {
    throw BillingError.invalidField(
      field('quantity'),
      'must be a decimal string greater than zero, without leading zeros, with at most 35 integer digits and 9 decimal places',
    );
  }
  const timestamp = canonicalTimestamp(input.occurredAt);
  if (!timestamp)
    throw BillingError.invalidField(
      field('occurred_at'),
      'must be an RFC 3339 UTC timestamp such as 2026-01-31T12:00:00Z',
    );
  return { ...input, occurredAt: timestamp.canonical };
}

/** The per-event rejection for a timestamp outside the window, or null when it is inside. */
export function checkEventWindow(occurredAt: string, now: number): { code: ErrorCode; detail: string } | null {
  const timestamp = canonicalTimestamp(occurredAt);
  if (!timestamp) return { code: 'invalid_field', detail: 'occurred_at is not an RFC 3339 UTC timestamp.' };
  if (timestamp.epochMs < now - MAX_EVENT_AGE_MS) {
    return { code: 'usage_event_timestamp_too_old', detail: 'occurred_at is more than 60 days in the past.' };
  }
  if (timestamp.epochMs > now + MAX_EVENT_LEAD_MS) {
    return { code: 'usage_event_future_timestamp', detail: 'occurred_at is more than 24 hours in the future.' };
  }
  return null;
}

/** Every meter with the event's action draws `quantity × rate` of its unit; archived ones too. */
export function resolveDrawdowns(meters: readonly Meter[], quantity: string): ResolvedDrawdown[] {
  const amount = Decimal.parse(quantity);
  return meters.map((meter) => ({
    meterId: meter.id,
    usageBalanceUnitId: meter.usageBalanceUnitId,
    amount: amount.multiply(Decimal.parse(meter.rate)).toString(),
  }));
}
