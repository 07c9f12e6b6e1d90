/**
 * @module
 * Catalogue entities made through the API, for tests that need them as a starting point.
 */
import { expect } from 'vitest';
import type { ApiClient, ApiResponse, WireObject } from './api-client.js';

let sequence = 0;

/** A name no other call in this process returns, usable as a meter action or an email part. */
export function unique(stem: string): string {
  sequence += 1;
  return `${stem}_${process.pid}_${sequence}`;
}

async function created(response: Promise<ApiResponse>): Promise<WireObject> {
  const result = await response;
  expect(result.status, result.text).toBe(201);
  return result.entity;
}

export async function createUnit(api: ApiClient, body: WireObject = {}): Promise<string> {
  const unit = await created(api.post('/usage-balance-units', { name: 'Credits', unit_name: 'credits', ...body }));
  return String(unit.id);
}

export function meterBody(unitId: string, body: WireObject = {}): WireObject {
  return {
    usage_balance_unit_id: unitId,
    name: 'API calls',
    action: unique('api_call'),
    unit_name: 'call',
    rate: '1',
    ...body,
  };
}

export async function createMeter(api: ApiClient, unitId: string, body: WireObject = {}): Promise<WireObject> {
  return created(api.post('/meters', meterBody(unitId, body)));
}

export async function createProduct(api: ApiClient, body: WireObject = {}): Promise<string> {
  const product = await created(api.post('/products', { name: 'Product', tax_category: 'saas', ...body }));
  return String(product.id);
}

export function priceBody(productId: string, body: WireObject = {}): WireObject {
  return {
    product_id: productId,
    description: 'Monthly plan',
    unit_price: { amount: '1000', currency_code: 'EUR' },
    billing_cycle: { interval: 'month', frequency: 1 },
    ...body,
  };
}

export async function createPrice(api: ApiClient, productId: string, body: WireObject = {}): Promise<WireObject> {
  return created(api.post('/prices', priceBody(productId, body)));
}

export async function createCustomer(api: ApiClient, body: WireObject = {}): Promise<string> {
  const customer = await created(api.post('/customers', { email: `${unique('customer')}@example.com`, ...body }));
  return String(customer.id);
}
