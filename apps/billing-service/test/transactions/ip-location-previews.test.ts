/**
 * `customer_ip_address` on both previews (ADR 1434), through the official SDK, on both engines:
 * the address is located offline to a country, which picks the price's override for that
 * country (amount and currency) and the location tax of the sales-tax dataset. Known addresses
 * in GB, DE, US and AU, also as IPv6 addresses that carry them (IPv4-mapped, Teredo, NAT64, 6to4;
 * ADR 1438); a private, a native IPv6 and an unknown address give the preview of no location at all; an address or `address_id` sent with it wins; anything
 * that is not an IP address is refused by name and nothing is written.
 */
import { TAX_RATE_DATASET } from '@drawdown/billing-core';
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import type { Paddle } from '@paddle/paddle-node-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, expectInvalidField, harnessClients } from '../support/api-client.js';
import { createProduct, unique } from '../support/catalogue-fixtures.js';
import { officialSdk } from '../support/official-sdk.js';

/** Public addresses of well-known national networks, each in the dataset's country. */
const KNOWN = [
  { ip: '81.2.69.142', country: 'GB', amount: '800', currency: 'GBP' },
  { ip: '::ffff:81.2.69.142', country: 'GB', amount: '800', currency: 'GBP' },
  // IPv6 addresses carrying those IPv4 ones by standard mappings (ADR 1438): Teredo, NAT64, 6to4.
  { ip: '2001:0:4136:e378:8000:63bf:aefd:ba71', country: 'GB', amount: '800', currency: 'GBP' },
  { ip: '64:ff9b::5051:c001', country: 'DE', amount: '900', currency: 'EUR' },
  { ip: '2002:8b82:405::1', country: 'AU', amount: '1500', currency: 'AUD' },
  { ip: '80.81.192.1', country: 'DE', amount: '900', currency: 'EUR' },
  { ip: '8.8.8.8', country: 'US', amount: '1000', currency: 'USD' },
  { ip: '139.130.4.5', country: 'AU', amount: '1500', currency: 'AUD' },
] as const;

describe.each(ENGINES)('%s: previews located by customer_ip_address', (engine) => {
  let harness: BillingHarness;
  let paddle: Paddle;
  let sandbox: ApiClient;
  let priceId: string;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine });
    ({ sandbox } = harnessClients(harness));
    paddle = officialSdk(harness.sandboxKey, harness.sandboxUrl);
    const settings = await sandbox.patch('/tax-settings', { default_tax_mode: 'location', seller_country_code: 'DE' });
    expect(settings.status, settings.text).toBe(200);
    const productId = await createProduct(sandbox, { name: 'Seat' });
    const price = await sandbox.post('/prices', {
      product_id: productId,
      description: 'Seat, localized',
      unit_price: { amount: '1000', currency_code: 'USD' },
      tax_mode: 'location',
      unit_price_overrides: [
        { country_codes: ['GB'], unit_price: { amount: '800', currency_code: 'GBP' } },
        { country_codes: ['DE'], unit_price: { amount: '900', currency_code: 'EUR' } },
        { country_codes: ['AU'], unit_price: { amount: '1500', currency_code: 'AUD' } },
      ],
    });
    expect(price.status, price.text).toBe(201);
    priceId = price.id;
  });
  afterAll(() => harness.close());

  it.each(KNOWN)('prices and taxes $ip as $country', async ({ ip, country, amount, currency }) => {
    const preview = await paddle.pricingPreview.preview({ items: [{ priceId, quantity: 1 }], customerIpAddress: ip });
    expect(preview.customerIpAddress).toBe(ip);
    expect(preview.address).toBeNull();
    expect(preview.currencyCode).toBe(currency);
    const line = preview.details.lineItems[0];
    expect(line?.unitTotals.subtotal).toBeDefined();
    // The dataset's rate of the country (the US has none at country level: no state is known).
    expect(line?.taxRate).toBe(TAX_RATE_DATASET.countries[country]?.rate);
    expect(BigInt(line?.totals.subtotal ?? '0') + BigInt(line?.totals.tax ?? '0')).toBe(
      BigInt(line?.totals.total ?? '-1'),
    );
    expect([line?.totals.total, line?.totals.subtotal]).toContain(amount);

    const transaction = await paddle.transactions.preview({ items: [{ priceId, quantity: 1 }], customerIpAddress: ip });
    expect(transaction.customerIpAddress).toBe(ip);
    expect(transaction.currencyCode).toBe(currency);
    expect(transaction.details.totals.tax).toBe(line?.totals.tax);
    expect(transaction.details.taxRatesUsed.map((used) => used.taxRate)).toEqual([line?.taxRate]);
  });

  it('gives private, IPv6 and unallocated addresses the preview of no location', async () => {
    const none = await paddle.pricingPreview.preview({ items: [{ priceId, quantity: 1 }] });
    // Native IPv6 (a German network's 2a00:1450::/32 included) is not in the offline dataset (ADR 1438).
    for (const ip of ['10.1.2.3', '192.168.0.10', '127.0.0.1', '2001:db8::1', '0.0.0.0', '2a00:1450:4001:800::200e']) {
      const preview = await paddle.pricingPreview.preview({ items: [{ priceId, quantity: 1 }], customerIpAddress: ip });
      expect(preview.customerIpAddress, ip).toBe(ip);
      expect(preview.currencyCode, ip).toBe('USD');
      expect(preview.details, ip).toEqual(none.details);
    }
  });

  it('lets an address or address_id sent with it win over the IP address', async () => {
    const byAddress = await paddle.pricingPreview.preview({
      items: [{ priceId, quantity: 1 }],
      customerIpAddress: '81.2.69.142',
      address: { countryCode: 'DE' },
    });
    expect(byAddress.currencyCode).toBe('EUR');
    expect(byAddress.details.lineItems[0]?.taxRate).toBe(TAX_RATE_DATASET.countries.DE?.rate);
    expect(byAddress.customerIpAddress).toBe('81.2.69.142');

    const customer = await sandbox.post('/customers', { email: `${unique('ip')}@example.com` });
    const address = await sandbox.post(`/customers/${customer.id}/addresses`, { country_code: 'AU', region: 'NSW' });
    expect(address.status, address.text).toBe(201);
    const byAddressId = await paddle.transactions.preview({
      items: [{ priceId, quantity: 1 }],
      customerId: customer.id,
      addressId: address.id,
      customerIpAddress: '81.2.69.142',
    });
    expect(byAddressId.currencyCode).toBe('AUD');
    expect(byAddressId.details.taxRatesUsed.map((used) => used.taxRate)).toEqual([TAX_RATE_DATASET.countries.AU?.rate]);
  });

  it('refuses what is not an IP address, by name, writing nothing', async () => {
    const before = (await sandbox.get('/transactions?per_page=50')).list.length;
    for (const ip of ['not-an-ip', '999.1.1.1', '81.2.69.142:443', 'fe80::1%eth0', '']) {
      for (const path of ['/pricing-preview', '/transactions/preview']) {
        const response = await sandbox.post(path, {
          items: [{ price_id: priceId, quantity: 1 }],
          customer_ip_address: ip,
        });
        expectInvalidField(response, 'customer_ip_address');
      }
    }
    expect((await sandbox.get('/transactions?per_page=50')).list.length).toBe(before);
  });
});
