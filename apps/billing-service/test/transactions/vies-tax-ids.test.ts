/**
 * EU VAT ids checked with VIES before reverse charge (ADR 1437), on both engines, through the
 * official SDK, against a local server speaking VIES's REST wire format. The seller is German,
 * default tax mode `location`; every price is 100.00 inclusive of tax. A registered French id is
 * reverse charged; a well-formed one VIES does not know is charged French VAT (20%: 10000 × 0.2 /
 * 1.2 = 1666.67 → 1667); with VIES down the id is reverse charged on its format and recorded
 * unverified; verdicts are reused, so renewals do not call VIES again within the lifetime, and
 * a renewal with VIES down keeps the last verdict and never fails. With `--vat-id-unavailable
 * charge`, an id VIES cannot confirm pays VAT until it does.
 */
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { type Environment, Paddle } from '@paddle/paddle-node-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutClient } from '../payments/checkout-client.js';
import { type ApiClient, harnessClients } from '../support/api-client.js';
import { unique } from '../support/catalogue-fixtures.js';
import { type FakeVies, startFakeVies } from '../support/vies/fake-vies-server.js';
import { pdfText } from './pdf-text.js';

const DAY_SECONDS = 86_400;

describe.each(ENGINES)('%s: VAT ids checked with VIES', (engine) => {
  let vies: FakeVies;
  let harness: BillingHarness;
  let paddle: Paddle;
  let sandbox: ApiClient;
  let oneOffPrice: string;
  let weeklyPrice: string;

  async function buyer(country: string, postalCode: string, taxIdentifier: string) {
    const customer = await paddle.customers.create({ email: `${unique('buyer')}@example.com` });
    const address = await paddle.addresses.create(customer.id, { countryCode: country as never, postalCode });
    const business = await paddle.businesses.create(customer.id, { name: 'Buyer SA', taxIdentifier });
    return { customerId: customer.id, addressId: address.id, businessId: business.id };
  }

  async function buy(party: Awaited<ReturnType<typeof buyer>>, priceId = oneOffPrice) {
    return paddle.transactions.create({
      items: [{ priceId, quantity: 1 }],
      customerId: party.customerId,
      addressId: party.addressId,
      businessId: party.businessId,
    });
  }

  beforeAll(async () => {
    vies = await startFakeVies();
    // A short timeout so the hanging register is given up on quickly; loopback answers take milliseconds.
    harness = await startBillingHarness({ engine, viesUrl: vies.baseUrl, vatIdTimeoutMs: 3_000 });
    ({ sandbox } = harnessClients(harness));
    paddle = new Paddle(harness.sandboxKey, {
      environment: harness.sandboxUrl as Environment,
      logLevel: 'none' as never,
    });
    const settings = await sandbox.patch('/tax-settings', { default_tax_mode: 'location', seller_country_code: 'DE' });
    expect(settings.status, settings.text).toBe(200);
    const product = await paddle.products.create({ name: 'Seat', taxCategory: 'saas' });
    const price = (billingCycle?: { interval: 'week'; frequency: number }) =>
      paddle.prices.create({
        productId: product.id,
        description: 'Seat',
        unitPrice: { amount: '10000', currencyCode: 'EUR' },
        taxMode: 'location' as never,
        ...(billingCycle ? { billingCycle } : {}),
      });
    oneOffPrice = (await price()).id;
    weeklyPrice = (await price({ interval: 'week', frequency: 1 })).id;
  });
  afterAll(async () => {
    await harness?.close();
    await vies?.close();
  });

  it('reverse charges an id VIES confirms, and asks VIES once for two transactions', async () => {
    vies.register('FR40303265045', { name: 'ACME SA', address: '1 RUE DE LA PAIX 75001 PARIS' });
    const party = await buyer('FR', '75001', 'FR 403 032 650 45');
    const first = await buy(party);
    expect(first.details?.totals).toMatchObject({ subtotal: '10000', tax: '0', total: '10000' });
    expect(first.details?.taxRatesUsed.map((used) => used.taxRate)).toEqual(['0']);
    const second = await buy(party);
    expect(second.details?.totals).toMatchObject({ tax: '0' });
    const preview = await paddle.pricingPreview.preview({
      items: [{ priceId: oneOffPrice, quantity: 1 }],
      customerId: party.customerId,
      addressId: party.addressId,
      businessId: party.businessId,
    });
    expect(preview.details.lineItems[0]?.totals).toMatchObject({ tax: '0', total: '10000' });
    expect(vies.checksOf('FR40303265045')).toBe(1);
  });

  it('charges VAT when VIES says the id is not registered, everywhere the transaction shows', async () => {
    const party = await buyer('FR', '75002', 'FR11111111111');
    const transaction = await buy(party);
    expect(transaction.details?.totals).toMatchObject({ subtotal: '8333', tax: '1667', total: '10000' });
    expect(transaction.details?.taxRatesUsed.map((used) => used.taxRate)).toEqual(['0.2']);
    const preview = await paddle.transactions.preview({
      items: [{ priceId: oneOffPrice, quantity: 1 }],
      customerId: party.customerId,
      addressId: party.addressId,
      businessId: party.businessId,
    });
    expect(preview.details.totals).toMatchObject({ tax: '1667' });
    const paid = await sandbox.post(`/transactions/${transaction.id}/simulate-payment`, { outcome: 'success' });
    expect(paid.status, paid.text).toBe(200);
    const link = await paddle.transactions.getInvoicePDF(transaction.id);
    const text = (await pdfText(new Uint8Array(await (await fetch(link.url)).arrayBuffer()))).text;
    expect(text).toContain('€16.67');
    expect(text).not.toContain('Reverse charge');
    expect(vies.checksOf('FR11111111111')).toBe(1);
  });

  it('checks the business a transaction update names before rebuilding it', async () => {
    vies.register('NL123456789B01', { name: 'Amsterdam BV', address: 'DAM 1, 1012 JS AMSTERDAM' });
    const registered = await buyer('NL', '1012 JS', 'NL123456789B01');
    const transaction = await paddle.transactions.create({
      items: [{ priceId: oneOffPrice, quantity: 1 }],
      customerId: registered.customerId,
      addressId: registered.addressId,
    });
    // A consumer in the Netherlands: 21% inside the price, 10000 × 0.21 / 1.21 → 1736.
    expect(transaction.details?.totals).toMatchObject({ tax: '1736' });
    expect(vies.checksOf('NL123456789B01')).toBe(0);
    const updated = await paddle.transactions.update(transaction.id, { businessId: registered.businessId });
    expect(updated.details?.totals).toMatchObject({ subtotal: '10000', tax: '0', total: '10000' });
    expect(vies.checksOf('NL123456789B01')).toBe(1);
  });

  it('falls back to the format when VIES is down, records the id unverified and asks again next time', async () => {
    vies.setDown('IT', 'MS_UNAVAILABLE');
    try {
      const party = await buyer('IT', '00184', 'IT12345678901');
      const first = await buy(party);
      // The default fallback (`format`): reverse charged as before VIES.
      expect(first.details?.totals).toMatchObject({ tax: '0', total: '10000' });
      expect(vies.checksOf('IT12345678901')).toBe(1);
      const second = await buy(party);
      expect(second.details?.totals).toMatchObject({ tax: '0' });
      expect(vies.checksOf('IT12345678901')).toBe(2);
      // VIES answers again, and says the id is not registered: VAT is charged (Italy 22%: 1803).
      vies.setDown('IT', null);
      const third = await buy(party);
      expect(third.details?.totals).toMatchObject({ subtotal: '8197', tax: '1803', total: '10000' });
      expect(vies.checksOf('IT12345678901')).toBe(3);
    } finally {
      vies.setDown('IT', null);
    }
  });

  it('checks the id again before the checkout recomputes the tax for the address it takes', async () => {
    const checkout = checkoutClient(harness.sandboxUrl);
    const email = `${unique('shopper')}@example.com`;
    const customer = await paddle.customers.create({ email });
    const address = await paddle.addresses.create(customer.id, { countryCode: 'PT' as never, postalCode: '1100-148' });
    const business = await paddle.businesses.create(customer.id, { name: 'Lisboa Lda', taxIdentifier: 'PT123456789' });
    vies.setDown('PT', 'MS_UNAVAILABLE');
    let transactionId: string;
    try {
      const created = await paddle.transactions.create({
        items: [{ priceId: oneOffPrice, quantity: 1 }],
        customerId: customer.id,
        addressId: address.id,
        businessId: business.id,
      });
      transactionId = created.id;
      // Unverified, reverse charged on its format (the default fallback).
      expect(created.details?.totals).toMatchObject({ tax: '0' });
    } finally {
      vies.setDown('PT', null);
    }
    expect(vies.checksOf('PT123456789')).toBe(1);
    // The customer corrects the postal code at checkout; VIES, back, does not know the id:
    // Portuguese VAT, 23% inside the price, 10000 × 0.23 / 1.23 → 1870.
    const details = await checkout.details(transactionId, { email, country_code: 'PT', postal_code: '1100-149' });
    expect(details.status, details.text).toBe(303);
    expect(vies.checksOf('PT123456789')).toBe(2);
    const after = await paddle.transactions.get(transactionId);
    expect(after.businessId).toBe(business.id);
    expect(after.details?.totals).toMatchObject({ subtotal: '8130', tax: '1870', total: '10000' });
  });

  it('gives up on a VIES that does not answer within the timeout and falls back', async () => {
    vies.setDown('ES', 'hang');
    try {
      const party = await buyer('ES', '28001', 'ESB12345678');
      const transaction = await buy(party);
      expect(transaction.details?.totals).toMatchObject({ tax: '0', total: '10000' });
      expect(vies.checksOf('ESB12345678')).toBe(1);
    } finally {
      vies.setDown('ES', null);
    }
  });

  it('checks the business a subscription update names before the change, and its renewals reverse charge', async () => {
    vies.register('ATU12345678', { name: 'Wien GmbH', address: 'RING 1, 1010 WIEN' });
    const party = await buyer('AT', '1010', 'ATU12345678');
    const checkout = await paddle.transactions.create({
      items: [{ priceId: weeklyPrice, quantity: 1 }],
      customerId: party.customerId,
      addressId: party.addressId,
    });
    // A consumer in Austria: 20% inside the price, 10000 × 0.2 / 1.2 → 1667.
    expect(checkout.details?.totals).toMatchObject({ tax: '1667' });
    const paid = await sandbox.post(`/transactions/${checkout.id}/simulate-payment`, { outcome: 'success' });
    expect(paid.status, paid.text).toBe(200);
    const subscriptionId = String(paid.entity.subscription_id);
    const updated = await paddle.subscriptions.update(subscriptionId, { businessId: party.businessId });
    expect(updated.businessId).toBe(party.businessId);
    expect(vies.checksOf('ATU12345678')).toBe(1);
    expect((await sandbox.post('/sandbox-clock/advance', { seconds: 8 * DAY_SECONDS })).status).toBe(200);
    const list = await sandbox.get(`/transactions?subscription_id=${subscriptionId}&origin=subscription_recurring`);
    expect(list.list, list.text).toHaveLength(1);
    expect((list.list[0] as { details: { totals: Record<string, string> } }).details.totals).toMatchObject({
      tax: '0',
      total: '10000',
    });
    expect(vies.checksOf('ATU12345678')).toBe(1);
  });

  it('reuses the verdict on renewals, re-checks after the lifetime, and never fails a renewal when VIES is down', async () => {
    vies.register('BE0123456789', { name: 'Brussels SPRL', address: 'RUE 1, 1000 BRUXELLES' });
    const party = await buyer('BE', '1000', 'BE0123456789');
    const checkout = await buy(party, weeklyPrice);
    expect(checkout.details?.totals).toMatchObject({ tax: '0' });
    const paid = await sandbox.post(`/transactions/${checkout.id}/simulate-payment`, { outcome: 'success' });
    expect(paid.status, paid.text).toBe(200);
    const subscriptionId = String(paid.entity.subscription_id);
    const renewals = async () => {
      const list = await sandbox.get(
        `/transactions?subscription_id=${subscriptionId}&origin=subscription_recurring&order_by=billed_at[ASC]`,
      );
      expect(list.status, list.text).toBe(200);
      return list.list as { details: { totals: Record<string, string> } }[];
    };
    expect(vies.checksOf('BE0123456789')).toBe(1);

    // Two weekly renewals within the 30-day lifetime: reverse charged, VIES not asked again.
    expect((await sandbox.post('/sandbox-clock/advance', { seconds: 15 * DAY_SECONDS })).status).toBe(200);
    const within = await renewals();
    expect(within).toHaveLength(2);
    for (const renewal of within) expect(renewal.details.totals).toMatchObject({ tax: '0', total: '10000' });
    expect(vies.checksOf('BE0123456789')).toBe(1);

    // Past the lifetime with VIES down: the stored verdict stands, the renewals go through.
    vies.setDown('BE', 'SERVICE_UNAVAILABLE');
    expect((await sandbox.post('/sandbox-clock/advance', { seconds: 21 * DAY_SECONDS })).status).toBe(200);
    const whileDown = (await renewals()).slice(2);
    expect(whileDown.length).toBeGreaterThanOrEqual(1);
    for (const renewal of whileDown) expect(renewal.details.totals).toMatchObject({ tax: '0' });
    const askedWhileDown = vies.checksOf('BE0123456789');
    expect(askedWhileDown).toBeGreaterThan(1);

    // VIES is back and the id was deregistered: the next renewal asks again and is charged
    // Belgian VAT (21%: 10000 × 0.21 / 1.21 = 1735.54 → 1736).
    vies.setDown('BE', null);
    vies.unregister('BE0123456789');
    const before = (await renewals()).length;
    expect((await sandbox.post('/sandbox-clock/advance', { seconds: 7 * DAY_SECONDS })).status).toBe(200);
    const after = (await renewals()).slice(before);
    expect(after).toHaveLength(1);
    expect(after[0]?.details.totals).toMatchObject({ subtotal: '8264', tax: '1736', total: '10000' });
    expect(vies.checksOf('BE0123456789')).toBe(askedWhileDown + 1);
  });
});

describe.each(ENGINES)('%s: VAT ids with VIES down and --vat-id-unavailable charge', (engine) => {
  let vies: FakeVies;
  let harness: BillingHarness;
  let paddle: Paddle;

  beforeAll(async () => {
    vies = await startFakeVies();
    harness = await startBillingHarness({ engine, viesUrl: vies.baseUrl, vatIdUnavailable: 'charge' });
    const { sandbox } = harnessClients(harness);
    paddle = new Paddle(harness.sandboxKey, {
      environment: harness.sandboxUrl as Environment,
      logLevel: 'none' as never,
    });
    const settings = await sandbox.patch('/tax-settings', { default_tax_mode: 'location', seller_country_code: 'DE' });
    expect(settings.status, settings.text).toBe(200);
  });
  afterAll(async () => {
    await harness?.close();
    await vies?.close();
  });

  it('charges VAT until VIES confirms the id, then reverse charges', async () => {
    const product = await paddle.products.create({ name: 'Seat', taxCategory: 'saas' });
    const price = await paddle.prices.create({
      productId: product.id,
      description: 'Seat',
      unitPrice: { amount: '10000', currencyCode: 'EUR' },
      taxMode: 'location' as never,
    });
    const customer = await paddle.customers.create({ email: `${unique('buyer')}@example.com` });
    const address = await paddle.addresses.create(customer.id, { countryCode: 'FR' as never, postalCode: '75001' });
    const business = await paddle.businesses.create(customer.id, { name: 'ACME SA', taxIdentifier: 'FR40303265045' });
    const buy = () =>
      paddle.transactions.create({
        items: [{ priceId: price.id, quantity: 1 }],
        customerId: customer.id,
        addressId: address.id,
        businessId: business.id,
      });
    vies.register('FR40303265045', { name: 'ACME SA', address: 'PARIS' });
    vies.setDown('FR', 'MS_UNAVAILABLE');
    // No verdict and VIES down: French VAT, 10000 × 0.2 / 1.2 → 1667.
    expect((await buy()).details?.totals).toMatchObject({ tax: '1667', total: '10000' });
    vies.setDown('FR', null);
    expect((await buy()).details?.totals).toMatchObject({ tax: '0', total: '10000' });
    expect(vies.checksOf('FR40303265045')).toBe(2);
  });
});
