/**
 * Tax by location (ADR 1430) through the official SDK, on both engines: prices in `location`
 * mode, and `account_setting` with the account default `location`, take the rate of the
 * customer's country and region from the sales-tax dataset, inclusive in the EU, the UK and
 * Australia, exclusive in the US; the pricing preview, the transaction preview and the stored
 * transaction show the same tax; an EU business with a VAT id is reverse charged.
 */
import { TAX_RATE_DATASET } from '@drawdown/billing-core';
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import type { Paddle } from '@paddle/paddle-node-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, apiClient, expectError, expectInvalidField, harnessClients } from '../support/api-client.js';
import { createProduct, unique } from '../support/catalogue-fixtures.js';
import { officialSdk } from '../support/official-sdk.js';
import { pdfText } from './pdf-text.js';

interface Place {
  readonly country_code: string;
  readonly region?: string;
  readonly postal_code?: string;
}

/** The dataset's current rate of a country, or of a region (whose country adds nothing here). */
function datasetRate(country: string, region?: string): string | undefined {
  const entry = TAX_RATE_DATASET.countries[country];
  return region === undefined ? entry?.rate : entry?.regions?.[region]?.rate;
}

describe.each(ENGINES)('%s: tax by location', (engine) => {
  let harness: BillingHarness;
  let paddle: Paddle;
  let sandbox: ApiClient;
  let locationPrice: string;
  let accountSettingPrice: string;
  let externalPrice: string;

  async function buyer(place: Place, taxIdentifier?: string) {
    const customer = await sandbox.post('/customers', { email: `${unique('buyer')}@example.com` });
    expect(customer.status, customer.text).toBe(201);
    const address = await sandbox.post(`/customers/${customer.id}/addresses`, { ...place, city: 'Somewhere' });
    expect(address.status, address.text).toBe(201);
    let businessId: string | undefined;
    if (taxIdentifier) {
      const business = await sandbox.post(`/customers/${customer.id}/businesses`, {
        name: 'Buyer SARL',
        tax_identifier: taxIdentifier,
      });
      expect(business.status, business.text).toBe(201);
      businessId = business.id;
    }
    return { customerId: customer.id, addressId: address.id, businessId };
  }

  async function taxed(place: Place, priceId = locationPrice, taxIdentifier?: string) {
    const party = await buyer(place, taxIdentifier);
    const transaction = await paddle.transactions.create({
      items: [{ priceId, quantity: 1 }],
      customerId: party.customerId,
      addressId: party.addressId,
      ...(party.businessId ? { businessId: party.businessId } : {}),
    });
    return { party, transaction };
  }

  beforeAll(async () => {
    harness = await startBillingHarness({ engine });
    ({ sandbox } = harnessClients(harness));
    paddle = officialSdk(harness.sandboxKey, harness.sandboxUrl);
    const settings = await sandbox.patch('/tax-settings', { default_tax_mode: 'location', seller_country_code: 'DE' });
    expect(settings.status, settings.text).toBe(200);
    expect(settings.entity).toMatchObject({
      default_tax_mode: 'location',
      rate_source: 'account',
      seller_country_code: 'DE',
      location_rates: `sales-tax@${TAX_RATE_DATASET.version} (${TAX_RATE_DATASET.published})`,
    });
    const productId = await createProduct(sandbox, { name: 'Seat' });
    const create = async (taxMode: 'location' | 'account_setting' | 'external') =>
      (
        await paddle.prices.create({
          productId,
          description: `Seat, ${taxMode}`,
          unitPrice: { amount: '10000', currencyCode: 'USD' },
          taxMode: taxMode as never,
        })
      ).id;
    locationPrice = await create('location');
    accountSettingPrice = await create('account_setting');
    externalPrice = await create('external');
  });
  afterAll(() => harness.close());

  it('offers location as a price tax mode and reads it back', async () => {
    expect((await paddle.prices.get(locationPrice)).taxMode).toBe('location');
  });

  it('charges German VAT (EU) inside the price, at the dataset’s 19%', async () => {
    expect(datasetRate('DE')).toBe('0.19');
    const { transaction } = await taxed({ country_code: 'DE', postal_code: '10115' });
    // Inclusive: tax = 10000 × 0.19 / 1.19 = 1596.64 → 1597.
    expect(transaction.details?.totals).toMatchObject({ subtotal: '8403', tax: '1597', total: '10000' });
    expect(transaction.details?.taxRatesUsed).toEqual([
      { taxRate: '0.19', totals: { subtotal: '8403', discount: '0', tax: '1597', total: '10000' } },
    ]);
    expect(transaction.details?.lineItems[0]?.taxRate).toBe('0.19');
  });

  it('charges UK VAT inside the price, at 20%', async () => {
    expect(datasetRate('GB')).toBe('0.2');
    const { transaction } = await taxed({ country_code: 'GB', postal_code: 'SW1A 1AA' });
    // 10000 × 0.2 / 1.2 = 1666.67 → 1667.
    expect(transaction.details?.totals).toMatchObject({ subtotal: '8333', tax: '1667', total: '10000' });
    expect(transaction.details?.taxRatesUsed.map((used) => used.taxRate)).toEqual(['0.2']);
  });

  it('adds Californian sales tax (US) on top of the price, from the region or the ZIP code', async () => {
    expect(datasetRate('US', 'CA')).toBe('0.0825');
    const byRegion = await taxed({ country_code: 'US', region: 'California', postal_code: '94105' });
    expect(byRegion.transaction.details?.totals).toMatchObject({ subtotal: '10000', tax: '825', total: '10825' });
    const byZip = await taxed({ country_code: 'US', postal_code: '94105' });
    expect(byZip.transaction.details?.taxRatesUsed.map((used) => used.taxRate)).toEqual(['0.0825']);
    // Oregon has no sales tax.
    const oregon = await taxed({ country_code: 'US', postal_code: '97201' });
    expect(oregon.transaction.details?.totals).toMatchObject({ tax: '0', total: '10000' });
    expect(oregon.transaction.details?.taxRatesUsed.map((used) => used.taxRate)).toEqual(['0']);
  });

  it('charges Australian GST inside the price, at 10%', async () => {
    expect(datasetRate('AU')).toBe('0.1');
    const { transaction } = await taxed({ country_code: 'AU', region: 'NSW', postal_code: '2000' });
    // 10000 × 0.1 / 1.1 = 909.09 → 909.
    expect(transaction.details?.totals).toMatchObject({ subtotal: '9091', tax: '909', total: '10000' });
  });

  it('charges nothing in a country the dataset has no tax for', async () => {
    expect(TAX_RATE_DATASET.countries.HK).toBeUndefined();
    const { transaction } = await taxed({ country_code: 'HK' });
    expect(transaction.details?.totals).toMatchObject({ subtotal: '10000', tax: '0', total: '10000' });
    expect(transaction.details?.taxRatesUsed).toEqual([
      { taxRate: '0', totals: { subtotal: '10000', discount: '0', tax: '0', total: '10000' } },
    ]);
  });

  it('takes location tax for account_setting prices when the account default is location', async () => {
    const { transaction } = await taxed({ country_code: 'DE', postal_code: '10115' }, accountSettingPrice);
    expect(transaction.details?.totals).toMatchObject({ tax: '1597', total: '10000' });
    // An external price keeps the account's own rates (ADR 0403: 0% until set) unless rate_source is location.
    const external = await taxed({ country_code: 'DE', postal_code: '10115' }, externalPrice);
    expect(external.transaction.details?.totals).toMatchObject({ tax: '0', total: '10000' });
  });

  it('reverse charges a French business with a VAT id buying from a German seller, not one without', async () => {
    const business = await taxed({ country_code: 'FR', postal_code: '75001' }, locationPrice, 'FR40303265045');
    expect(business.transaction.businessId).toBe(business.party.businessId);
    expect(business.transaction.details?.totals).toMatchObject({ subtotal: '10000', tax: '0', total: '10000' });
    expect(business.transaction.details?.taxRatesUsed.map((used) => used.taxRate)).toEqual(['0']);
    const malformed = await taxed({ country_code: 'FR', postal_code: '75001' }, locationPrice, 'FR-not-a-vat-id');
    // 10000 × 0.2 / 1.2 → 1667.
    expect(malformed.transaction.details?.totals).toMatchObject({ tax: '1667' });
    const consumer = await taxed({ country_code: 'FR', postal_code: '75001' });
    expect(consumer.transaction.details?.totals).toMatchObject({ tax: '1667' });
  });

  it('prints the same tax on the invoice, and says when VAT was reverse charged', async () => {
    const invoiceText = async (transactionId: string) => {
      const paid = await sandbox.post(`/transactions/${transactionId}/simulate-payment`, { outcome: 'success' });
      expect(paid.status, paid.text).toBe(200);
      const link = await sandbox.get(`/transactions/${transactionId}/invoice`);
      expect(link.status, link.text).toBe(200);
      const pdf = await fetch(String(link.entity.url));
      expect(pdf.status).toBe(200);
      return (await pdfText(new Uint8Array(await pdf.arrayBuffer()))).text;
    };
    const german = await taxed({ country_code: 'DE', postal_code: '10115' });
    const germanText = await invoiceText(german.transaction.id);
    // 19% VAT of 1597 inside the 10000 total.
    expect(germanText).toContain('19%');
    expect(germanText).toContain('$15.97');
    expect(germanText).toContain('$100.00');
    expect(germanText).not.toContain('Reverse charge');
    const business = await taxed({ country_code: 'FR', postal_code: '75001' }, locationPrice, 'FR40303265045');
    const businessText = await invoiceText(business.transaction.id);
    expect(businessText).toContain('0%');
    expect(businessText).toContain('Reverse charge');
    expect(businessText).toContain('FR40303265045');
  });

  it('recomputes the tax when a ready transaction moves to another address, as checkout does', async () => {
    const { party, transaction } = await taxed({ country_code: 'DE', postal_code: '10115' });
    expect(transaction.details?.totals).toMatchObject({ tax: '1597', total: '10000' });
    const moved = await sandbox.post(`/customers/${party.customerId}/addresses`, {
      country_code: 'US',
      region: 'New York',
      postal_code: '10001',
    });
    expect(moved.status, moved.text).toBe(201);
    const updated = await paddle.transactions.update(transaction.id, { addressId: moved.id });
    // New York's 4% on top of the price.
    expect(updated.details?.totals).toMatchObject({ subtotal: '10000', tax: '400', total: '10400' });
    expect(updated.details?.taxRatesUsed.map((used) => used.taxRate)).toEqual(['0.04']);
  });

  it('shows the same tax in the pricing preview, the transaction preview and the transaction', async () => {
    const { party, transaction } = await taxed({ country_code: 'US', region: 'CA', postal_code: '94105' });
    const preview = await paddle.transactions.preview({
      items: [{ priceId: locationPrice, quantity: 1 }],
      customerId: party.customerId,
      addressId: party.addressId,
    });
    expect(preview.details.totals).toMatchObject(transaction.details?.totals ?? {});
    expect(preview.details.taxRatesUsed).toEqual(transaction.details?.taxRatesUsed);
    const pricing = await paddle.pricingPreview.preview({
      items: [{ priceId: locationPrice, quantity: 1 }],
      address: { countryCode: 'US', postalCode: '94105' },
    });
    expect(pricing.details.lineItems[0]?.taxRate).toBe('0.0825');
    expect(pricing.details.lineItems[0]?.totals).toMatchObject({ subtotal: '10000', tax: '825', total: '10825' });
    expect(pricing.details.lineItems[0]?.formattedTotals.total).toBe('$108.25');
  });

  it('reverse charges in the preview too when it names the business', async () => {
    const party = await buyer({ country_code: 'FR', postal_code: '75001' }, 'FR40303265045');
    const preview = await paddle.pricingPreview.preview({
      items: [{ priceId: locationPrice, quantity: 1 }],
      customerId: party.customerId,
      addressId: party.addressId,
      businessId: party.businessId ?? null,
    });
    expect(preview.businessId).toBe(party.businessId);
    expect(preview.details.lineItems[0]?.totals).toMatchObject({ tax: '0', total: '10000' });
    const transactionPreview = await paddle.transactions.preview({
      items: [{ priceId: locationPrice, quantity: 1 }],
      customerId: party.customerId,
      addressId: party.addressId,
      businessId: party.businessId ?? null,
    });
    expect(transactionPreview.businessId).toBe(party.businessId);
    expect(transactionPreview.details.totals).toMatchObject({ tax: '0', total: '10000' });
    // A business needs its customer, and must be the customer's.
    const other = await buyer({ country_code: 'FR' }, 'FR40303265045');
    expectError(
      await sandbox.post('/pricing-preview', {
        items: [{ price_id: locationPrice, quantity: 1 }],
        business_id: party.businessId,
      }),
      400,
      'transaction_customer_is_required_for_business_validation',
    );
    expectError(
      await sandbox.post('/pricing-preview', {
        items: [{ price_id: locationPrice, quantity: 1 }],
        customer_id: other.customerId,
        business_id: party.businessId,
      }),
      400,
      'transaction_business_customer_mismatch',
    );
    // A business of another account, or an archived one, is refused too.
    const strangerAccount = await harness.createAccount({ earlyAccess: false });
    const stranger = apiClient(
      harness.sandboxUrl,
      await harness.createKey({ environment: 'sandbox', permissions: ['all'], accountId: strangerAccount }),
    );
    const strangerCustomer = await stranger.post('/customers', { email: `${unique('stranger')}@example.com` });
    const strangerBusiness = await stranger.post(`/customers/${strangerCustomer.id}/businesses`, { name: 'Theirs' });
    expect(strangerBusiness.status, strangerBusiness.text).toBe(201);
    expectError(
      await sandbox.post('/pricing-preview', {
        items: [{ price_id: locationPrice, quantity: 1 }],
        customer_id: party.customerId,
        business_id: strangerBusiness.id,
      }),
      400,
      'business_not_found',
    );
    const archived = await sandbox.patch(`/customers/${other.customerId}/businesses/${other.businessId}`, {
      status: 'archived',
    });
    expect(archived.status, archived.text).toBe(200);
    expectError(
      await sandbox.post('/transactions/preview', {
        items: [{ price_id: locationPrice, quantity: 1 }],
        customer_id: other.customerId,
        business_id: other.businessId,
      }),
      400,
      'entity_archived',
    );
  });

  it('carries the business, and its reverse charge, onto the subscription’s renewals; the rate follows the address', async () => {
    const productId = await createProduct(sandbox, { name: 'Plan' });
    const monthly = await paddle.prices.create({
      productId,
      description: 'Monthly plan',
      unitPrice: { amount: '10000', currencyCode: 'USD' },
      billingCycle: { interval: 'month', frequency: 1 },
      taxMode: 'location' as never,
    });
    const business = await buyer({ country_code: 'FR', postal_code: '75001' }, 'FR40303265045');
    const consumer = await buyer({ country_code: 'AU', postal_code: '2000' });
    const subscriptionOf = async (party: Awaited<ReturnType<typeof buyer>>) => {
      const checkout = await sandbox.post('/transactions', {
        items: [{ price_id: monthly.id, quantity: 1 }],
        customer_id: party.customerId,
        address_id: party.addressId,
        ...(party.businessId ? { business_id: party.businessId } : {}),
      });
      expect(checkout.status, checkout.text).toBe(201);
      const paid = await sandbox.post(`/transactions/${checkout.id}/simulate-payment`, { outcome: 'success' });
      expect(paid.status, paid.text).toBe(200);
      return String(paid.entity.subscription_id);
    };
    const businessSubscription = await subscriptionOf(business);
    const consumerSubscription = await subscriptionOf(consumer);
    const advanced = await sandbox.post('/sandbox-clock/advance', { seconds: 32 * 86_400 });
    expect(advanced.status, advanced.text).toBe(200);
    const renewalOf = async (subscriptionId: string) => {
      const list = await sandbox.get(`/transactions?subscription_id=${subscriptionId}&origin=subscription_recurring`);
      expect(list.list, list.text).toHaveLength(1);
      return list.list[0] as { business_id: string | null; details: { totals: Record<string, string> } };
    };
    const businessRenewal = await renewalOf(businessSubscription);
    expect(businessRenewal.business_id).toBe(business.businessId);
    expect(businessRenewal.details.totals).toMatchObject({ tax: '0', total: '10000' });
    const consumerRenewal = await renewalOf(consumerSubscription);
    expect(consumerRenewal.business_id).toBeNull();
    expect(consumerRenewal.details.totals).toMatchObject({ tax: '909', total: '10000' });
  });

  it('takes location rates for inclusive and exclusive prices when rate_source is location', async () => {
    const settings = await sandbox.patch('/tax-settings', { rate_source: 'location' });
    expect(settings.entity).toMatchObject({ rate_source: 'location', default_tax_mode: 'location' });
    try {
      const { transaction } = await taxed({ country_code: 'AU', postal_code: '2000' }, externalPrice);
      // External: 10000 + 10%.
      expect(transaction.details?.totals).toMatchObject({ subtotal: '10000', tax: '1000', total: '11000' });
    } finally {
      expect((await sandbox.patch('/tax-settings', { rate_source: 'account' })).status).toBe(200);
    }
  });

  it('takes the account’s location overrides where they match: a ZIP code’s local tax, a state’s exempt category (ADR 1467)', async () => {
    // The suite's location price is of a `saas` product; this one is `standard`.
    const standardProduct = await createProduct(sandbox, { name: 'Boxed kit', tax_category: 'standard' });
    const standardPrice = (
      await paddle.prices.create({
        productId: standardProduct,
        description: 'Boxed kit, location',
        unitPrice: { amount: '10000', currencyCode: 'USD' },
        taxMode: 'location' as never,
      })
    ).id;
    const overrides = [
      // San Francisco: California's 7.25% state rate plus local district taxes, 8.625% in all.
      { country_code: 'US', postal_code_prefix: '94105', rate: '0.08625' },
      // Texas: the state's rate, but nothing on SaaS (an operator's choice, for the test).
      { country_code: 'US', region: 'TX', tax_category: 'saas', rate: '0' },
      { country_code: 'US', region: 'TX', rate: '0.0825' },
    ];
    const set = await sandbox.patch('/tax-settings', { location_overrides: overrides });
    expect(set.status, set.text).toBe(200);
    expect(set.entity.location_overrides).toEqual([
      { country_code: 'US', region: null, postal_code_prefix: '94105', tax_category: null, rate: '0.08625' },
      { country_code: 'US', region: 'TX', postal_code_prefix: null, tax_category: null, rate: '0.0825' },
      { country_code: 'US', region: 'TX', postal_code_prefix: null, tax_category: 'saas', rate: '0' },
    ]);
    try {
      const sanFrancisco = await taxed({ country_code: 'US', postal_code: '94105-1804' });
      // Exclusive in the US: 10000 + 8.625% = 862.5 → 862 (half to even).
      expect(sanFrancisco.transaction.details?.totals).toMatchObject({ subtotal: '10000', tax: '862', total: '10862' });
      expect(sanFrancisco.transaction.details?.taxRatesUsed.map((used) => used.taxRate)).toEqual(['0.08625']);
      // Elsewhere in California, the dataset's rate still.
      const losAngeles = await taxed({ country_code: 'US', postal_code: '90012' });
      expect(losAngeles.transaction.details?.taxRatesUsed.map((used) => used.taxRate)).toEqual([
        datasetRate('US', 'CA'),
      ]);
      // Texas by region name or by ZIP: the category's override beats the state's.
      const dallas = await taxed({ country_code: 'US', region: 'Texas', postal_code: '75201' });
      expect(dallas.transaction.details?.totals).toMatchObject({ tax: '0', total: '10000' });
      const houston = await taxed({ country_code: 'US', postal_code: '77002' }, standardPrice);
      expect(houston.transaction.details?.totals).toMatchObject({ tax: '825', total: '10825' });
      // The preview computes with the same overrides.
      const preview = await paddle.pricingPreview.preview({
        items: [{ priceId: locationPrice, quantity: 1 }],
        address: { countryCode: 'US', postalCode: '94105' },
      });
      expect(preview.details.lineItems[0]?.taxRate).toBe('0.08625');
    } finally {
      expect((await sandbox.patch('/tax-settings', { location_overrides: [] })).entity.location_overrides).toEqual([]);
    }
    // Without overrides, San Francisco pays the dataset's state rate again.
    const after = await taxed({ country_code: 'US', postal_code: '94105' });
    expect(after.transaction.details?.taxRatesUsed.map((used) => used.taxRate)).toEqual([datasetRate('US', 'CA')]);
  });

  it('refuses bad settings and changes nothing', async () => {
    const before = (await sandbox.get('/tax-settings')).entity;
    expectInvalidField(await sandbox.patch('/tax-settings', { seller_country_code: 'de' }), 'seller_country_code');
    expectInvalidField(await sandbox.patch('/tax-settings', { rate_source: 'dataset' }), 'rate_source');
    expectInvalidField(
      await sandbox.patch('/tax-settings', { default_tax_mode: 'account_setting' }),
      'default_tax_mode',
    );
    const override = { country_code: 'US', region: 'CA', rate: '0.09' };
    const newYork = { country_code: 'US', region: 'NY', rate: '0.04' };
    const refusedOverride = async (entry: Record<string, unknown>, field: string, list = [override, entry]) =>
      expectInvalidField(await sandbox.patch('/tax-settings', { location_overrides: list }), field);
    await refusedOverride({ ...newYork, country_code: 'us' }, 'location_overrides[1].country_code');
    await refusedOverride({ ...newYork, region: 'California' }, 'location_overrides[1].region');
    await refusedOverride({ ...newYork, postal_code_prefix: '941 05' }, 'location_overrides[1].postal_code_prefix');
    await refusedOverride({ ...newYork, tax_category: 'groceries' }, 'location_overrides[1].tax_category');
    await refusedOverride({ ...newYork, rate: '0.5%' }, 'location_overrides[1].rate');
    await refusedOverride({ ...newYork, rate: '1.5' }, 'location_overrides[1].rate');
    // The same place and category twice, however written (an absent region is null).
    await refusedOverride({ ...override }, 'location_overrides[1].country_code');
    await refusedOverride({ country_code: 'US', region: null, rate: '0.01' }, 'location_overrides[1].country_code', [
      { country_code: 'US', rate: '0.02' },
      { country_code: 'US', region: null, rate: '0.01' },
    ]);
    expectError(
      await sandbox.patch('/tax-settings', { location_overrides: [{ ...override, county: 'Alameda' }] }),
      400,
      'invalid_field',
    );
    expect((await sandbox.get('/tax-settings')).entity).toEqual(before);
  });
});
