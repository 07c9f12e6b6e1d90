/**
 * Businesses under customers and every `include` through the official SDK, on both engines:
 * business CRUD and search, `business_id` on transactions with its refusals, and each include
 * of products, prices and transactions embedding what it names (unknown values refused).
 */
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import type { Paddle } from '@paddle/paddle-node-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, harnessClients } from '../support/api-client.js';
import { officialSdk, sdkRefusal } from '../support/official-sdk.js';
import { type Buyer, createBuyer, createOneOffPrice } from '../transactions/transaction-fixtures.js';

describe.each(ENGINES)('%s: businesses and includes through the official SDK', (engine) => {
  let harness: BillingHarness;
  let paddle: Paddle;
  let sandbox: ApiClient;
  let buyer: Buyer;
  let other: Buyer;
  let priceId: string;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine });
    ({ sandbox } = harnessClients(harness));
    paddle = officialSdk(harness.sandboxKey, harness.sandboxUrl);
    buyer = await createBuyer(sandbox, 'GB');
    other = await createBuyer(sandbox, 'GB');
    priceId = await createOneOffPrice(sandbox, '2500', 'GBP');
  });
  afterAll(() => harness.close());

  it('creates, gets, updates, searches and archives a business', async () => {
    const business = await paddle.businesses.create(buyer.customerId, {
      name: 'Analytical Engines Ltd',
      companyNumber: '01234567',
      taxIdentifier: 'GB123456789',
      contacts: [{ name: 'Ada Lovelace', email: 'ada@example.com' }],
    });
    expect(business).toMatchObject({
      customerId: buyer.customerId,
      name: 'Analytical Engines Ltd',
      companyNumber: '01234567',
      taxIdentifier: 'GB123456789',
      status: 'active',
    });
    expect(business.id).toMatch(/^biz_[a-z\d]{26}$/);
    expect((await paddle.businesses.get(buyer.customerId, business.id)).contacts?.[0]?.email).toBe('ada@example.com');
    const updated = await paddle.businesses.update(buyer.customerId, business.id, { name: 'Difference Engines Ltd' });
    expect(updated.name).toBe('Difference Engines Ltd');

    const found: string[] = [];
    for await (const item of paddle.businesses.list(buyer.customerId, { search: 'gb1234' })) found.push(item.id);
    expect(found).toEqual([business.id]);
    const none: string[] = [];
    for await (const item of paddle.businesses.list(other.customerId)) none.push(item.id);
    expect(none).toEqual([]);

    expect(await sdkRefusal(paddle.businesses.get(other.customerId, business.id))).toBe('not_found');
    expect((await paddle.businesses.archive(buyer.customerId, business.id)).status).toBe('archived');
  });

  it('puts a business of the customer on a transaction and refuses others', async () => {
    const business = await paddle.businesses.create(buyer.customerId, { name: 'Buyer Co' });
    const foreign = await paddle.businesses.create(other.customerId, { name: 'Other Co' });
    const transaction = await paddle.transactions.create(
      {
        items: [{ priceId, quantity: 1 }],
        customerId: buyer.customerId,
        addressId: buyer.addressId,
        businessId: business.id,
      },
      { include: ['business', 'customer', 'address'] },
    );
    expect(transaction.businessId).toBe(business.id);
    expect(transaction.business?.name).toBe('Buyer Co');
    expect(transaction.customer?.id).toBe(buyer.customerId);
    expect(transaction.address?.id).toBe(buyer.addressId);

    const base = { items: [{ priceId, quantity: 1 }] };
    expect(await sdkRefusal(paddle.transactions.create({ ...base, businessId: business.id }))).toBe(
      'transaction_customer_is_required_for_business_validation',
    );
    expect(
      await sdkRefusal(
        paddle.transactions.create({
          ...base,
          customerId: buyer.customerId,
          addressId: buyer.addressId,
          businessId: foreign.id,
        }),
      ),
    ).toBe('transaction_business_customer_mismatch');
    expect(
      await sdkRefusal(
        paddle.transactions.create({
          ...base,
          customerId: buyer.customerId,
          addressId: buyer.addressId,
          businessId: 'biz_01aaaaaaaaaaaaaaaaaaaaaaaa',
        }),
      ),
    ).toBe('business_not_found');
    await paddle.businesses.archive(other.customerId, foreign.id);
    expect(
      await sdkRefusal(
        paddle.transactions.create({
          ...base,
          customerId: other.customerId,
          addressId: other.addressId,
          businessId: foreign.id,
        }),
      ),
    ).toBe('entity_archived');
  });

  it('embeds a transaction’s discount, adjustments, adjustment totals and payment methods', async () => {
    const discount = await paddle.discounts.create({ description: 'Fifth off', type: 'percentage', amount: '20' });
    const ready = await paddle.transactions.create(
      {
        items: [{ priceId, quantity: 2 }],
        customerId: buyer.customerId,
        addressId: buyer.addressId,
        discountId: discount.id,
      },
      { include: ['discount', 'available_payment_methods'] },
    );
    expect(ready.discount?.id).toBe(discount.id);
    expect(ready.availablePaymentMethods).toEqual(['card']);
    await sandbox.post(`/transactions/${ready.id}/simulate-payment`, { outcome: 'success' });
    const lineId = String(ready.details?.lineItems[0]?.id);
    const refund = await sandbox.post('/adjustments', {
      action: 'refund',
      transaction_id: ready.id,
      reason: 'Returned one',
      type: 'partial',
      items: [{ item_id: lineId, type: 'partial', amount: '1000' }],
    });
    expect(refund.status, refund.text).toBe(201);

    const fetched = await paddle.transactions.get(ready.id, { include: ['adjustment', 'adjustments_totals'] });
    expect(fetched.adjustments?.map((adjustment) => adjustment.id)).toEqual([refund.id]);
    // 2 × 25.00 less 20% is 40.00 paid; one refund of 10.00 (no tax configured).
    expect(fetched.adjustmentsTotals).toMatchObject({
      total: '1000',
      subtotal: '1000',
      tax: '0',
      breakdown: { refund: '1000', credit: '0', chargeback: '0' },
    });

    // The SDK's get() types leave available_payment_methods out; the API takes it on every read.
    const completed = await sandbox.get(`/transactions/${ready.id}?include=available_payment_methods`);
    expect(completed.entity.available_payment_methods).toEqual([]);

    const listed = paddle.transactions.list({ id: [ready.id], include: ['customer', 'discount'] });
    const [first] = await listed.next();
    expect(first?.customer?.email).toBeDefined();
    expect(first?.discount?.amount).toBe('20');
  });

  it('embeds a product’s prices and a price’s product', async () => {
    const product = await paddle.products.create({ name: 'Bundle', taxCategory: 'standard' });
    const price = await paddle.prices.create({
      productId: product.id,
      description: 'Once',
      unitPrice: { amount: '100', currencyCode: 'GBP' },
    });
    const withPrices = await paddle.products.get(product.id, { include: ['prices'] });
    expect(withPrices.prices?.map((item) => item.id)).toEqual([price.id]);
    const listed: string[][] = [];
    for await (const item of paddle.products.list({ id: [product.id], include: ['prices'] }))
      listed.push((item.prices ?? []).map((p) => p.id));
    expect(listed).toEqual([[price.id]]);
    const withProduct = await paddle.prices.get(price.id, { include: ['product'] });
    expect(withProduct.product?.name).toBe('Bundle');
  });

  it('searches customers by id and addresses by any of their fields', async () => {
    const byId: string[] = [];
    for await (const customer of paddle.customers.list({ search: buyer.customerId.toUpperCase() }))
      byId.push(customer.id);
    expect(byId).toEqual([buyer.customerId]);
    const address = await paddle.addresses.create(buyer.customerId, {
      countryCode: 'GB',
      firstLine: '221B Baker Street',
      city: 'London',
      postalCode: 'NW1 6XE',
    });
    const found: string[] = [];
    for await (const item of paddle.addresses.list(buyer.customerId, { search: 'baker st' })) found.push(item.id);
    expect(found).toEqual([address.id]);
    const none: string[] = [];
    for await (const item of paddle.addresses.list(other.customerId, { search: 'baker' })) none.push(item.id);
    expect(none).toEqual([]);
  });

  it('refuses unknown include values and unknown list parameters with invalid_field', async () => {
    for (const path of [
      '/transactions?include=everything',
      '/products?include=product',
      '/prices?include=prices',
      '/discounts?include=business',
      `/transactions/${'txn_01aaaaaaaaaaaaaaaaaaaaaaaa'}?include=nope`,
      '/products?colour=blue',
      '/transactions?search=x',
    ]) {
      const response = await sandbox.get(path);
      expect(response.status, path).toBe(400);
      expect(response.body.error?.code, path).toBe('invalid_field');
    }
  });
});
