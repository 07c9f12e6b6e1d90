/**
 * Builders of catalogue entities for the core's unit tests: a valid entity with plain values,
 * any field overridden by the test. Ids are the first of their kind (`…0001`); a test that needs
 * two of a kind gives the second its own id.
 */
import type { Address, Customer, Price, Product } from '../src/catalogue/entities.js';

/** The instant every built entity was made, unless the test says otherwise. */
export const BUILT_AT = '2026-03-14T09:30:00.000Z';

const stamps = {
  customData: null,
  importMeta: null,
  status: 'active',
  createdAt: BUILT_AT,
  updatedAt: BUILT_AT,
} as const;

export function aCustomer(overrides: Partial<Customer> = {}): Customer {
  return {
    id: 'ctm_00000000000000000000000001',
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    marketingConsent: false,
    locale: 'en',
    ...stamps,
    ...overrides,
  };
}

/** A Berlin address of the customer `customerId` (the built customer's unless given). */
export function anAddress(overrides: Partial<Address> = {}): Address {
  return {
    id: 'add_00000000000000000000000001',
    customerId: 'ctm_00000000000000000000000001',
    description: null,
    firstLine: '1 Analytical Way',
    secondLine: null,
    city: 'Berlin',
    postalCode: '10115',
    region: null,
    countryCode: 'DE',
    ...stamps,
    ...overrides,
  };
}

export function aProduct(overrides: Partial<Product> = {}): Product {
  return {
    id: 'pro_00000000000000000000000001',
    name: 'Analytics',
    description: null,
    type: 'standard',
    taxCategory: 'saas',
    imageUrl: null,
    ...stamps,
    ...overrides,
  };
}

/** A monthly EUR 19.99 seat of the built product, 1 to 100 a transaction. */
export function aPrice(overrides: Partial<Price> = {}): Price {
  return {
    id: 'pri_00000000000000000000000001',
    productId: 'pro_00000000000000000000000001',
    name: null,
    description: 'Monthly seat',
    type: 'standard',
    billingCycle: { interval: 'month', frequency: 1 },
    trialPeriod: null,
    taxMode: 'account_setting',
    unitPrice: { amount: '1999', currencyCode: 'EUR' },
    unitPriceOverrides: [],
    quantity: { minimum: 1, maximum: 100 },
    allowances: [],
    ...stamps,
    ...overrides,
  };
}
