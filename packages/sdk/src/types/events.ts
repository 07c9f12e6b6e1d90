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
import type { Adjustment, Transaction } from './transactions.js';
import type { UsageBalance } from './usage.js';

/**
 * Every event type the service lists (`GET /event-types`), in its order: the public API's types
 * plus Drawdown's usage-based ones. The service's core holds the same table; a test in the
 * service proves the two lists equal, since the SDK never imports the core (ADR 1300).
 */
export const EVENT_TYPE_NAMES = [
  'address.created',
  'address.updated',
  'address.imported',
  'adjustment.created',
  'adjustment.updated',
  'api_key.created',
  'api_key.updated',
  'api_key.expiring',
  'api_key.expired',
  'api_key.revoked',
  'api_key_exposure.created',
  'business.created',
  'business.updated',
  'business.imported',
  'client_token.created',
  'client_token.updated',
  'client_token.revoked',
  'customer.created',
  'customer.updated',
  'customer.imported',
  'discount.created',
  'discount.updated',
  'discount.imported',
  'discount_group.created',
  'discount_group.updated',
  'payment_method.saved',
  'payment_method.deleted',
  'payout.created',
  'payout.paid',
  'price.created',
  'price.updated',
  'price.imported',
  'product.created',
  'product.updated',
  'product.imported',
  'report.created',
  'report.updated',
  'subscription.created',
  'subscription.updated',
  'subscription.activated',
  'subscription.trialing',
  'subscription.canceled',
  'subscription.paused',
  'subscription.resumed',
  'subscription.past_due',
  'subscription.imported',
  'transaction.created',
  'transaction.updated',
  'transaction.ready',
  'transaction.billed',
  'transaction.paid',
  'transaction.completed',
  'transaction.canceled',
  'transaction.past_due',
  'transaction.payment_failed',
  'transaction.revised',
  'meter.created',
  'meter.updated',
  'usage_balance.depleted',
  'usage_balance_unit.created',
  'usage_balance_unit.updated',
] as const;

export type KnownEventType = (typeof EVENT_TYPE_NAMES)[number];

/** An entity this SDK does not model field by field: camel-cased, untyped. */
export type EntityData = Readonly<Record<string, unknown>>;

/** An API key as its events carry it: the secret is never in it. */
export interface ApiKeyData {
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
  /** The key with its secret masked. */
  readonly key: string;
  readonly status: 'active' | 'expired' | 'revoked';
  readonly permissions: readonly string[];
  readonly expiresAt: string | null;
  readonly lastUsedAt: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** The entity each known event type carries in `data`. */
export type EventDataByType = {
  readonly [Type in KnownEventType]: Type extends `product.${string}`
    ? Product
    : Type extends `price.${string}`
      ? Price
      : Type extends `customer.${string}`
        ? Customer
        : Type extends `address.${string}`
          ? Address
          : Type extends `usage_balance_unit.${string}`
            ? UsageBalanceUnit
            : Type extends `meter.${string}`
              ? Meter
              : Type extends 'usage_balance.depleted'
                ? UsageBalance
                : Type extends `subscription.${string}`
                  ? Subscription
                  : Type extends `transaction.${string}`
                    ? Transaction
                    : Type extends `adjustment.${string}`
                      ? Adjustment
                      : Type extends `api_key.${string}`
                        ? ApiKeyData
                        : EntityData;
};

const KNOWN_EVENT_TYPES: ReadonlySet<string> = new Set<string>(EVENT_TYPE_NAMES);

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
