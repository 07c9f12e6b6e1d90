/**
 * Update previews and credit balances through the official SDK, on both engines, on a frozen
 * wall clock (31-day period from 1 March, changes on 16 March: 16/31 left). A preview is the
 * change computed by the same code and rolled back; a credit is drawn exactly once even when
 * two changes of one customer charge at the same moment.
 */
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, type WireObject } from '../support/api-client.js';
import { createOneOffPrice } from '../transactions/transaction-fixtures.js';
import { DAY_SECONDS, frozenClock, newChangeWorld } from './change-fixtures.js';

function details(transaction: WireObject) {
  return transaction.details as { totals: Record<string, string>; line_items: WireObject[] };
}

describe.each(ENGINES)('%s: update previews and credit balances', (engine) => {
  let harness: BillingHarness;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine, clock: frozenClock });
  });
  afterAll(() => harness.close());

  it('previewUpdate shows exactly the transaction the update then issues, and writes nothing', async () => {
    const w = await newChangeWorld(harness);
    const priceA = await w.price('3000');
    const priceB = await w.price('1000');
    const subscriptionId = await w.subscribe([{ priceId: priceA, quantity: 1 }]);
    await w.advance(15 * DAY_SECONDS);
    const request = {
      items: [
        { priceId: priceA, quantity: 2 },
        { priceId: priceB, quantity: 1 },
      ],
      prorationBillingMode: 'prorated_immediately' as const,
    };
    const subscriptionBefore = (await w.api.get(`/subscriptions/${subscriptionId}`)).entity;
    const eventsBefore = (await w.api.get('/events?per_page=200')).list.length;

    const preview = await w.paddle.subscriptions.previewUpdate(subscriptionId, request);
    expect(preview.items.map((item) => item.quantity)).toEqual([2, 1]);
    expect(preview.immediateTransaction?.details.totals).toMatchObject({ total: '2064', grandTotal: '2064' });
    expect(preview.immediateTransaction?.details.lineItems.map((line) => line.proration?.rate)).toEqual([
      '0.516129',
      '0.516129',
    ]);
    expect(preview.updateSummary).toMatchObject({
      credit: { amount: '0', currencyCode: 'USD' },
      charge: { amount: '2064', currencyCode: 'USD' },
      result: { action: 'charge', amount: '2064', currencyCode: 'USD' },
    });
    expect(preview.nextTransaction?.details.totals.total).toBe('7000');
    expect(preview.recurringTransactionDetails?.totals.total).toBe('7000');
    expect(Date.parse(String(preview.nextTransaction?.billingPeriod.startsAt))).toBe(
      Date.parse('2026-04-01T00:00:00Z'),
    );

    expect((await w.api.get(`/subscriptions/${subscriptionId}`)).entity).toEqual(subscriptionBefore);
    expect(await w.transactionsOf(subscriptionId, 'subscription_update')).toEqual([]);
    expect((await w.api.get('/events?per_page=200')).list).toHaveLength(eventsBefore);

    const wirePreview = await w.api.patch(`/subscriptions/${subscriptionId}/preview`, {
      items: [
        { price_id: priceA, quantity: 2 },
        { price_id: priceB, quantity: 1 },
      ],
      proration_billing_mode: 'prorated_immediately',
    });
    expect(wirePreview.status, wirePreview.text).toBe(200);
    const previewed = wirePreview.entity.immediate_transaction as WireObject;

    await w.paddle.subscriptions.update(subscriptionId, request);
    const [issued] = await w.transactionsOf(subscriptionId, 'subscription_update');
    // The amounts are the same; the issued one has been paid since (balance, fee, earnings).
    const amounts = ({ balance: _b, fee: _f, earnings: _e, ...rest }: Record<string, string>) => rest;
    expect(amounts(details(issued ?? {}).totals)).toEqual(amounts(details(previewed).totals));
    const withoutIds = (lines: WireObject[]) => lines.map(({ id: _id, ...line }) => line);
    expect(withoutIds(details(issued ?? {}).line_items)).toEqual(withoutIds(details(previewed).line_items));
  });

  it('get with include=next_transaction,recurring_transaction_details prices the next renewal with its pending lines', async () => {
    const w = await newChangeWorld(harness);
    const priceA = await w.price('3000');
    const subscriptionId = await w.subscribe([{ priceId: priceA, quantity: 1 }]);
    await w.advance(15 * DAY_SECONDS);
    await w.paddle.subscriptions.update(subscriptionId, {
      items: [{ priceId: priceA, quantity: 2 }],
      prorationBillingMode: 'prorated_next_billing_period',
    });
    const plain = await w.paddle.subscriptions.get(subscriptionId);
    expect(plain.nextTransaction).toBeNull();
    const withIncludes = await w.paddle.subscriptions.get(subscriptionId, {
      include: ['next_transaction', 'recurring_transaction_details'],
    });
    // Next renewal: 2 × 3000 for April, plus 16/31 of one more unit for March (1548).
    expect(withIncludes.nextTransaction?.details.totals.total).toBe('7548');
    expect(withIncludes.recurringTransactionDetails?.totals.total).toBe('6000');
    expect(Date.parse(String(withIncludes.nextTransaction?.billingPeriod.startsAt))).toBe(
      Date.parse('2026-04-01T00:00:00Z'),
    );
    expectError(await w.api.get(`/subscriptions/${subscriptionId}?include=customer`), 400, 'invalid_field');
  });

  it('a preview refuses what the update refuses, with the same code', async () => {
    const w = await newChangeWorld(harness);
    const priceA = await w.price('3000');
    const subscriptionId = await w.subscribe([{ priceId: priceA, quantity: 1 }]);
    expectError(
      await w.api.patch(`/subscriptions/${subscriptionId}/preview`, { items: [{ price_id: priceA, quantity: 2 }] }),
      400,
      'subscription_items_update_missing_proration_billing_mode',
    );
    expectError(
      await w.api.patch(`/subscriptions/${subscriptionId}/preview`, { next_billed_at: '2026-05-01T00:00:00Z' }),
      400,
      'invalid_field',
    );
  });

  it('getCreditBalance lists one balance per currency, filtered by currency_code, and 404s a stranger’s customer', async () => {
    const w = await newChangeWorld(harness);
    expect(await w.paddle.customers.getCreditBalance(w.buyer.customerId)).toEqual([]);
    const priceA = await w.price('3000');
    const priceB = await w.price('1000');
    const subscriptionId = await w.subscribe([{ priceId: priceA, quantity: 1 }]);
    await w.advance(15 * DAY_SECONDS);
    await w.paddle.subscriptions.update(subscriptionId, {
      items: [{ priceId: priceB, quantity: 1 }],
      prorationBillingMode: 'prorated_immediately',
    });
    expect(await w.paddle.customers.getCreditBalance(w.buyer.customerId, { currencyCode: ['USD'] })).toEqual([
      expect.objectContaining({ currencyCode: 'USD', balance: { available: '1032', reserved: '0', used: '0' } }),
    ]);
    expect(await w.paddle.customers.getCreditBalance(w.buyer.customerId, { currencyCode: ['EUR'] })).toEqual([]);
    expectError(
      await w.api.get(`/customers/${w.buyer.customerId}/credit-balances?currency_code=XXX`),
      400,
      'invalid_field',
    );
    const stranger = await newChangeWorld(harness);
    expectError(await stranger.api.get(`/customers/${w.buyer.customerId}/credit-balances`), 404, 'not_found');
  });

  it('a credit completing a manual invoice is reserved when billed and used when paid', async () => {
    const w = await newChangeWorld(harness);
    const priceA = await w.price('3000');
    const priceB = await w.price('1000');
    const downgraded = await w.subscribe([{ priceId: priceA, quantity: 1 }]);
    const manual = await w.subscribe([{ priceId: priceA, quantity: 1 }], { collection_mode: 'manual' });
    await w.advance(15 * DAY_SECONDS);
    await w.paddle.subscriptions.update(downgraded, {
      items: [{ priceId: priceB, quantity: 1 }],
      prorationBillingMode: 'prorated_immediately',
    });
    await w.paddle.subscriptions.update(manual, {
      items: [{ priceId: priceA, quantity: 2 }],
      prorationBillingMode: 'prorated_immediately',
    });
    const [invoice] = await w.transactionsOf(manual, 'subscription_update');
    expect(invoice?.status).toBe('billed');
    expect(details(invoice ?? {}).totals).toMatchObject({
      total: '1548',
      credit: '1032',
      grand_total: '516',
      balance: '516',
    });
    const [reserved] = await w.paddle.customers.getCreditBalance(w.buyer.customerId);
    expect(reserved?.balance).toEqual({ available: '0', reserved: '1032', used: '0' });

    const paid = await w.api.post(`/transactions/${invoice?.id}/payments`, {
      method_type: 'bank_transfer',
      provider_reference: 'wire-2',
    });
    expect(paid.entity.status, paid.text).toBe('completed');
    const [used] = await w.paddle.customers.getCreditBalance(w.buyer.customerId);
    expect(used?.balance).toEqual({ available: '0', reserved: '0', used: '1032' });
  });

  it('an invoice its credit covers in full completes when it is issued (ADR 1011)', async () => {
    const w = await newChangeWorld(harness);
    const downgraded = await w.subscribe([{ priceId: await w.price('3000'), quantity: 1 }]);
    await w.advance(15 * DAY_SECONDS);
    await w.paddle.subscriptions.update(downgraded, {
      items: [{ priceId: await w.price('1000'), quantity: 1 }],
      prorationBillingMode: 'prorated_immediately',
    });
    const [available] = await w.paddle.customers.getCreditBalance(w.buyer.customerId);
    expect(available?.balance).toEqual({ available: '1032', reserved: '0', used: '0' });

    const fee = await createOneOffPrice(w.api, '1000', 'USD');
    const invoice = await w.api.post('/transactions', {
      customer_id: w.buyer.customerId,
      address_id: w.buyer.addressId,
      items: [{ price_id: fee, quantity: 1 }],
      collection_mode: 'manual',
      billing_details: { payment_terms: { interval: 'day', frequency: 14 } },
      status: 'billed',
    });
    expect(invoice.status, invoice.text).toBe(201);
    expect(invoice.entity.status).toBe('completed');
    expect(details(invoice.entity).totals).toMatchObject({ total: '1000', credit: '1000', balance: '0' });
    const [after] = await w.paddle.customers.getCreditBalance(w.buyer.customerId);
    expect(after?.balance).toEqual({ available: '32', reserved: '0', used: '1000' });
    const events = (await w.api.get(`/events?event_type=transaction.completed`)).list;
    expect(events.map((event) => (event.data as WireObject).id)).toContain(invoice.id);
  });

  it('two changes charging at once draw one credit exactly once between them', async () => {
    const w = await newChangeWorld(harness);
    const priceA = await w.price('3000');
    const priceB = await w.price('1000');
    const source = await w.subscribe([{ priceId: priceA, quantity: 1 }]);
    const first = await w.subscribe([{ priceId: priceA, quantity: 1 }]);
    const second = await w.subscribe([{ priceId: priceA, quantity: 1 }]);
    await w.advance(15 * DAY_SECONDS);
    await w.paddle.subscriptions.update(source, {
      items: [{ priceId: priceB, quantity: 1 }],
      prorationBillingMode: 'prorated_immediately',
    });

    const upgrade = {
      items: [{ priceId: priceA, quantity: 2 }],
      prorationBillingMode: 'prorated_immediately' as const,
    };
    await Promise.all([w.paddle.subscriptions.update(first, upgrade), w.paddle.subscriptions.update(second, upgrade)]);

    const charges = [
      ...(await w.transactionsOf(first, 'subscription_update')),
      ...(await w.transactionsOf(second, 'subscription_update')),
    ];
    expect(charges).toHaveLength(2);
    const credits = charges.map((charge) => BigInt(details(charge).totals.credit ?? '0'));
    expect(credits.reduce((sum, credit) => sum + credit, 0n)).toBe(1032n);
    expect(charges.map((charge) => charge.status)).toEqual(['completed', 'completed']);
    const [balance] = await w.paddle.customers.getCreditBalance(w.buyer.customerId);
    expect(balance?.balance).toEqual({ available: '0', reserved: '0', used: '1032' });
  });
});
