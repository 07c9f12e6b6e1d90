/**
 * Reduced rates by tax category (ADR 1436) through the official SDK, on both engines. A
 * transaction of one e-book (`ebooks`) and one SaaS seat (`saas`), each 100.00 tax-inclusive in
 * `location` mode, for a British, a German and an Irish address: the e-book takes the country's
 * e-book rate (0%, 7%, 0%), the seat the standard rate (20%, 19%, 23%). The transaction, the
 * transaction preview, the pricing preview and the invoice show the same amounts.
 */
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { type Environment, Paddle } from '@paddle/paddle-node-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, harnessClients } from '../support/api-client.js';
import { unique } from '../support/catalogue-fixtures.js';
import { pdfText } from './pdf-text.js';

interface Expected {
  readonly place: { readonly country_code: string; readonly postal_code: string };
  /** Hand-computed: tax inside 10000 = 10000 × rate / (1 + rate), rounded half-even. */
  readonly ebook: { readonly rate: string; readonly subtotal: string; readonly tax: string };
  readonly seat: { readonly rate: string; readonly subtotal: string; readonly tax: string };
  readonly totals: { readonly subtotal: string; readonly tax: string; readonly total: string };
}

const CASES: readonly Expected[] = [
  {
    // UK: e-books zero rated since 1 May 2020; the seat 10000 × 0.2 / 1.2 = 1666.67 → 1667.
    place: { country_code: 'GB', postal_code: 'SW1A 1AA' },
    ebook: { rate: '0', subtotal: '10000', tax: '0' },
    seat: { rate: '0.2', subtotal: '8333', tax: '1667' },
    totals: { subtotal: '18333', tax: '1667', total: '20000' },
  },
  {
    // Germany: e-books 7%: 10000 × 0.07 / 1.07 = 654.21 → 654; the seat 19%: 1596.64 → 1597.
    place: { country_code: 'DE', postal_code: '10115' },
    ebook: { rate: '0.07', subtotal: '9346', tax: '654' },
    seat: { rate: '0.19', subtotal: '8403', tax: '1597' },
    totals: { subtotal: '17749', tax: '2251', total: '20000' },
  },
  {
    // Ireland: e-books 0% since 1 January 2023; the seat 23%: 10000 × 0.23 / 1.23 = 1869.92 → 1870.
    place: { country_code: 'IE', postal_code: 'D02 X285' },
    ebook: { rate: '0', subtotal: '10000', tax: '0' },
    seat: { rate: '0.23', subtotal: '8130', tax: '1870' },
    totals: { subtotal: '18130', tax: '1870', total: '20000' },
  },
];

/** Minor units of EUR as the invoice prints them: '1597' → '€15.97' (bigint, never a float). */
function euros(minor: string): string {
  const amount = BigInt(minor);
  return `€${amount / 100n}.${String(amount % 100n).padStart(2, '0')}`;
}

/** A decimal rate as the invoice prints it: '0.19' → '19%', '0.2' → '20%' (by its digits, never a float). */
function percentOf(rate: string): string {
  const [whole = '0', fraction = ''] = rate.split('.');
  const digits = `${whole}${fraction.padEnd(2, '0')}`;
  const integer = digits.slice(0, whole.length + 2).replace(/^0+(?=\d)/, '');
  const rest = digits.slice(whole.length + 2).replace(/0+$/, '');
  return rest ? `${integer}.${rest}%` : `${integer}%`;
}

describe.each(ENGINES)('%s: reduced rates by tax category (ADR 1436)', (engine) => {
  let harness: BillingHarness;
  let paddle: Paddle;
  let sandbox: ApiClient;
  let ebookPrice: string;
  let seatPrice: string;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine });
    ({ sandbox } = harnessClients(harness));
    paddle = new Paddle(harness.sandboxKey, {
      environment: harness.sandboxUrl as Environment,
      logLevel: 'none' as never,
    });
    const settings = await sandbox.patch('/tax-settings', { default_tax_mode: 'location', seller_country_code: 'US' });
    expect(settings.status, settings.text).toBe(200);
    const ebook = await paddle.products.create({ name: 'A novel', taxCategory: 'ebooks' });
    const seat = await paddle.products.create({ name: 'A seat', taxCategory: 'saas' });
    const price = async (productId: string) =>
      (
        await paddle.prices.create({
          productId,
          description: 'One',
          unitPrice: { amount: '10000', currencyCode: 'EUR' },
          taxMode: 'location' as never,
        })
      ).id;
    ebookPrice = await price(ebook.id);
    seatPrice = await price(seat.id);
  });
  afterAll(() => harness.close());

  const items = () => [
    { priceId: ebookPrice, quantity: 1 },
    { priceId: seatPrice, quantity: 1 },
  ];

  it.each(CASES)('taxes the e-book at its reduced rate in $place.country_code', async (expected) => {
    const customer = await paddle.customers.create({ email: `${unique('reader')}@example.com` });
    const address = await paddle.addresses.create(customer.id, {
      countryCode: expected.place.country_code as never,
      postalCode: expected.place.postal_code,
    });
    const transaction = await paddle.transactions.create({
      items: items(),
      customerId: customer.id,
      addressId: address.id,
    });
    const lines = transaction.details?.lineItems ?? [];
    const line = (priceId: string) => lines.find((candidate) => candidate.priceId === priceId);
    expect(line(ebookPrice)?.taxRate).toBe(expected.ebook.rate);
    expect(line(ebookPrice)?.totals).toMatchObject({ subtotal: expected.ebook.subtotal, tax: expected.ebook.tax });
    expect(line(seatPrice)?.taxRate).toBe(expected.seat.rate);
    expect(line(seatPrice)?.totals).toMatchObject({ subtotal: expected.seat.subtotal, tax: expected.seat.tax });
    expect(transaction.details?.totals).toMatchObject(expected.totals);
    const used = [...(transaction.details?.taxRatesUsed ?? [])].sort((a, b) => a.taxRate.localeCompare(b.taxRate));
    expect(used).toEqual(
      [expected.ebook, expected.seat]
        .map((part) => ({
          taxRate: part.rate,
          totals: { subtotal: part.subtotal, discount: '0', tax: part.tax, total: '10000' },
        }))
        .sort((a, b) => a.taxRate.localeCompare(b.taxRate)),
    );

    const preview = await paddle.transactions.preview({
      items: items(),
      customerId: customer.id,
      addressId: address.id,
    });
    expect(preview.details.totals).toMatchObject(expected.totals);
    expect(preview.details.taxRatesUsed).toEqual(transaction.details?.taxRatesUsed);

    const pricing = await paddle.pricingPreview.preview({
      items: items(),
      address: { countryCode: expected.place.country_code as never, postalCode: expected.place.postal_code },
    });
    const pricedEbook = pricing.details.lineItems.find((candidate) => candidate.price.id === ebookPrice);
    expect(pricedEbook?.taxRate).toBe(expected.ebook.rate);
    expect(pricedEbook?.totals).toMatchObject({ subtotal: expected.ebook.subtotal, tax: expected.ebook.tax });

    const paid = await sandbox.post(`/transactions/${transaction.id}/simulate-payment`, { outcome: 'success' });
    expect(paid.status, paid.text).toBe(200);
    const link = await paddle.transactions.getInvoicePDF(transaction.id);
    const pdf = await fetch(link.url);
    expect(pdf.status).toBe(200);
    const text = (await pdfText(new Uint8Array(await pdf.arrayBuffer()))).text;
    expect(text).toContain(percentOf(expected.seat.rate));
    expect(text).toContain(euros(expected.totals.tax));
    expect(text).toContain(euros(expected.totals.total));
    expect(text).not.toContain('Reverse charge');
  });

  it('charges the standard rate where no reduced rate is known: an e-book in Denmark (25%)', async () => {
    const pricing = await paddle.pricingPreview.preview({
      items: [{ priceId: ebookPrice, quantity: 1 }],
      address: { countryCode: 'DK' as never, postalCode: '1050' },
    });
    // 10000 × 0.25 / 1.25 = 2000.
    expect(pricing.details.lineItems[0]?.taxRate).toBe('0.25');
    expect(pricing.details.lineItems[0]?.totals).toMatchObject({ subtotal: '8000', tax: '2000', total: '10000' });
  });
});
