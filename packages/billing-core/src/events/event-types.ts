/**
 * @module
 * The one table of event types: every type the public API lists, plus Drawdown's usage-based
 * ones. A notification destination may subscribe only to names listed here, `GET /event-types`
 * lists them, and `recordEvent` accepts only an `EventTypeName`, so the core cannot record a
 * type the table lacks. The Drawdown SDK mirrors the names (a test holds the two equal).
 */
import type { Account } from '../shared/scope.js';

/** One emitted event type, as the table declares it. */
export interface EventTypeDefinition {
  readonly group: string;
  readonly description: string;
  /** Listed and subscribable only for accounts in early access (usage-based billing). */
  readonly earlyAccess: boolean;
  /**
   * Who emits it (ADR 1300): `drawdown` when something Drawdown does records it, `elsewhere`
   * while the feature that records it is being built, `never` when it cannot happen in a
   * self-hosted service (payouts, imports, exposure scanning). Every type is listed and
   * subscribable, and a simulation can send any of them.
   */
  readonly emitted: EventEmitter;
}

export type EventEmitter = 'drawdown' | 'elsewhere' | 'never';

/** Payload versions a destination may ask for (`api_version`); the reference API has only 1. */
export const EVENT_API_VERSIONS = [1] as const;

// Usage balance units emit events, but the reference lists none for them: their group says
// they are a Drawdown extension (ADR 0501).
const EXTENSION_GROUP_SUFFIX = ' (Drawdown extension)';

export const EVENT_TYPES = {
  'address.created': {
    group: 'Address',
    description: 'Occurs when an address is created.',
    earlyAccess: false,
    emitted: 'drawdown',
  },
  'address.updated': {
    group: 'Address',
    description: 'Occurs when an address is updated.',
    earlyAccess: false,
    emitted: 'drawdown',
  },
  'address.imported': {
    group: 'Address',
    description: 'Occurs when an address is imported.',
    earlyAccess: false,
    emitted: 'never',
  },
  'adjustment.created': {
    group: 'Adjustment',
    description: 'Occurs when an adjustment is created.',
    earlyAccess: false,
    emitted: 'drawdown',
  },
  'adjustment.updated': {
    group: 'Adjustment',
    description:
      'Occurs when an adjustment is updated, the only time the status of an adjustment moves from pending to approved or rejected.',
    earlyAccess: false,
    emitted: 'drawdown',
  },
  'api_key.created': {
    group: 'API key',
    description: 'Occurs when an API key is created.',
    earlyAccess: false,
    emitted: 'drawdown',
  },
  'api_key.updated': {
    group: 'API key',
    description: 'Occurs when an API key is updated.',
    earlyAccess: false,
    emitted: 'never',
  },
  'api_key.expiring': {
    group: 'API key',
    description: 'Occurs when an API key is due to expire within 7 days.',
    earlyAccess: false,
    emitted: 'drawdown',
  },
  'api_key.expired': {
    group: 'API key',
    description: 'Occurs when an API key expires.',
    earlyAccess: false,
    emitted: 'drawdown',
  },
  'api_key.revoked': {
    group: 'API key',
    description: 'Occurs when an API key is revoked.',
    earlyAccess: false,
    emitted: 'drawdown',
  },
  'api_key_exposure.created': {
    group: 'API key exposure',
    description: 'Occurs when an API key is found exposed in a public place.',
    earlyAccess: false,
    emitted: 'never',
  },
  'business.created': {
    group: 'Business',
    description: 'Occurs when a business is created.',
    earlyAccess: false,
    emitted: 'elsewhere',
  },
  'business.updated': {
    group: 'Business',
    description: 'Occurs when a business is updated.',
    earlyAccess: false,
    emitted: 'elsewhere',
  },
  'business.imported': {
    group: 'Business',
    description: 'Occurs when a business is imported.',
    earlyAccess: false,
    emitted: 'never',
  },
  'client_token.created': {
    group: 'Client token',
    description: 'Occurs when a client-side token is created.',
    earlyAccess: false,
    emitted: 'drawdown',
  },
  'client_token.updated': {
    group: 'Client token',
    description: 'Occurs when a client-side token is updated.',
    earlyAccess: false,
    emitted: 'drawdown',
  },
  'client_token.revoked': {
    group: 'Client token',
    description: 'Occurs when a client-side token is revoked.',
    earlyAccess: false,
    emitted: 'drawdown',
  },
  'customer.created': {
    group: 'Customer',
    description: 'Occurs when a customer is created.',
    earlyAccess: false,
    emitted: 'drawdown',
  },
  'customer.updated': {
    group: 'Customer',
    description: 'Occurs when a customer is updated.',
    earlyAccess: false,
    emitted: 'drawdown',
  },
  'customer.imported': {
    group: 'Customer',
    description: 'Occurs when a customer is imported.',
    earlyAccess: false,
    emitted: 'never',
  },
  'discount.created': {
    group: 'Discount',
    description: 'Occurs when a discount is created.',
    earlyAccess: false,
    emitted: 'elsewhere',
  },
  'discount.updated': {
    group: 'Discount',
    description: 'Occurs when a discount is updated.',
    earlyAccess: false,
    emitted: 'elsewhere',
  },
  'discount.imported': {
    group: 'Discount',
    description: 'Occurs when a discount is imported.',
    earlyAccess: false,
    emitted: 'never',
  },
  'discount_group.created': {
    group: 'Discount group',
    description: 'Occurs when a discount group is created.',
    earlyAccess: false,
    emitted: 'elsewhere',
  },
  'discount_group.updated': {
    group: 'Discount group',
    description: 'Occurs when a discount group is updated.',
    earlyAccess: false,
    emitted: 'elsewhere',
  },
  'payment_method.saved': {
    group: 'Payment method',
    description: 'Occurs when a customer saves a payment method to their account.',
    earlyAccess: false,
    emitted: 'drawdown',
  },
  'payment_method.deleted': {
    group: 'Payment method',
    description: 'Occurs when a customer removes a saved payment method from their account.',
    earlyAccess: false,
    emitted: 'drawdown',
  },
  'payout.created': {
    group: 'Payout',
    description: 'Occurs when a payout is created.',
    earlyAccess: false,
    emitted: 'never',
  },
  'payout.paid': {
    group: 'Payout',
    description: 'Occurs when a payout is paid.',
    earlyAccess: false,
    emitted: 'never',
  },
  'price.created': {
    group: 'Price',
    description: 'Occurs when a price is created.',
    earlyAccess: false,
    emitted: 'drawdown',
  },
  'price.updated': {
    group: 'Price',
    description: 'Occurs when a price is updated.',
    earlyAccess: false,
    emitted: 'drawdown',
  },
  'price.imported': {
    group: 'Price',
    description: 'Occurs when a price is imported.',
    earlyAccess: false,
    emitted: 'never',
  },
  'product.created': {
    group: 'Product',
    description: 'Occurs when a product is created.',
    earlyAccess: false,
    emitted: 'drawdown',
  },
  'product.updated': {
    group: 'Product',
    description: 'Occurs when a product is updated.',
    earlyAccess: false,
    emitted: 'drawdown',
  },
  'product.imported': {
    group: 'Product',
    description: 'Occurs when a product is imported.',
    earlyAccess: false,
    emitted: 'never',
  },
  'report.created': {
    group: 'Report',
    description: 'Occurs when a report is created.',
    earlyAccess: false,
    emitted: 'drawdown',
  },
  'report.updated': {
    group: 'Report',
    description: 'Occurs when a report is updated.',
    earlyAccess: false,
    emitted: 'drawdown',
  },
  'subscription.created': {
    group: 'Subscription',
    description: 'Occurs when a subscription is created.',
    earlyAccess: false,
    emitted: 'drawdown',
  },
  'subscription.updated': {
    group: 'Subscription',
    description: 'Occurs when a subscription is updated, including renewals and plan changes.',
    earlyAccess: false,
    emitted: 'drawdown',
  },
  'subscription.activated': {
    group: 'Subscription',
    description: 'Occurs when a subscription becomes active.',
    earlyAccess: false,
    emitted: 'drawdown',
  },
  'subscription.trialing': {
    group: 'Subscription',
    description: 'Occurs when a subscription enters trial period.',
    earlyAccess: false,
    emitted: 'drawdown',
  },
  'subscription.canceled': {
    group: 'Subscription',
    description: 'Occurs when a subscription is canceled.',
    earlyAccess: false,
    emitted: 'drawdown',
  },
  'subscription.paused': {
    group: 'Subscription',
    description: 'Occurs when a subscription is paused.',
    earlyAccess: false,
    emitted: 'drawdown',
  },
  'subscription.resumed': {
    group: 'Subscription',
    description: 'Occurs when a paused subscription is resumed.',
    earlyAccess: false,
    emitted: 'drawdown',
  },
  'subscription.past_due': {
    group: 'Subscription',
    description: 'Occurs when a subscription becomes past due.',
    earlyAccess: false,
    emitted: 'drawdown',
  },
  'subscription.imported': {
    group: 'Subscription',
    description: 'Occurs when a subscription is imported.',
    earlyAccess: false,
    emitted: 'never',
  },
  'transaction.created': {
    group: 'Transaction',
    description: 'Occurs when a transaction is created.',
    earlyAccess: false,
    emitted: 'drawdown',
  },
  'transaction.updated': {
    group: 'Transaction',
    description: 'Occurs when a transaction is updated.',
    earlyAccess: false,
    emitted: 'drawdown',
  },
  'transaction.ready': {
    group: 'Transaction',
    description: 'Occurs when a transaction is ready: it has the customer, address and items it needs to be billed.',
    earlyAccess: false,
    emitted: 'drawdown',
  },
  'transaction.billed': {
    group: 'Transaction',
    description: 'Occurs when a transaction is billed: its status changes to billed.',
    earlyAccess: false,
    emitted: 'drawdown',
  },
  'transaction.paid': {
    group: 'Transaction',
    description: 'Occurs when a transaction is paid: a payment is captured against it.',
    earlyAccess: false,
    emitted: 'drawdown',
  },
  'transaction.completed': {
    group: 'Transaction',
    description: 'Occurs when a transaction is completed.',
    earlyAccess: false,
    emitted: 'drawdown',
  },
  'transaction.canceled': {
    group: 'Transaction',
    description: 'Occurs when a transaction is canceled.',
    earlyAccess: false,
    emitted: 'drawdown',
  },
  'transaction.past_due': {
    group: 'Transaction',
    description: 'Occurs when a transaction becomes past due.',
    earlyAccess: false,
    emitted: 'drawdown',
  },
  'transaction.payment_failed': {
    group: 'Transaction',
    description: 'Occurs when a payment attempt for a transaction fails.',
    earlyAccess: false,
    emitted: 'drawdown',
  },
  'transaction.revised': {
    group: 'Transaction',
    description: 'Occurs when the customer or address of a billed or completed transaction is revised.',
    earlyAccess: false,
    emitted: 'elsewhere',
  },
  'meter.created': {
    group: 'Meter',
    description: 'Occurs when a meter is created.',
    earlyAccess: true,
    emitted: 'drawdown',
  },
  'meter.updated': {
    group: 'Meter',
    description: 'Occurs when a meter is updated.',
    earlyAccess: true,
    emitted: 'drawdown',
  },
  'usage_balance.depleted': {
    group: 'Usage balance',
    description: 'Occurs when usage draws the remaining balance of a usage balance to zero.',
    earlyAccess: true,
    emitted: 'drawdown',
  },
  'usage_balance_unit.created': {
    group: `Usage balance unit${EXTENSION_GROUP_SUFFIX}`,
    description: 'Occurs when a usage balance unit is created.',
    earlyAccess: true,
    emitted: 'drawdown',
  },
  'usage_balance_unit.updated': {
    group: `Usage balance unit${EXTENSION_GROUP_SUFFIX}`,
    description: 'Occurs when a usage balance unit is updated.',
    earlyAccess: true,
    emitted: 'drawdown',
  },
} as const satisfies Record<string, EventTypeDefinition>;

export type EventTypeName = keyof typeof EVENT_TYPES;

/** Every event type name, in table order. */
export const EVENT_TYPE_NAMES = Object.keys(EVENT_TYPES) as readonly EventTypeName[];

/** The types something Drawdown does records today. */
export function emittedEventTypes(): EventTypeName[] {
  return EVENT_TYPE_NAMES.filter((name) => EVENT_TYPES[name].emitted === 'drawdown');
}

/** An event type as `GET /event-types` and `subscribed_events` show it. */
export interface EventTypeDescription {
  readonly name: string;
  readonly description: string;
  readonly group: string;
  readonly availableVersions: readonly number[];
}

function definitionOf(name: string): EventTypeDefinition | undefined {
  return Object.hasOwn(EVENT_TYPES, name) ? EVENT_TYPES[name as EventTypeName] : undefined;
}

/** True when `name` is an event type the service emits (for any account). */
export function isEventTypeName(name: string): name is EventTypeName {
  return definitionOf(name) !== undefined;
}

/** True when the account may see and subscribe to the event type. */
export function isEventTypeAvailable(account: Account, name: string): boolean {
  const definition = definitionOf(name);
  return definition !== undefined && (account.earlyAccess || !definition.earlyAccess);
}

/** The wire description of a type. A name no longer in the table still gets a description. */
export function describeEventType(name: string): EventTypeDescription {
  const definition = definitionOf(name);
  return {
    name,
    description: definition?.description ?? 'An event type this service no longer emits.',
    group: definition?.group ?? 'Other',
    availableVersions: [...EVENT_API_VERSIONS],
  };
}

/** Every event type the account may subscribe to, in table order. */
export function listEventTypes(account: Account): EventTypeDescription[] {
  return Object.keys(EVENT_TYPES)
    .filter((name) => isEventTypeAvailable(account, name))
    .map(describeEventType);
}
