/**
 * @module
 * A world for subscription change tests: a harness on a frozen wall clock, an account of its
 * own per test (so its sandbox clock moves only for that test), a buyer with an address, and
 * subscriptions started the way a checkout starts them. Time moves only through the sandbox
 * clock, so every prorated amount can be computed by hand.
 */
import type { Clock } from '@drawdown/billing-core';
import type { BillingHarness } from '@drawdown/testkit';
import { type Environment, Paddle } from '@paddle/paddle-node-sdk';
import { expect } from 'vitest';
import { type ApiClient, apiClient, type WireObject } from '../support/api-client.js';
import { createProduct } from '../support/catalogue-fixtures.js';
import { type Buyer, createBuyer } from '../transactions/transaction-fixtures.js';

/** Midnight UTC, 1 March 2026: a monthly period from here has 31 days. */
export const T0 = Date.parse('2026-03-01T00:00:00.000Z');
export const DAY_SECONDS = 86_400;

/** A wall clock that stands still. */
export const frozenClock: Clock = { now: () => T0 };

export interface ChangeWorld {
  readonly api: ApiClient;
  readonly paddle: Paddle;
  readonly accountId: string;
  readonly buyer: Buyer;
  /** A recurring monthly price of `amount` USD, without allowances. */
  price(amount: string, body?: WireObject): Promise<string>;
  /** Starts a subscription through a paid checkout; answers its id. */
  subscribe(items: { priceId: string; quantity: number }[], body?: WireObject): Promise<string>;
  /** Moves this account's sandbox clock forward. */
  advance(seconds: number): Promise<void>;
  transactionsOf(subscriptionId: string, origin?: string): Promise<WireObject[]>;
}

export async function newChangeWorld(harness: BillingHarness, buyerCountry = 'US'): Promise<ChangeWorld> {
  const accountId = await harness.createAccount({ earlyAccess: true, name: 'Change tenant' });
  const key = await harness.createKey({ environment: 'sandbox', permissions: ['all'], accountId });
  const api = apiClient(harness.sandboxUrl, key);
  const paddle = new Paddle(key, { environment: harness.sandboxUrl as Environment, logLevel: 'none' as never });
  const buyer = await createBuyer(api, buyerCountry);
  const productId = await createProduct(api, { name: 'Plan' });
  return {
    api,
    paddle,
    accountId,
    buyer,
    async price(amount, body = {}) {
      const response = await api.post('/prices', {
        product_id: productId,
        description: `Plan at ${amount}`,
        unit_price: { amount, currency_code: 'USD' },
        billing_cycle: { interval: 'month', frequency: 1 },
        quantity: { minimum: 1, maximum: 100 },
        ...body,
      });
      expect(response.status, response.text).toBe(201);
      return response.id;
    },
    async subscribe(items, body = {}) {
      const created = await api.post('/transactions', {
        customer_id: buyer.customerId,
        address_id: buyer.addressId,
        items: items.map((item) => ({ price_id: item.priceId, quantity: item.quantity })),
        ...body,
      });
      expect(created.status, created.text).toBe(201);
      const paid =
        body.collection_mode === 'manual'
          ? await api.post(`/transactions/${created.id}/payments`, {
              method_type: 'bank_transfer',
              provider_reference: 'wire-1',
            })
          : await api.post(`/transactions/${created.id}/simulate-payment`, { outcome: 'success' });
      expect(paid.status, paid.text).toBe(body.collection_mode === 'manual' ? 201 : 200);
      const subscriptionId = String(paid.entity.subscription_id);
      expect(subscriptionId).toMatch(/^sub_/);
      return subscriptionId;
    },
    async advance(seconds) {
      const response = await api.post('/sandbox-clock/advance', { seconds });
      expect(response.status, response.text).toBe(200);
    },
    async transactionsOf(subscriptionId, origin) {
      const filter = origin ? `&origin=${origin}` : '';
      const response = await api.get(`/transactions?subscription_id=${subscriptionId}${filter}&order_by=id[ASC]`);
      expect(response.status, response.text).toBe(200);
      return [...response.list];
    },
  };
}

/** Exact half-to-even rounding of `numerator / denominator` (test-side arithmetic). */
export function roundHalfEven(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n;
  const magnitude = negative ? -numerator : numerator;
  let quotient = magnitude / denominator;
  const twice = (magnitude % denominator) * 2n;
  if (twice > denominator || (twice === denominator && quotient % 2n === 1n)) quotient += 1n;
  return negative ? -quotient : quotient;
}
