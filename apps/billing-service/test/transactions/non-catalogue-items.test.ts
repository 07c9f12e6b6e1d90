/**
 * Non-catalogue items (ADR 1108) through the official SDK, on both engines: `items[].price` for
 * a catalogue product (`productId`) or with a product of its own (`product`), on create, update
 * and preview. They are billed exactly and taxed by the same resolver as catalogue prices
 * (totals hand-computed below), stored as `custom` entities with ids and `custom_data` that
 * `GET` answers and lists leave out unless asked for `type=custom`; a preview stores nothing;
 * malformed items (and another environment's product) are refused with a specific code and write nothing.
 */
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { ApiError, type Paddle } from '@paddle/paddle-node-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, expectError, harnessClients, type WireObject } from '../support/api-client.js';
import { createProduct } from '../support/catalogue-fixtures.js';
import { officialSdk } from '../support/official-sdk.js';
import { type Buyer, createBuyer, createOneOffPrice } from './transaction-fixtures.js';

describe.each(ENGINES)('%s: non-catalogue items', (engine) => {
  let harness: BillingHarness;
  let sandbox: ApiClient;
  let live: ApiClient;
  let paddle: Paddle;
  let buyer: Buyer;
  let catalogueProduct: string;
  let cataloguePrice: string;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine });
    ({ sandbox, live } = harnessClients(harness));
    paddle = officialSdk(harness.sandboxKey, harness.sandboxUrl);
    await sandbox.patch('/tax-settings', { country_rates: [{ country_code: 'GB', rate: '0.2' }] });
    buyer = await createBuyer(sandbox, 'GB');
    catalogueProduct = await createProduct(sandbox, { name: 'Consulting' });
    cataloguePrice = await createOneOffPrice(sandbox, '1000', 'GBP');
  });
  afterAll(() => harness.close());

  /** How many custom prices and products the environment holds. */
  async function customCounts(): Promise<{ prices: number; products: number }> {
    const prices = await sandbox.get('/prices?type=custom&per_page=200');
    const products = await sandbox.get('/products?type=custom&per_page=200');
    return { prices: prices.list.length, products: products.list.length };
  }

  it('bills catalogue and non-catalogue items together, exactly, and stores them as custom entities', async () => {
    const transaction = await paddle.transactions.create({
      customerId: buyer.customerId,
      addressId: buyer.addressId,
      items: [
        { priceId: cataloguePrice, quantity: 2 },
        {
          price: {
            description: 'Agreed rate for Acme',
            name: 'Bespoke hour',
            productId: catalogueProduct,
            unitPrice: { amount: '2550', currencyCode: 'GBP' },
            customData: { deal: 'acme-2026' },
          },
          quantity: 1,
        },
        {
          price: {
            description: 'Three e-books',
            unitPrice: { amount: '333', currencyCode: 'GBP' },
            quantity: { minimum: 1, maximum: 10 },
            product: { name: 'Difference Engine manual', taxCategory: 'ebooks', customData: { sku: 'DE-1' } },
          },
          quantity: 3,
        },
        {
          price: {
            description: 'Tax-inclusive setup fee',
            unitPrice: { amount: '1200', currencyCode: 'GBP' },
            taxMode: 'internal',
            product: { name: 'Setup', taxCategory: 'standard' },
          },
          quantity: 1,
        },
      ],
    });
    // By hand, 20% GB tax, rounded half to even per line:
    //   catalogue 1000 × 2 = 2000, tax 400
    //   bespoke   2550 × 1 = 2550, tax 510
    //   e-books    333 × 3 =  999, tax 199.8 → 200
    //   setup     1200 gross incl. tax: tax 1200 × 0.2 / 1.2 = 200, net 1000
    expect(transaction.details?.totals).toMatchObject({
      subtotal: '6549',
      discount: '0',
      tax: '1310',
      total: '7859',
      grandTotal: '7859',
    });
    const lines = transaction.details?.lineItems ?? [];
    expect(lines.map((line) => [line.totals?.subtotal, line.totals?.tax, line.totals?.total])).toEqual([
      ['2000', '400', '2400'],
      ['2550', '510', '3060'],
      ['999', '200', '1199'],
      ['1000', '200', '1200'],
    ]);

    const [, bespoke, ebooks, setup] = transaction.items;
    expect(bespoke?.price).toMatchObject({
      type: 'custom',
      productId: catalogueProduct,
      description: 'Agreed rate for Acme',
      name: 'Bespoke hour',
      customData: { deal: 'acme-2026' },
      status: 'active',
    });
    expect(bespoke?.price?.id).toMatch(/^pri_/);
    expect(ebooks?.price?.productId).toMatch(/^pro_/);
    expect(ebooks?.price?.productId).not.toBe(catalogueProduct);
    expect(setup?.price?.taxMode).toBe('internal');
    expect(lines[2]?.product).toMatchObject({
      name: 'Difference Engine manual',
      type: 'custom',
      customData: { sku: 'DE-1' },
    });

    // Real entities: GET answers them; lists leave them out unless asked for type=custom.
    const price = await paddle.prices.get(String(bespoke?.price?.id));
    expect(price.type).toBe('custom');
    expect(price.customData).toEqual({ deal: 'acme-2026' });
    const product = await paddle.products.get(String(ebooks?.price?.productId));
    expect(product).toMatchObject({ type: 'custom', taxCategory: 'ebooks', customData: { sku: 'DE-1' } });
    const listed = (await sandbox.get('/prices?per_page=200')).list.map((entry) => entry.id);
    expect(listed).toContain(cataloguePrice);
    expect(listed).not.toContain(bespoke?.price?.id);
    const custom = (await sandbox.get('/prices?type=custom&per_page=200')).list.map((entry) => entry.id);
    expect(custom).toEqual(expect.arrayContaining([bespoke?.price?.id, ebooks?.price?.id, setup?.price?.id]));
    expect((await sandbox.get('/products?per_page=200')).list.map((entry) => entry.id)).not.toContain(
      ebooks?.price?.productId,
    );
    // The catalogue product's own prices stay its catalogue prices.
    const withPrices = await sandbox.get(`/products/${catalogueProduct}?include=prices`);
    expect((withPrices.entity.prices as WireObject[]).map((entry) => entry.id)).not.toContain(bespoke?.price?.id);
  });

  it('replaces the items of a ready transaction with a non-catalogue price, and bills it', async () => {
    const created = await paddle.transactions.create({
      customerId: buyer.customerId,
      addressId: buyer.addressId,
      collectionMode: 'manual',
      items: [{ priceId: cataloguePrice, quantity: 1 }],
    });
    const updated = await paddle.transactions.update(created.id, {
      items: [
        {
          price: {
            description: 'Renegotiated',
            productId: catalogueProduct,
            unitPrice: { amount: '12345', currencyCode: 'GBP' },
          },
          quantity: 7,
        },
      ],
    });
    // 12345 × 7 = 86415; tax 17283; total 103698.
    expect(updated.details?.totals).toMatchObject({ subtotal: '86415', tax: '17283', total: '103698' });
    expect(updated.items[0]?.price?.type).toBe('custom');
    const billed = await paddle.transactions.update(created.id, { status: 'billed' });
    expect(billed.status).toBe('billed');
    expect(billed.details?.totals?.balance).toBe('103698');
  });

  it('prices a recurring non-catalogue price by its country override, and starts a subscription on it once paid', async () => {
    const transaction = await paddle.transactions.create({
      customerId: buyer.customerId,
      addressId: buyer.addressId,
      items: [
        {
          price: {
            description: 'Enterprise plan for Acme',
            productId: catalogueProduct,
            unitPrice: { amount: '10000', currencyCode: 'GBP' },
            unitPriceOverrides: [{ countryCodes: ['GB'], unitPrice: { amount: '9000', currencyCode: 'GBP' } }],
            billingCycle: { interval: 'month', frequency: 1 },
          },
          quantity: 2,
        },
      ],
    });
    // The GB override: 9000 × 2 = 18000, tax 3600.
    expect(transaction.details?.totals).toMatchObject({ subtotal: '18000', tax: '3600', total: '21600' });
    const [plan] = transaction.items;
    expect(plan?.price?.billingCycle).toEqual({ interval: 'month', frequency: 1 });
    const paid = await sandbox.post(`/transactions/${transaction.id}/simulate-payment`, { outcome: 'success' });
    expect(paid.status, paid.text).toBe(200);
    const subscriptionId = String(paid.entity.subscription_id);
    expect(subscriptionId).toMatch(/^sub_/);
    const subscription = await paddle.subscriptions.get(subscriptionId);
    expect(subscription.items.map((item) => item.price?.id)).toEqual([plan?.price?.id]);
    expect(subscription.status).toBe('active');

    // A trial on a recurring non-catalogue price: the first transaction bills nothing for it.
    const trial = await paddle.transactions.create({
      customerId: buyer.customerId,
      addressId: buyer.addressId,
      items: [
        {
          price: {
            description: 'Add-on with a trial',
            productId: catalogueProduct,
            unitPrice: { amount: '500', currencyCode: 'GBP' },
            billingCycle: { interval: 'month', frequency: 1 },
            trialPeriod: { interval: 'day', frequency: 14 },
          },
          quantity: 1,
        },
      ],
    });
    expect(trial.items[0]?.price?.trialPeriod).toMatchObject({ interval: 'day', frequency: 14 });
    expect(trial.details?.totals).toMatchObject({ subtotal: '0', tax: '0', total: '0' });
  });

  it('previews a non-catalogue price without storing it', async () => {
    const before = await customCounts();
    const preview = await paddle.transactions.preview({
      addressId: buyer.addressId,
      customerId: buyer.customerId,
      items: [
        { priceId: cataloguePrice, quantity: 1 },
        {
          price: {
            description: 'Quote',
            unitPrice: { amount: '5005', currencyCode: 'GBP' },
            product: { name: 'Quoted work', taxCategory: 'professional-services' },
          },
          quantity: 2,
        },
      ],
    });
    // 1000 + 10010 = 11010; tax 200 + 2002 = 2202; total 13212.
    expect(preview.details.totals).toMatchObject({ subtotal: '11010', tax: '2202', total: '13212' });
    expect(preview.items[1]?.price).toMatchObject({ type: 'custom', description: 'Quote' });
    expect(await customCounts()).toEqual(before);
  });

  it('refuses malformed items with a specific code and stores nothing', async () => {
    const before = await customCounts();
    {
      const foreignProduct = await createProduct(live);
      const archived = await createProduct(sandbox);
      await sandbox.patch(`/products/${archived}`, { status: 'archived' });
      const price = (changes: WireObject = {}): WireObject => ({
        description: 'x',
        unit_price: { amount: '100', currency_code: 'GBP' },
        product_id: catalogueProduct,
        ...changes,
      });
      const cases: [string, WireObject, string][] = [
        ['price_id and price', { price_id: cataloguePrice, price: price(), quantity: 1 }, 'invalid_field'],
        ['neither price_id nor price', { quantity: 1 }, 'invalid_field'],
        [
          'product_id and product',
          { price: price({ product: { name: 'P', tax_category: 'saas' } }), quantity: 1 },
          'invalid_field',
        ],
        ['neither product_id nor product', { price: price({ product_id: undefined }), quantity: 1 }, 'invalid_field'],
        ['a live product', { price: price({ product_id: foreignProduct }), quantity: 1 }, 'product_not_found'],
        ['an archived product', { price: price({ product_id: archived }), quantity: 1 }, 'entity_archived'],
        [
          'a fractional amount',
          { price: price({ unit_price: { amount: '1.5', currency_code: 'GBP' } }), quantity: 1 },
          'invalid_field',
        ],
        [
          'an unknown currency',
          { price: price({ unit_price: { amount: '100', currency_code: 'XXX' } }), quantity: 1 },
          'invalid_field',
        ],
        ['allowances', { price: price({ allowances: [] }), quantity: 1 }, 'invalid_field'],
        ['a type', { price: price({ type: 'standard' }), quantity: 1 }, 'invalid_field'],
        [
          'a trial on a one-off price',
          { price: price({ trial_period: { interval: 'day', frequency: 7 } }), quantity: 1 },
          'price_trial_period_requires_billing_cycle',
        ],
      ];
      for (const [name, item, code] of cases) {
        const body = { customer_id: buyer.customerId, address_id: buyer.addressId, items: [item] };
        const created = await sandbox.post('/transactions', body);
        expect(created.body.error?.code, `${name}: ${created.text}`).toBe(code);
        expectError(created, created.status, code);
        const previewed = await sandbox.post('/transactions/preview', { items: [item] });
        expect(previewed.body.error?.code, `preview, ${name}: ${previewed.text}`).toBe(code);
      }
      try {
        await paddle.transactions.create({
          items: [
            {
              price: {
                description: 'x',
                unitPrice: { amount: '-1', currencyCode: 'GBP' },
                productId: catalogueProduct,
              },
              quantity: 1,
            },
          ],
        });
        expect.unreachable();
      } catch (error) {
        expect(error instanceof ApiError && error.code).toBe('invalid_field');
      }
    }
    expect(await customCounts()).toEqual(before);
  });
});
