/**
 * @module
 * The one table of event types the service emits. A notification destination may subscribe
 * only to names listed here, and `GET /event-types` lists them. Whoever makes the core record a
 * new event type adds its row here (a test checks every literal type the core records).
 */
import type { Account } from '../access/account.js';

/** One emitted event type, as the table declares it. */
export interface EventTypeDefinition {
  readonly group: string;
  readonly description: string;
  /** Listed and subscribable only for accounts in early access (usage-based billing). */
  readonly earlyAccess: boolean;
}

/** Payload versions a destination may ask for (`api_version`); the reference API has only 1. */
export const EVENT_API_VERSIONS = [1] as const;

// Usage balance units emit events, but the reference lists none for them: their group says
// they are a Drawdown extension (ADR 0501).
const EXTENSION_GROUP_SUFFIX = ' (Drawdown extension)';

export const EVENT_TYPES = {
  'product.created': { group: 'Product', description: 'Occurs when a product is created.', earlyAccess: false },
  'product.updated': { group: 'Product', description: 'Occurs when a product is updated.', earlyAccess: false },
  'price.created': { group: 'Price', description: 'Occurs when a price is created.', earlyAccess: false },
  'price.updated': { group: 'Price', description: 'Occurs when a price is updated.', earlyAccess: false },
  'customer.created': { group: 'Customer', description: 'Occurs when a customer is created.', earlyAccess: false },
  'customer.updated': { group: 'Customer', description: 'Occurs when a customer is updated.', earlyAccess: false },
  'address.created': { group: 'Address', description: 'Occurs when an address is created.', earlyAccess: false },
  'address.updated': { group: 'Address', description: 'Occurs when an address is updated.', earlyAccess: false },
  'business.created': { group: 'Business', description: 'Occurs when a business is created.', earlyAccess: false },
  'business.updated': { group: 'Business', description: 'Occurs when a business is updated.', earlyAccess: false },
  'discount.created': { group: 'Discount', description: 'Occurs when a discount is created.', earlyAccess: false },
  'discount.updated': {
    group: 'Discount',
    description: 'Occurs when a discount is updated, including each redemption counted or given back.',
    earlyAccess: false,
  },
  'discount_group.created': {
    group: 'Discount group',
    description: 'Occurs when a discount group is created.',
    earlyAccess: false,
  },
  'discount_group.updated': {
    group: 'Discount group',
    description: 'Occurs when a discount group is updated.',
    earlyAccess: false,
  },
  'subscription.created': {
    group: 'Subscription',
    description: 'Occurs when a subscription is created.',
    earlyAccess: false,
  },
  'subscription.updated': {
    group: 'Subscription',
    description: 'Occurs when a subscription is updated, including renewals and plan changes.',
    earlyAccess: false,
  },
  'subscription.activated': {
    group: 'Subscription',
    description: 'Occurs when a subscription becomes active.',
    earlyAccess: false,
  },
  'subscription.canceled': {
    group: 'Subscription',
    description: 'Occurs when a subscription is canceled.',
    earlyAccess: false,
  },
  'subscription.paused': {
    group: 'Subscription',
    description: 'Occurs when a subscription is paused.',
    earlyAccess: false,
  },
  'subscription.resumed': {
    group: 'Subscription',
    description: 'Occurs when a paused subscription is resumed.',
    earlyAccess: false,
  },
  'subscription.past_due': {
    group: 'Subscription',
    description: 'Occurs when a subscription becomes past due.',
    earlyAccess: false,
  },
  'transaction.created': {
    group: 'Transaction',
    description: 'Occurs when a transaction is created.',
    earlyAccess: false,
  },
  'transaction.revised': {
    group: 'Transaction',
    description:
      'Occurs when the customer, business or address details of a billed or completed transaction are revised.',
    earlyAccess: false,
  },
  'transaction.updated': {
    group: 'Transaction',
    description: 'Occurs when a transaction is updated.',
    earlyAccess: false,
  },
  'transaction.ready': {
    group: 'Transaction',
    description: 'Occurs when a transaction has everything it needs to be billed.',
    earlyAccess: false,
  },
  'transaction.billed': {
    group: 'Transaction',
    description: 'Occurs when a transaction is billed.',
    earlyAccess: false,
  },
  'transaction.paid': {
    group: 'Transaction',
    description: 'Occurs when a payment is recorded against a transaction.',
    earlyAccess: false,
  },
  'transaction.completed': {
    group: 'Transaction',
    description: 'Occurs when a transaction is completed.',
    earlyAccess: false,
  },
  'transaction.canceled': {
    group: 'Transaction',
    description: 'Occurs when a transaction is canceled.',
    earlyAccess: false,
  },
  'transaction.past_due': {
    group: 'Transaction',
    description: 'Occurs when a transaction becomes past due.',
    earlyAccess: false,
  },
  'transaction.payment_failed': {
    group: 'Transaction',
    description: 'Occurs when a payment attempt for a transaction fails.',
    earlyAccess: false,
  },
  'adjustment.created': {
    group: 'Adjustment',
    description: 'Occurs when an adjustment (a credit or refund) is created.',
    earlyAccess: false,
  },
  'adjustment.updated': {
    group: 'Adjustment',
    description: 'Occurs when an adjustment is updated.',
    earlyAccess: false,
  },
  'meter.created': { group: 'Meter', description: 'Occurs when a meter is created.', earlyAccess: true },
  'meter.updated': { group: 'Meter', description: 'Occurs when a meter is updated.', earlyAccess: true },
  'usage_balance.depleted': {
    group: 'Usage balance',
    description: 'Occurs when usage draws the remaining balance of a usage balance to zero.',
    earlyAccess: true,
  },
  'usage_balance_unit.created': {
    group: `Usage balance unit${EXTENSION_GROUP_SUFFIX}`,
    description: 'Occurs when a usage balance unit is created.',
    earlyAccess: true,
  },
  'usage_balance_unit.updated': {
    group: `Usage balance unit${EXTENSION_GROUP_SUFFIX}`,
    description: 'Occurs when a usage balance unit is updated.',
    earlyAccess: true,
  },
} as const satisfies Record<string, EventTypeDefinition>;

export type EventTypeName = keyof typeof EVENT_TYPES;

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
