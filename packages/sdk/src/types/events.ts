/**
 * @module
 * Events: the body of a webhook, an item of `GET /events`, and a notification's payload. Known
 * types are a discriminated union on `eventType`; any other type parses into `UnknownEvent`
 * rather than failing, as the seed requires of receivers. `known` tells the two apart, so a
 * `switch` on `eventType` after `if (event.known)` narrows `data` to the entity (ADR 0605).
 */
import { fromWire } from '../core/wire-case.js';
import type { Address, Customer, Meter, Price, Product, UsageBalanceUnit } from './catalogue.js';
import type { Subscription } from './subscriptions.js';
import type { Transaction } from './transactions.js';
import type { UsageBalance } from './usage.js';

/** The entity each known event type carries in `data`. */
export interface EventDataByType {
  'product.created': Product;
  'product.updated': Product;
  'product.imported': Product;
  'price.created': Price;
  'price.updated': Price;
  'price.imported': Price;
  'customer.created': Customer;
  'customer.updated': Customer;
  'customer.imported': Customer;
  'address.created': Address;
  'address.updated': Address;
  'address.imported': Address;
  'usage_balance_unit.created': UsageBalanceUnit;
  'usage_balance_unit.updated': UsageBalanceUnit;
  'meter.created': Meter;
  'meter.updated': Meter;
  /** Remaining reached `0`. No subscription id: match on customer and unit; deduplicate on `eventId`. */
  'usage_balance.depleted': UsageBalance;
  'subscription.activated': Subscription;
  'subscription.canceled': Subscription;
  'subscription.created': Subscription;
  'subscription.imported': Subscription;
  'subscription.past_due': Subscription;
  'subscription.paused': Subscription;
  'subscription.resumed': Subscription;
  'subscription.trialing': Subscription;
  'subscription.updated': Subscription;
  'transaction.billed': Transaction;
  'transaction.canceled': Transaction;
  'transaction.completed': Transaction;
  'transaction.created': Transaction;
  'transaction.paid': Transaction;
  'transaction.past_due': Transaction;
  'transaction.payment_failed': Transaction;
  'transaction.ready': Transaction;
  'transaction.revised': Transaction;
  'transaction.updated': Transaction;
}

export type KnownEventType = keyof EventDataByType;

const KNOWN_EVENT_TYPES: ReadonlySet<string> = new Set<KnownEventType>([
  'product.created',
  'product.updated',
  'product.imported',
  'price.created',
  'price.updated',
  'price.imported',
  'customer.created',
  'customer.updated',
  'customer.imported',
  'address.created',
  'address.updated',
  'address.imported',
  'usage_balance_unit.created',
  'usage_balance_unit.updated',
  'meter.created',
  'meter.updated',
  'usage_balance.depleted',
  'subscription.activated',
  'subscription.canceled',
  'subscription.created',
  'subscription.imported',
  'subscription.past_due',
  'subscription.paused',
  'subscription.resumed',
  'subscription.trialing',
  'subscription.updated',
  'transaction.billed',
  'transaction.canceled',
  'transaction.completed',
  'transaction.created',
  'transaction.paid',
  'transaction.past_due',
  'transaction.payment_failed',
  'transaction.ready',
  'transaction.revised',
  'transaction.updated',
]);

/** True for the event types this SDK version types. */
export function isKnownEventType(eventType: string): eventType is KnownEventType {
  return KNOWN_EVENT_TYPES.has(eventType);
}

interface EventFields {
  /** `evt_…`: receivers deduplicate on it. */
  readonly eventId: string;
  readonly occurredAt: string;
  /** `ntf_…` on webhook bodies; null on `GET /events` items. */
  readonly notificationId: string | null;
}

/** An event of a type this SDK knows, with its entity typed. */
export type KnownEvent = {
  [Type in KnownEventType]: EventFields & {
    readonly known: true;
    readonly eventType: Type;
    readonly data: EventDataByType[Type];
  };
}[KnownEventType];

/** An event of a type this SDK version does not know; `data` is camel-cased but untyped. */
export interface UnknownEvent extends EventFields {
  readonly known: false;
  readonly eventType: string;
  readonly data: Readonly<Record<string, unknown>>;
}

export type DrawdownEvent = KnownEvent | UnknownEvent;

/** The event of one known type, for handler signatures: `EventOf<'meter.created'>`. */
export type EventOf<Type extends KnownEventType> = Extract<KnownEvent, { eventType: Type }>;

/** The envelope is not an event at all (not JSON, or missing `event_id`, `event_type`, `occurred_at` or `data`). */
export class MalformedEventError extends Error {
  override readonly name = 'MalformedEventError';
}

/**
 * Parses an event from a raw body or an already parsed object. Throws `MalformedEventError` only
 * when the envelope is broken; an unknown `event_type` gives an `UnknownEvent`.
 *
 * @example
 * const event = parseEvent(rawBody);
 * if (event.known && event.eventType === 'usage_balance.depleted') notify(event.data.customerId);
 */
export function parseEvent(input: string | object): DrawdownEvent {
  let value: unknown = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input) as unknown;
    } catch {
      throw new MalformedEventError('The event body is not valid JSON.');
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new MalformedEventError('An event must be a JSON object.');
  }
  const wire = value as Record<string, unknown>;
  const eventId = wire.event_id ?? wire.eventId;
  const eventType = wire.event_type ?? wire.eventType;
  const occurredAt = wire.occurred_at ?? wire.occurredAt;
  const notificationId = wire.notification_id ?? wire.notificationId ?? null;
  const data = wire.data;
  if (typeof eventId !== 'string' || typeof eventType !== 'string' || typeof occurredAt !== 'string') {
    throw new MalformedEventError('An event needs string event_id, event_type and occurred_at.');
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new MalformedEventError('An event needs an object in data.');
  }
  const fields = {
    eventId,
    eventType,
    occurredAt,
    notificationId: typeof notificationId === 'string' ? notificationId : null,
    data: fromWire<Record<string, unknown>>(data),
  };
  if (isKnownEventType(eventType)) return { known: true, ...fields } as unknown as KnownEvent;
  return { known: false, ...fields };
}
