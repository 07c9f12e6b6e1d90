/**
 * The official SDK (@paddle/paddle-node-sdk) against our sandbox address: lists transactions
 * filtered by customer and status, pages with next()/hasMore/estimatedTotal, gets one, and
 * fetches an invoice link with getInvoicePDF.
 */
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { ApiError, type Paddle } from '@paddle/paddle-node-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, harnessClients } from '../support/api-client.js';
import { officialSdk } from '../support/official-sdk.js';
import { type Buyer, createBuyer, createOneOffPrice, readyTransaction } from './transaction-fixtures.js';

describe.each(ENGINES)('%s: the official SDK against transactions', (engine) => {
  let harness: BillingHarness;
  let paddle: Paddle;
  let sandbox: ApiClient;
  let buyer: Buyer;
  let other: Buyer;
  const completedIds: string[] = [];
  const billedIds: string[] = [];

  beforeAll(async () => {
    harness = await startBillingHarness({ engine });
    ({ sandbox } = harnessClients(harness));
    paddle = officialSdk(harness.sandboxKey, harness.sandboxUrl);
    buyer = await createBuyer(sandbox, 'GB');
    other = await createBuyer(sandbox, 'GB');
    const priceId = await createOneOffPrice(sandbox, '4999', 'GBP');
    for (let index = 0; index < 5; index += 1) {
      const ready = await readyTransaction(sandbox, buyer, priceId);
      await sandbox.post(`/transactions/${ready.id}/simulate-payment`, { outcome: 'success' });
      completedIds.push(String(ready.id));
    }
    for (let index = 0; index < 2; index += 1) {
      const invoice = await readyTransaction(sandbox, buyer, priceId, { collection_mode: 'manual', status: 'billed' });
      billedIds.push(String(invoice.id));
    }
    await readyTransaction(sandbox, buyer, priceId);
    const elsewhere = await readyTransaction(sandbox, other, priceId);
    await sandbox.post(`/transactions/${elsewhere.id}/simulate-payment`, { outcome: 'success' });
  });
  afterAll(() => harness.close());

  it('lists one customer’s transactions with a status set, page by page', async () => {
    const collection = paddle.transactions.list({
      customerId: [buyer.customerId],
      status: ['billed', 'paid', 'past_due', 'completed', 'canceled'],
      perPage: 3,
    });
    const first = await collection.next();
    expect(first).toHaveLength(3);
    expect(collection.hasMore).toBe(true);
    expect(collection.estimatedTotal).toBe(7);
    const seen = first.map((transaction) => transaction.id);
    while (collection.hasMore) seen.push(...(await collection.next()).map((transaction) => transaction.id));
    expect(seen).toEqual([...completedIds, ...billedIds].reverse());
    for (const transaction of first) {
      expect(transaction.customerId).toBe(buyer.customerId);
      expect(transaction.details?.totals?.grandTotal).toBe('9998');
    }
  });

  it('reads every field the billing history needs from a fetched transaction', async () => {
    const id = completedIds[0] ?? '';
    const transaction = await paddle.transactions.get(id);
    expect(transaction).toMatchObject({
      id,
      customerId: buyer.customerId,
      status: 'completed',
      currencyCode: 'GBP',
      collectionMode: 'automatic',
    });
    expect(transaction.billedAt).toEqual(transaction.updatedAt);
    expect(transaction.details?.totals).toMatchObject({
      subtotal: '9998',
      total: '9998',
      credit: '0',
      grandTotal: '9998',
      grandTotalTax: '0',
      balance: '0',
    });
    expect(transaction.items[0]?.price?.id).toMatch(/^pri_/);
    expect(transaction.payments[0]?.status).toBe('captured');
  });

  it('returns every customer’s transactions when no customer filter is given', async () => {
    const collection = paddle.transactions.list({ status: ['completed'] });
    const page = await collection.next();
    expect(new Set(page.map((transaction) => transaction.customerId))).toEqual(
      new Set([buyer.customerId, other.customerId]),
    );
  });

  it('fetches an invoice link with getInvoicePDF', async () => {
    const invoice = await paddle.transactions.getInvoicePDF(billedIds[0] ?? '', { disposition: 'inline' });
    expect(invoice.url).toContain(`/invoices/${billedIds[0]}/pdf?`);
    const pdf = await fetch(invoice.url);
    expect(pdf.headers.get('content-disposition')).toMatch(/^inline;/);
  });

  it('raises ApiError with our codes for unknown statuses and ineligible invoices', async () => {
    const unknownStatus = await paddle.transactions
      .list({ status: ['settled' as never] })
      .next()
      .catch((caught: unknown) => caught);
    expect(unknownStatus).toBeInstanceOf(ApiError);
    expect(unknownStatus).toMatchObject({ code: 'invalid_field' });
    const draft = await paddle.transactions.create({
      items: [{ priceId: (await paddle.prices.list().next())[0]?.id ?? '', quantity: 1 }],
    });
    expect(draft.status).toBe('draft');
    const ineligible = await paddle.transactions.getInvoicePDF(draft.id).catch((caught: unknown) => caught);
    expect(ineligible).toMatchObject({ code: 'transaction_invoice_not_available' });
  });
});
