/**
 * The SDK against a real service, on both engines: transactions (create, pay in the sandbox,
 * list with filters, get, invoice link, non-catalogue prices), adjustments, tax and seller settings, and the public currency list
 * with amounts formatted from it.
 */
import { BILLING_HISTORY_STATUSES, Drawdown } from '@drawdown/sdk';
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unique } from '../support/fixtures.js';

describe.each(ENGINES)('%s: transactions and currencies', (engine) => {
  let harness: BillingHarness;
  let drawdown: Drawdown;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine });
    drawdown = new Drawdown(harness.sandboxKey, { baseUrl: harness.sandboxUrl });
  });
  afterAll(() => harness.close());

  async function paidTransaction(amount = '1999', currencyCode = 'EUR') {
    const product = await drawdown.products.create({ name: 'Plan', taxCategory: 'saas' });
    const price = await drawdown.prices.create({
      productId: product.id,
      description: 'Monthly',
      unitPrice: { amount, currencyCode },
      billingCycle: { interval: 'month', frequency: 1 },
    });
    const customer = await drawdown.customers.create({ email: `${unique('buyer')}@example.com` });
    const address = await drawdown.addresses.create(customer.id, { countryCode: 'DE' });
    const transaction = await drawdown.transactions.create({
      items: [{ priceId: price.id, quantity: 1 }],
      customerId: customer.id,
      addressId: address.id,
      currencyCode,
    });
    expect(transaction.status).toBe('ready');
    const paid = await drawdown.transactions.simulatePayment(transaction.id, 'success');
    return { customerId: customer.id, transaction: paid };
  }

  it('creates a transaction and completes it with a simulated payment', async () => {
    const { transaction } = await paidTransaction();
    expect(transaction.status).toBe('completed');
    expect(transaction.details.totals.grandTotal).toMatch(/^\d+$/);
    expect(transaction.payments.map((payment) => payment.status)).toContain('captured');
  });

  it('lists a customer’s billing history with status filters and pages of at most 30', async () => {
    const { customerId, transaction } = await paidTransaction();
    const page = drawdown.transactions.list({ customerId: [customerId], status: [...BILLING_HISTORY_STATUSES] });
    const first = await page.next();
    expect(first.map((item) => item.id)).toEqual([transaction.id]);
    expect(page.hasMore).toBe(false);
    expect(page.estimatedTotal).toBe(1);
    const drafts = await drawdown.transactions.list({ customerId: [customerId], status: ['draft'] }).next();
    expect(drafts).toEqual([]);

    const oversized = drawdown.transactions.list({ perPage: 500 });
    await oversized.next();
    expect(oversized.perPage).toBe(30);
  });

  it('filters by billed time ranges', async () => {
    const { customerId, transaction } = await paidTransaction();
    const billedAt = transaction.billedAt ?? transaction.createdAt;
    const inRange = await drawdown.transactions
      .list({ customerId: [customerId], createdAt: { lte: new Date(Date.parse(billedAt) + 86_400_000).toISOString() } })
      .next();
    expect(inRange.map((item) => item.id)).toEqual([transaction.id]);
    const tooEarly = await drawdown.transactions
      .list({ customerId: [customerId], createdAt: { lt: '2000-01-01T00:00:00Z' } })
      .next();
    expect(tooEarly).toEqual([]);
  });

  it('gets a transaction and a one-hour invoice link for a completed one', async () => {
    const { transaction } = await paidTransaction();
    const fetched = await drawdown.transactions.get(transaction.id);
    expect(fetched.id).toBe(transaction.id);
    expect(fetched.details.totals).toEqual(transaction.details.totals);
    const invoice = await drawdown.transactions.getInvoicePdf(transaction.id, { disposition: 'inline' });
    expect(invoice.url).toMatch(/^https?:\/\//);
    const pdf = await fetch(invoice.url);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toContain('application/pdf');
  });

  it('refuses an invoice for a transaction that is not billed with a clear code', async () => {
    const customer = await drawdown.customers.create({ email: `${unique('draft')}@example.com` });
    const product = await drawdown.products.create({ name: 'Draft plan', taxCategory: 'saas' });
    const price = await drawdown.prices.create({
      productId: product.id,
      description: 'Draft',
      unitPrice: { amount: '100', currencyCode: 'USD' },
    });
    const draft = await drawdown.transactions.create({
      items: [{ priceId: price.id, quantity: 1 }],
      customerId: customer.id,
    });
    const error = await drawdown.transactions.getInvoicePdf(draft.id).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ type: 'request_error' });
    expect((error as { status: number }).status).toBeGreaterThanOrEqual(400);
  });

  it('refunds through an adjustment, which lists by transaction', async () => {
    const { transaction } = await paidTransaction('5000', 'USD');
    const adjustment = await drawdown.adjustments.create({
      action: 'refund',
      transactionId: transaction.id,
      reason: 'Customer asked',
      type: 'full',
    });
    expect(adjustment).toMatchObject({ action: 'refund', transactionId: transaction.id });
    const listed = await drawdown.adjustments.list({ transactionId: [transaction.id] }).next();
    expect(listed.map((item) => item.id)).toEqual([adjustment.id]);
  });

  it('reads and updates tax settings', async () => {
    const updated = await drawdown.taxSettings.update({ defaultTaxMode: 'external', defaultRate: '0.2' });
    expect(updated).toMatchObject({ defaultTaxMode: 'external', defaultRate: '0.2' });
    expect((await drawdown.taxSettings.get()).defaultRate).toBe('0.2');
    await drawdown.taxSettings.update({ defaultRate: '0' });
  });

  it('bills a non-catalogue price with a product of its own', async () => {
    const transaction = await drawdown.transactions.create({
      items: [
        {
          price: {
            description: 'Bespoke quote',
            unitPrice: { amount: '4321', currencyCode: 'EUR' },
            product: { name: 'Bespoke work', taxCategory: 'standard', customData: { quote: 'Q-7' } },
          },
          quantity: 2,
        },
      ],
    });
    // 4321 × 2 = 8642, no tax configured in this sandbox.
    expect(transaction.details.totals.subtotal).toBe('8642');
    expect(transaction.items[0]?.price).toMatchObject({ type: 'custom', description: 'Bespoke quote' });
    expect(transaction.details.lineItems[0]?.product).toMatchObject({ type: 'custom', customData: { quote: 'Q-7' } });
  });

  it('sets the seller details invoices name, and refuses a logo that is not an image', async () => {
    const set = await drawdown.sellerDetails.update({
      legalName: 'Acme Ltd',
      address: { firstLine: '1 Main Street', city: 'Leeds', countryCode: 'GB' },
      email: 'billing@acme.example',
    });
    expect(set).toMatchObject({ legalName: 'Acme Ltd', address: { city: 'Leeds', countryCode: 'GB' }, logo: null });
    expect((await drawdown.sellerDetails.get()).email).toBe('billing@acme.example');
    await expect(
      drawdown.sellerDetails.update({ logo: { data: Buffer.from('not an image').toString('base64') } }),
    ).rejects.toMatchObject({ code: 'invalid_logo' });
  });

  it('reads the public currency list without a key and formats totals with its decimal places', async () => {
    const anonymous = new Drawdown('', { baseUrl: harness.sandboxUrl });
    const currencies = await anonymous.currencies.list();
    const byCode = new Map(currencies.map((currency) => [currency.code, currency.decimalPlaces]));
    expect(byCode.get('JPY')).toBe(0);
    expect(byCode.get('USD')).toBe(2);
    expect(byCode.get('HUF')).toBe(2);
    expect(await anonymous.currencies.decimalPlaces('HUF')).toEqual({ decimalPlaces: 2, source: 'service' });
    const { transaction } = await paidTransaction('123456', 'EUR');
    const formatted = await drawdown.currencies.formatAmount(
      transaction.details.totals.grandTotal,
      transaction.currencyCode,
      'de-DE,de;q=0.9',
    );
    expect(formatted).toMatch(/^[\d.]+,\d{2}\u00a0€$/);
  });
});
