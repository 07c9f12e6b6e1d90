/**
 * The Drawdown SDK against a real service, on both engines: client-side tokens (create, get,
 * list, revoke), customer authentication tokens, and location tax through the tax settings.
 */
import { Drawdown, DrawdownApiError } from '@drawdown/sdk';
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unique } from '../support/fixtures.js';

describe.each(ENGINES)('%s: tokens and location tax', (engine) => {
  let harness: BillingHarness;
  let drawdown: Drawdown;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine });
    drawdown = new Drawdown(harness.sandboxKey, { baseUrl: harness.sandboxUrl });
  });
  afterAll(() => harness.close());

  it('creates, reads, lists and revokes client-side tokens', async () => {
    const created = await drawdown.clientTokens.create({ name: unique('site') });
    expect(created.token).toMatch(/^test_[a-z\d]{32}$/);
    expect((await drawdown.clientTokens.get(created.id)).token).toBe(created.token);
    expect((await drawdown.clientTokens.list().next()).map((token) => token.id)).toContain(created.id);
    const revoked = await drawdown.clientTokens.revoke(created.id);
    expect(revoked.status).toBe('revoked');
    expect((await drawdown.clientTokens.list({ status: ['revoked'] }).next()).map((token) => token.id)).toEqual([
      created.id,
    ]);
    const refused = await drawdown.clientTokens.get('ctkn_01h00000000000000000000000').catch((error) => error);
    expect(refused).toBeInstanceOf(DrawdownApiError);
    expect((refused as DrawdownApiError).code).toBe('not_found');
  });

  it('generates a customer auth token valid for 30 minutes', async () => {
    const customer = await drawdown.customers.create({ email: `${unique('buyer')}@example.com` });
    const issued = await drawdown.customers.generateAuthToken(customer.id);
    expect(issued.customerAuthToken).toMatch(/^pca_/);
    const minutes = (Date.parse(issued.expiresAt) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(28);
    expect(minutes).toBeLessThanOrEqual(30);
  });

  it('sets location tax as the account default and prices by the customer’s country', async () => {
    const settings = await drawdown.taxSettings.update({ defaultTaxMode: 'location', sellerCountryCode: 'DE' });
    expect(settings).toMatchObject({ defaultTaxMode: 'location', rateSource: 'account', sellerCountryCode: 'DE' });
    expect(settings.locationRates).toMatch(/^sales-tax@\d+\.\d+\.\d+ \(\d{4}-\d{2}-\d{2}\)$/);
    const product = await drawdown.products.create({ name: 'Plan', taxCategory: 'saas' });
    const price = await drawdown.prices.create({
      productId: product.id,
      description: 'One-off',
      unitPrice: { amount: '10000', currencyCode: 'EUR' },
    });
    const customer = await drawdown.customers.create({ email: `${unique('buyer')}@example.com` });
    const address = await drawdown.addresses.create(customer.id, { countryCode: 'IE' });
    const transaction = await drawdown.transactions.create({
      items: [{ priceId: price.id, quantity: 1 }],
      customerId: customer.id,
      addressId: address.id,
    });
    // Ireland, 23% inside the price: 10000 × 0.23 / 1.23 = 1869.92 → 1870.
    expect(transaction.details.totals).toMatchObject({ subtotal: '8130', tax: '1870', total: '10000' });
  });
});
