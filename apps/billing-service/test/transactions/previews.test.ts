/**
 * `transactions.preview` and `pricingPreview.preview` through the official SDK, on both engines:
 * amounts priced and taxed as a real transaction would be (today's tax settings: 20% by
 * default, 19% for DE), formatted for display, and nothing written.
 */
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { type Environment, Paddle } from '@paddle/paddle-node-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, expectError, harnessClients } from '../support/api-client.js';
import { createProduct } from '../support/catalogue-fixtures.js';
import { officialSdk } from '../support/official-sdk.js';
import { type Buyer, createBuyer } from './transaction-fixtures.js';

describe.each(ENGINES)('%s: transaction and pricing previews', (engine) => {
  let harness: BillingHarness;
  let paddle: Paddle;
  let sandbox: ApiClient;
  let buyer: Buyer;
  let priceId: string;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine });
    ({ sandbox } = harnessClients(harness));
    paddle = officialSdk(harness.sandboxKey, harness.sandboxUrl);
    const settings = await sandbox.patch('/tax-settings', {
      default_tax_mode: 'external',
      default_rate: '0.2',
      country_rates: [{ country_code: 'DE', rate: '0.19' }],
    });
    expect(settings.status, settings.text).toBe(200);
    buyer = await createBuyer(sandbox, 'US');
    const productId = await createProduct(sandbox, { name: 'Seat' });
    const price = await sandbox.post('/prices', {
      product_id: productId,
      description: 'Seat',
      unit_price: { amount: '2999', currency_code: 'USD' },
      billing_cycle: { interval: 'month', frequency: 1 },
    });
    priceId = price.id;
  });
  afterAll(() => harness.close());

  it('transactions.preview prices and taxes the items for the customer’s address and stores nothing', async () => {
    const before = (await sandbox.get('/transactions?per_page=30')).list.length;
    const preview = await paddle.transactions.preview({
      items: [{ priceId, quantity: 3 }],
      customerId: buyer.customerId,
      addressId: buyer.addressId,
    });
    // 3 × 2999 = 8997; tax 20%: 1799.4 → 1799; one unit: 599.8 → 600.
    expect(preview.details.totals).toMatchObject({
      subtotal: '8997',
      tax: '1799',
      total: '10796',
      grandTotal: '10796',
    });
    expect(preview.details.lineItems[0]).toMatchObject({
      priceId,
      quantity: 3,
      taxRate: '0.2',
      unitTotals: { subtotal: '2999', tax: '600', total: '3599' },
    });
    expect(preview).toMatchObject({ customerId: buyer.customerId, addressId: buyer.addressId, currencyCode: 'USD' });
    expect(preview.items[0]?.price?.id).toBe(priceId);
    expect((await sandbox.get('/transactions?per_page=30')).list).toHaveLength(before);
  });

  it('pricingPreview.preview formats per-item amounts for a country without a stored address', async () => {
    const preview = await paddle.pricingPreview.preview({
      items: [{ priceId, quantity: 3 }],
      address: { countryCode: 'DE' },
    });
    const [line] = preview.details.lineItems;
    // 8997 × 19% = 1709.43 → 1709.
    expect(line?.totals).toMatchObject({ subtotal: '8997', tax: '1709', total: '10706' });
    expect(line?.formattedTotals).toMatchObject({ subtotal: '$89.97', tax: '$17.09', total: '$107.06' });
    expect(line?.formattedUnitTotals.total).toBe('$35.69');
    expect(line?.taxRate).toBe('0.19');
    expect(preview.address?.countryCode).toBe('DE');
    expect(preview.currencyCode).toBe('USD');
  });

  it('applies a catalogue discount (checked, not redeemed) and a non-catalogue one, as the transaction would', async () => {
    const percent = await paddle.discounts.create({
      description: '10% off',
      type: 'percentage',
      amount: '10',
      usageLimit: 1,
    });
    // 3 × 2999 = 8997; 10% off: 899.7 → 900 (half to even per line); 8097 taxed 20%: 1619.4 → 1619.
    const discounted = await paddle.transactions.preview({
      items: [{ priceId, quantity: 3 }],
      customerId: buyer.customerId,
      addressId: buyer.addressId,
      discountId: percent.id,
    });
    expect(discounted.discountId).toBe(percent.id);
    expect(discounted.details.totals).toMatchObject({ subtotal: '8997', discount: '900', tax: '1619', total: '9716' });
    const priced = await paddle.pricingPreview.preview({
      items: [{ priceId, quantity: 3 }],
      address: { countryCode: 'US' },
      discountId: percent.id,
    });
    expect(priced.details.lineItems[0]?.totals).toMatchObject({ discount: '900', subtotal: '8997' });
    // A preview counts no redemption: the one-use discount is still unused.
    expect((await paddle.discounts.get(percent.id)).timesUsed).toBe(0);

    // A flat non-catalogue discount of 500 in USD: 8997 - 500 = 8497, tax 1699.4 → 1699.
    const custom = await sandbox.post('/transactions/preview', {
      items: [{ price_id: priceId, quantity: 3 }],
      customer_id: buyer.customerId,
      address_id: buyer.addressId,
      currency_code: 'USD',
      discount: { description: 'Goodwill', type: 'flat', amount: '500' },
    });
    expect(custom.status, custom.text).toBe(200);
    expect((custom.entity.details as { totals: Record<string, string> }).totals).toMatchObject({
      discount: '500',
      tax: '1699',
      total: '10196',
    });
    expect((await sandbox.get('/discounts?mode=custom')).list).toEqual([]);
  });

  it('refuses discounts a transaction could not take, with the transaction’s codes', async () => {
    const limited = await paddle.discounts.create({
      description: 'Once',
      type: 'percentage',
      amount: '5',
      usageLimit: 1,
    });
    const used = await sandbox.post('/transactions', {
      items: [{ price_id: priceId, quantity: 1 }],
      customer_id: buyer.customerId,
      address_id: buyer.addressId,
      discount_id: limited.id,
    });
    expect(used.status, used.text).toBe(201);
    const body = { items: [{ price_id: priceId, quantity: 1 }], discount_id: limited.id };
    expectError(await sandbox.post('/pricing-preview', body), 400, 'discount_usage_limit_exceeded');
    expectError(
      await sandbox.post('/transactions/preview', { ...body, discount_id: 'dsc_01h00000000000000000000000' }),
      400,
      'transaction_discount_not_found',
    );
    // A non-catalogue price needs its product (ADR 1108; the rest in non-catalogue-items.test.ts).
    expectError(
      await sandbox.post('/transactions/preview', {
        items: [{ price_id: priceId, quantity: 1 }],
        discount: { description: 'Flat', type: 'flat', amount: '100' },
      }),
      400,
      'transaction_requires_currency_code_for_custom_discount',
    );
    expectError(
      await sandbox.post('/transactions/preview', {
        ...body,
        discount: { description: 'Both', type: 'percentage', amount: '5' },
      }),
      400,
      'transaction_discount_conflict',
    );
  });

  it('refuses what it does not offer by name, and ids of another account', async () => {
    expectError(
      await sandbox.post('/transactions/preview', {
        items: [{ price: { description: 'x', unit_price: { amount: '1', currency_code: 'USD' } }, quantity: 1 }],
      }),
      400,
      'invalid_field',
    );
    expectError(
      await sandbox.post('/transactions/preview', {
        items: [{ price_id: priceId, quantity: 1, include_in_totals: false }],
      }),
      400,
      'field_not_supported',
    );
    expectError(
      await sandbox.post('/transactions/preview', {
        items: [{ price_id: priceId, quantity: 1 }],
        address_id: buyer.addressId,
        address: { country_code: 'DE' },
      }),
      400,
      'invalid_field',
    );
    const strangerAccount = await harness.createAccount({ earlyAccess: true });
    const strangerKey = await harness.createKey({
      environment: 'sandbox',
      permissions: ['all'],
      accountId: strangerAccount,
    });
    const stranger = new Paddle(strangerKey, {
      environment: harness.sandboxUrl as Environment,
      logLevel: 'none' as never,
    });
    await expect(stranger.pricingPreview.preview({ items: [{ priceId, quantity: 1 }] })).rejects.toMatchObject({
      code: 'price_not_found',
    });
  });
});
