/**
 * The official SDK (@paddle/paddle-node-sdk), pointed at our sandbox address, drives the
 * catalogue unchanged: create, list across pages with `for await`, get, update, archive.
 */

import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { ApiError, type Paddle } from '@paddle/paddle-node-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { officialSdk } from '../support/official-sdk.js';

describe.each(ENGINES)('%s: the official SDK against the catalogue', (engine) => {
  let harness: BillingHarness;
  let paddle: Paddle;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine });
    paddle = officialSdk(harness.sandboxKey, harness.sandboxUrl);
  });
  afterAll(() => harness.close());

  it('creates, gets, updates and archives a product', async () => {
    const created = await paddle.products.create({
      name: 'Analytics',
      taxCategory: 'saas',
      description: 'Dashboards',
      customData: { tierName: 'gold' },
    });
    expect(created.id).toMatch(/^pro_[a-z\d]{26}$/);
    expect(created.customData).toEqual({ tierName: 'gold' });

    const fetched = await paddle.products.get(created.id);
    expect(fetched.name).toBe('Analytics');

    const updated = await paddle.products.update(created.id, { name: 'Analytics Plus' });
    expect(updated.name).toBe('Analytics Plus');

    const archived = await paddle.products.archive(created.id);
    expect(archived.status).toBe('archived');
  });

  it('lists products over several pages with for await', async () => {
    const ids = new Set<string>();
    for (let index = 0; index < 7; index += 1) {
      ids.add((await paddle.products.create({ name: `Paged ${index}`, taxCategory: 'standard' })).id);
    }
    const collection = paddle.products.list({ perPage: 3, status: ['active'] });
    const seen: string[] = [];
    for await (const product of collection) seen.push(product.id);
    expect(seen.filter((id) => ids.has(id))).toHaveLength(7);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('pages by hand with next(), hasMore and estimatedTotal', async () => {
    const collection = paddle.products.list({ perPage: 2 });
    const first = await collection.next();
    expect(first).toHaveLength(2);
    expect(collection.hasMore).toBe(true);
    expect(collection.estimatedTotal).toBeGreaterThanOrEqual(8);
  });

  it('creates a recurring price, lists it by product and archives it', async () => {
    const product = await paddle.products.create({ name: 'Seats', taxCategory: 'saas' });
    const price = await paddle.prices.create({
      productId: product.id,
      description: 'Monthly seat',
      unitPrice: { amount: '1000', currencyCode: 'EUR' },
      billingCycle: { interval: 'month', frequency: 1 },
      quantity: { minimum: 1, maximum: 50 },
    });
    expect(price.unitPrice).toEqual({ amount: '1000', currencyCode: 'EUR' });
    expect(price.billingCycle).toEqual({ interval: 'month', frequency: 1 });
    expect(price.quantity).toEqual({ minimum: 1, maximum: 50 });

    const listed: string[] = [];
    for await (const item of paddle.prices.list({ productId: [product.id] })) listed.push(item.id);
    expect(listed).toEqual([price.id]);

    expect((await paddle.prices.update(price.id, { description: 'Monthly seat (EU)' })).description).toBe(
      'Monthly seat (EU)',
    );
    expect((await paddle.prices.archive(price.id)).status).toBe('archived');
  });

  it('creates, finds, updates and archives a customer', async () => {
    const customer = await paddle.customers.create({ email: 'ada@example.com', name: 'Ada' });
    expect(customer.email).toBe('ada@example.com');
    const found: string[] = [];
    for await (const item of paddle.customers.list({ email: ['ada@example.com'] })) found.push(item.id);
    expect(found).toEqual([customer.id]);
    expect((await paddle.customers.update(customer.id, { name: 'Ada L.' })).name).toBe('Ada L.');
    expect((await paddle.customers.archive(customer.id)).status).toBe('archived');
  });

  it('raises ApiError carrying our codes', async () => {
    const error = await paddle.products.get('pro_00000000000000000000000000').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'not_found', type: 'request_error' });

    const invalid = await paddle.prices
      .create({
        productId: 'pro_00000000000000000000000000',
        description: 'x',
        unitPrice: { amount: '10', currencyCode: 'USD' },
      })
      .catch((caught: unknown) => caught);
    expect(invalid).toMatchObject({ code: 'product_not_found' });
  });

  it('carries errors[] on validation failures and the conflict code on a duplicate email', async () => {
    const invalid = await paddle.products.create({ name: '', taxCategory: 'saas' }).catch((caught: unknown) => caught);
    expect(invalid).toBeInstanceOf(ApiError);
    expect(invalid).toMatchObject({ code: 'invalid_field', errors: [expect.objectContaining({ field: 'name' })] });

    await paddle.customers.create({ email: 'twice@example.com' });
    const duplicate = await paddle.customers.create({ email: 'twice@example.com' }).catch((caught: unknown) => caught);
    expect(duplicate).toMatchObject({ code: 'customer_already_exists', errors: null });
  });

  it('raises ApiError with invalid_token for a live key on the sandbox address', async () => {
    const wrongEnvironment = officialSdk(harness.liveKey, harness.sandboxUrl);
    const error = await wrongEnvironment.products
      .get('pro_00000000000000000000000000')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'invalid_token', type: 'request_error' });
  });
});
