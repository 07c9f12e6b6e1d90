/**
 * @module
 * Entity builders for the store contract suite. Ids come from a counter, so they sort in the
 * order they were made, as the service's ULIDs do.
 */
import type {
  Customer,
  EventTypeName,
  IdPrefix,
  Meter,
  Price,
  Product,
  Scope,
  StoredEvent,
  UsageBalanceUnit,
} from '@drawdown/billing-core';

let counter = 0;

/** A well-formed id with `prefix`, larger than every id made before it in this process. */
export function nextId(prefix: IdPrefix): string {
  counter += 1;
  return `${prefix}_${counter.toString(36).padStart(26, '0')}`;
}

/** A scope of its own for one test: nothing else lives in it. */
export function freshScope(environment: Scope['environment'] = 'sandbox'): Scope {
  return { accountId: nextId('acc'), environment };
}

const NOW = '2026-01-01T00:00:00.000Z';

export function aProduct(overrides: Partial<Product> = {}): Product {
  return {
    id: nextId('pro'),
    name: 'Product',
    description: null,
    type: 'standard',
    taxCategory: 'standard',
    imageUrl: null,
    customData: null,
    importMeta: null,
    status: 'active',
    createdAt: NOW,
    updatedAt: NOW,
    ...overrides,
  };
}

export function aPrice(overrides: Partial<Price> = {}): Price {
  return {
    id: nextId('pri'),
    productId: nextId('pro'),
    name: null,
    description: 'Price',
    type: 'standard',
    billingCycle: { interval: 'month', frequency: 1 },
    trialPeriod: null,
    taxMode: 'account_setting',
    unitPrice: { amount: '1000', currencyCode: 'EUR' },
    unitPriceOverrides: [],
    quantity: { minimum: 1, maximum: 100 },
    allowances: [],
    customData: null,
    importMeta: null,
    status: 'active',
    createdAt: NOW,
    updatedAt: NOW,
    ...overrides,
  };
}

export function aCustomer(overrides: Partial<Customer> = {}): Customer {
  const id = nextId('ctm');
  return {
    id,
    name: null,
    email: `customer-${id.slice(-6)}@example.com`,
    marketingConsent: false,
    locale: 'en',
    customData: null,
    importMeta: null,
    status: 'active',
    createdAt: NOW,
    updatedAt: NOW,
    ...overrides,
  };
}

export function aUnit(overrides: Partial<UsageBalanceUnit> = {}): UsageBalanceUnit {
  return {
    id: nextId('ubu'),
    name: 'Credits',
    unitName: 'credits',
    status: 'active',
    createdAt: NOW,
    updatedAt: NOW,
    ...overrides,
  };
}

export function aMeter(overrides: Partial<Meter> = {}): Meter {
  return {
    id: nextId('mtr'),
    usageBalanceUnitId: nextId('ubu'),
    name: 'API calls',
    description: null,
    action: 'api_call',
    unitName: 'call',
    rate: '1',
    aggregation: 'sum',
    status: 'active',
    createdAt: NOW,
    updatedAt: NOW,
    ...overrides,
  };
}

export function anEvent(entity: { readonly id: string }, eventType: EventTypeName = 'product.created'): StoredEvent {
  return { id: nextId('evt'), eventType, occurredAt: NOW, entityKind: 'product', entity };
}
