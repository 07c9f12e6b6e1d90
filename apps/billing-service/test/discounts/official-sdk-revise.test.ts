/**
 * `transactions.revise` through the official SDK, on both engines: a billed or completed
 * transaction's customer, business and address details are revised once, `revised_at` and
 * `transaction.revised` follow, `include=` and the invoice PDF show the revised details, the
 * entities themselves are unchanged, and drafts, ready transactions and second revisions are
 * refused with specific codes.
 */
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import type { Paddle } from '@paddle/paddle-node-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, harnessClients } from '../support/api-client.js';
import { officialSdk, sdkRefusal } from '../support/official-sdk.js';
import { pdfText } from '../transactions/pdf-text.js';
import { type Buyer, createBuyer, createOneOffPrice } from '../transactions/transaction-fixtures.js';

describe.each(ENGINES)('%s: revising transactions through the official SDK', (engine) => {
  let harness: BillingHarness;
  let paddle: Paddle;
  let sandbox: ApiClient;
  let buyer: Buyer;
  let priceId: string;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine });
    ({ sandbox } = harnessClients(harness));
    paddle = officialSdk(harness.sandboxKey, harness.sandboxUrl);
    buyer = await createBuyer(sandbox, 'GB');
    priceId = await createOneOffPrice(sandbox, '2500', 'GBP');
  });
  afterAll(() => harness.close());

  it('revises a completed transaction once; includes and the invoice show the revised details', async () => {
    const business = await paddle.businesses.create(buyer.customerId, { name: 'Old Name Ltd' });
    const ready = await paddle.transactions.create({
      items: [{ priceId, quantity: 1 }],
      customerId: buyer.customerId,
      addressId: buyer.addressId,
      businessId: business.id,
    });
    await sandbox.post(`/transactions/${ready.id}/simulate-payment`, { outcome: 'success' });
    expect(await sdkRefusal(paddle.transactions.revise(ready.id, {}))).toBe('invalid_field');

    const revised = await paddle.transactions.revise(ready.id, {
      customer: { name: 'Ada King' },
      business: { name: 'New Name Ltd', taxIdentifier: 'GB999999973' },
      address: { firstLine: '12 Revised Row', city: 'London', region: 'Greater London' },
    });
    expect(revised.revisedAt).not.toBeNull();
    expect(revised.status).toBe('completed');

    const shown = await paddle.transactions.get(ready.id, { include: ['customer', 'business', 'address'] });
    expect(shown.customer?.name).toBe('Ada King');
    expect(shown.business).toMatchObject({ name: 'New Name Ltd', taxIdentifier: 'GB999999973' });
    expect(shown.address).toMatchObject({ firstLine: '12 Revised Row', city: 'London', region: 'Greater London' });

    // The entities themselves keep their details.
    expect((await paddle.customers.get(buyer.customerId)).name).toBe('Ada Lovelace');
    expect((await paddle.businesses.get(buyer.customerId, business.id)).name).toBe('Old Name Ltd');

    const { url } = (await sandbox.get(`/transactions/${ready.id}/invoice`)).entity as { url: string };
    const { text } = await pdfText(new Uint8Array(await (await fetch(url)).arrayBuffer()));
    for (const expected of ['New Name Ltd', 'Ada King', '12 Revised Row', 'GB999999973'])
      expect(text).toContain(expected);
    expect(text).not.toContain('Old Name Ltd');

    expect(await sdkRefusal(paddle.transactions.revise(ready.id, { customer: { name: 'Again' } }))).toBe(
      'transaction_revised_limit_reached',
    );
    const events = await sandbox.get('/events?per_page=200');
    expect(events.list.some((event) => event.event_type === 'transaction.revised')).toBe(true);
  });

  it('revises a billed invoice, and refuses ready transactions and a business the transaction lacks', async () => {
    const invoice = await paddle.transactions.create({
      items: [{ priceId, quantity: 1 }],
      customerId: buyer.customerId,
      addressId: buyer.addressId,
      collectionMode: 'manual',
      status: 'billed',
    });
    expect(await sdkRefusal(paddle.transactions.revise(invoice.id, { business: { name: 'Nobody' } }))).toBe(
      'invalid_field',
    );
    expect(
      (await paddle.transactions.revise(invoice.id, { address: { secondLine: 'Flat 2' } })).revisedAt,
    ).not.toBeNull();

    const ready = await paddle.transactions.create({
      items: [{ priceId, quantity: 1 }],
      customerId: buyer.customerId,
      addressId: buyer.addressId,
    });
    expect(await sdkRefusal(paddle.transactions.revise(ready.id, { customer: { name: 'Early' } }))).toBe(
      'transaction_invalid_status_to_revise',
    );
    expect((await paddle.transactions.get(ready.id)).revisedAt).toBeNull();
  });

  it('lets exactly one of two concurrent revisions through', async () => {
    const ready = await paddle.transactions.create({
      items: [{ priceId, quantity: 1 }],
      customerId: buyer.customerId,
      addressId: buyer.addressId,
    });
    await sandbox.post(`/transactions/${ready.id}/simulate-payment`, { outcome: 'success' });
    const attempts = await Promise.all(
      ['First', 'Second', 'Third'].map((name) =>
        sandbox.post(`/transactions/${ready.id}/revise`, { customer: { name } }),
      ),
    );
    expect(attempts.filter((attempt) => attempt.status === 200)).toHaveLength(1);
    for (const attempt of attempts.filter((response) => response.status !== 200)) {
      expect(attempt.body.error?.code).toBe('transaction_revised_limit_reached');
    }
  });
});
