/**
 * @module
 * Customers, prices and transactions made through the API, for the transaction suites.
 */
import { expect } from 'vitest';
import type { ApiClient, WireObject } from '../support/api-client.js';
import { createProduct, unique } from '../support/catalogue-fixtures.js';

export interface Buyer {
  readonly customerId: string;
  readonly addressId: string;
}

export async function createBuyer(api: ApiClient, countryCode = 'DE', body: WireObject = {}): Promise<Buyer> {
  const customer = await api.post('/customers', {
    email: `${unique('buyer')}@example.com`,
    name: 'Ada Lovelace',
    ...body,
  });
  expect(customer.status, customer.text).toBe(201);
  const address = await api.post(`/customers/${customer.id}/addresses`, {
    country_code: countryCode,
    first_line: '1 Analytical Way',
    city: 'Berlin',
    postal_code: '10115',
  });
  expect(address.status, address.text).toBe(201);
  return { customerId: customer.id, addressId: address.id };
}

/** A one-off price (no billing cycle) in `currency`. */
export async function createOneOffPrice(
  api: ApiClient,
  amount = '1000',
  currency = 'EUR',
  body: WireObject = {},
): Promise<string> {
  const productId = await createProduct(api, { name: 'Consulting hour' });
  const price = await api.post('/prices', {
    product_id: productId,
    description: 'One hour',
    unit_price: { amount, currency_code: currency },
    ...body,
  });
  expect(price.status, price.text).toBe(201);
  return price.id;
}

export async function createTransaction(api: ApiClient, body: WireObject): Promise<WireObject> {
  const response = await api.post('/transactions', body);
  expect(response.status, response.text).toBe(201);
  return response.entity;
}

/** A ready transaction of `buyer` for `quantity` of `priceId`. */
export async function readyTransaction(
  api: ApiClient,
  buyer: Buyer,
  priceId: string,
  body: WireObject = {},
): Promise<WireObject> {
  return createTransaction(api, {
    items: [{ price_id: priceId, quantity: 2 }],
    customer_id: buyer.customerId,
    address_id: buyer.addressId,
    ...body,
  });
}

export function totalsOf(transaction: WireObject): Record<string, string | null> {
  return (transaction.details as { totals: Record<string, string | null> }).totals;
}
