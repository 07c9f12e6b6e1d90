/**
 * @module
 * What a Stripe webhook must look like before it is read (ADR 1482). A body whose signature
 * verifies was sent by someone holding the account's signing secret, yet it may still not be a
 * Stripe event: `[]`, an event without `data`, `data.object: null`, or text that is not JSON.
 * Such a body is refused with `provider_notification_malformed` (400: Stripe shows the failure
 * and retries, and the operator's log names the reason) instead of failing inside the mapping
 * with a 500. Only the envelope every Stripe event has is required (an object with a string `id`
 * and `type`, and `data.object` an object), and of an intent's events the intent's `id` and
 * `payment_method`, which Stripe always sends and the mapping reads without a fallback; event
 * types Drawdown ignores stay acknowledged.
 */
import { BillingError } from '@drawdown/billing-core';

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Why a verified body is not a Stripe event; undefined when it has an event's envelope. */
export function malformedStripeEvent(event: unknown): string | undefined {
  if (!isObject(event)) return 'the body is not a JSON object';
  if (typeof event.id !== 'string' || event.id === '') return 'it has no event id';
  if (typeof event.type !== 'string' || event.type === '') return 'it has no event type';
  if (!isObject(event.data)) return 'it has no data object';
  const object = event.data.object;
  if (!isObject(object)) return 'its data.object is not an object';
  // An intent's id and payment method are read without a fallback; Stripe sends both on every intent.
  if (/^(payment_intent|setup_intent)\./.test(event.type)) {
    if (typeof object.id !== 'string' || object.id === '') return 'its intent has no id';
    const method = object.payment_method;
    if (!(method === null || typeof method === 'string' || (isObject(method) && typeof method.id === 'string'))) {
      return 'its intent has no payment_method (an id, an expanded payment method or null)';
    }
  }
  return undefined;
}

/** The refusal of a verified body that is not a Stripe event. */
export function malformedStripeNotification(reason: string): BillingError {
  return new BillingError(
    'provider_notification_malformed',
    `This Stripe webhook verifies with the account's signing secret but is not a Stripe event: ${reason}.`,
  );
}

/** Refuses a verified body that is not a Stripe event, or answers it as one. */
export function verifiedStripeEvent<T>(event: T): T {
  const reason = malformedStripeEvent(event);
  if (reason !== undefined) throw malformedStripeNotification(reason);
  return event;
}
