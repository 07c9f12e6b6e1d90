/**
 * Item changes bill what the public API bills, through the official SDK on both engines, on a
 * frozen wall clock so every amount is computed by hand: a monthly period of 31 days from
 * 1 March, a change on 16 March, 16 days (16/31) left.
 *
 * Prices: A = 3000, B = 1000 (USD, no tax). 16/31 of A is 1548.387… → 1548; of B 516.129… → 516;
 * of 2 × A 3096.774… → 3097 (half to even, once per line; ADR 1000).
 */
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, type WireObject } from '../support/api-client.js';
import { type ChangeWorld, DAY_SECONDS, frozenClock, newChangeWorld, roundHalfEven } from './change-fixtures.js';

const CHANGE_AT = '2026-03-16T00:00:00.000Z';
const PERIOD_END = '2026-04-01T00:00:00.000Z';

function totals(transaction: WireObject): Record<string, string> {
  return (transaction.details as { totals: Record<string, string> }).totals;
}

function lineItems(transaction: WireObject): WireObject[] {
  return (transaction.details as { line_items: WireObject[] }).line_items;
}

function instant(value: unknown): number {
  return Date.parse(String(value));
}

describe.each(ENGINES)('%s: subscription item changes and proration', (engine) => {
  let harness: BillingHarness;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine, clock: frozenClock });
  });
  afterAll(() => harness.close());

  async function world(): Promise<ChangeWorld & { priceA: string; priceB: string }> {
    const base = await newChangeWorld(harness);
    return { ...base, priceA: await base.price('3000'), priceB: await base.price('1000') };
  }

  it('hand-checks the arithmetic the tests rely on', () => {
    expect(roundHalfEven(3000n * 16n, 31n)).toBe(1548n);
    expect(roundHalfEven(1000n * 16n, 31n)).toBe(516n);
    expect(roundHalfEven(6000n * 16n, 31n)).toBe(3097n);
  });

  it('prorated_immediately: a quantity 1 → 2 charges 16/31 of one unit now, in a subscription_update transaction', async () => {
    const w = await world();
    const subscriptionId = await w.subscribe([{ priceId: w.priceA, quantity: 1 }]);
    await w.advance(15 * DAY_SECONDS);

    const updated = await w.paddle.subscriptions.update(subscriptionId, {
      items: [{ priceId: w.priceA, quantity: 2 }],
      prorationBillingMode: 'prorated_immediately',
    });
    expect(updated.items[0]?.quantity).toBe(2);
    expect(updated.status).toBe('active');

    const [charge, ...rest] = await w.transactionsOf(subscriptionId, 'subscription_update');
    expect(rest).toHaveLength(0);
    expect(charge).toMatchObject({ status: 'completed', origin: 'subscription_update', collection_mode: 'automatic' });
    expect(totals(charge ?? {})).toMatchObject({ subtotal: '1548', tax: '0', total: '1548', grand_total: '1548' });
    const [line] = lineItems(charge ?? {});
    expect(line).toMatchObject({ price_id: w.priceA, quantity: 1, totals: { total: '1548' } });
    const proration = line?.proration as { rate: string; billing_period: { starts_at: string; ends_at: string } };
    expect(proration.rate).toBe('0.516129');
    expect(instant(proration.billing_period.starts_at)).toBe(Date.parse(CHANGE_AT));
    expect(instant(proration.billing_period.ends_at)).toBe(Date.parse(PERIOD_END));
    expect((charge?.items as WireObject[])[0]?.proration).toEqual(line?.proration);

    const sdkView = await w.paddle.transactions.get(String(charge?.id));
    expect(sdkView.details?.lineItems[0]?.proration?.rate).toBe('0.516129');
  });

  it('a downgrade credits the customer’s balance; its exact reversal uses that credit and nets to zero', async () => {
    const w = await world();
    const subscriptionId = await w.subscribe([{ priceId: w.priceA, quantity: 1 }]);
    await w.advance(15 * DAY_SECONDS);

    await w.paddle.subscriptions.update(subscriptionId, {
      items: [{ priceId: w.priceB, quantity: 1 }],
      prorationBillingMode: 'prorated_immediately',
    });
    const [down] = await w.transactionsOf(subscriptionId, 'subscription_update');
    expect(down?.status).toBe('completed');
    expect(
      lineItems(down ?? {}).map((line) => [line.price_id, line.quantity, (line.totals as WireObject).total]),
    ).toEqual([
      [w.priceA, -1, '-1548'],
      [w.priceB, 1, '516'],
    ]);
    expect(totals(down ?? {})).toMatchObject({
      total: '-1032',
      credit: '0',
      credit_to_balance: '1032',
      grand_total: '0',
      balance: '0',
    });
    const [afterDown] = await w.paddle.customers.getCreditBalance(w.buyer.customerId);
    expect(afterDown).toMatchObject({
      customerId: w.buyer.customerId,
      currencyCode: 'USD',
      balance: { available: '1032', reserved: '0', used: '0' },
    });

    await w.paddle.subscriptions.update(subscriptionId, {
      items: [{ priceId: w.priceA, quantity: 1 }],
      prorationBillingMode: 'prorated_immediately',
    });
    const [, up] = await w.transactionsOf(subscriptionId, 'subscription_update');
    expect(up?.status).toBe('completed');
    expect(totals(up ?? {})).toMatchObject({ total: '1032', credit: '1032', grand_total: '0', credit_to_balance: '0' });
    expect(BigInt(totals(down ?? {}).total ?? '0') + BigInt(totals(up ?? {}).total ?? '0')).toBe(0n);
    const [afterUp] = await w.paddle.customers.getCreditBalance(w.buyer.customerId);
    expect(afterUp?.balance).toEqual({ available: '0', reserved: '0', used: '1032' });
  });

  it('full_immediately: an added item is charged for the whole period, without a proration', async () => {
    const w = await world();
    const subscriptionId = await w.subscribe([{ priceId: w.priceA, quantity: 1 }]);
    await w.advance(15 * DAY_SECONDS);
    await w.paddle.subscriptions.update(subscriptionId, {
      items: [
        { priceId: w.priceA, quantity: 1 },
        { priceId: w.priceB, quantity: 2 },
      ],
      prorationBillingMode: 'full_immediately',
    });
    const [charge] = await w.transactionsOf(subscriptionId, 'subscription_update');
    expect(totals(charge ?? {})).toMatchObject({ total: '2000', grand_total: '2000' });
    expect(lineItems(charge ?? {})).toEqual([
      expect.objectContaining({ price_id: w.priceB, quantity: 2, proration: null }),
    ]);
  });

  it('prorated_next_billing_period: nothing now; the renewal carries the prorated lines', async () => {
    const w = await world();
    const subscriptionId = await w.subscribe([{ priceId: w.priceA, quantity: 1 }]);
    await w.advance(15 * DAY_SECONDS);
    await w.paddle.subscriptions.update(subscriptionId, {
      items: [{ priceId: w.priceA, quantity: 3 }],
      prorationBillingMode: 'prorated_next_billing_period',
    });
    expect(await w.transactionsOf(subscriptionId, 'subscription_update')).toEqual([]);

    await w.advance(16 * DAY_SECONDS);
    const renewals = await w.transactionsOf(subscriptionId, 'subscription_recurring');
    expect(renewals).toHaveLength(1);
    const renewal = renewals[0] ?? {};
    expect(renewal.status).toBe('completed');
    expect(lineItems(renewal).map((line) => [line.quantity, (line.totals as WireObject).total])).toEqual([
      [3, '9000'],
      [2, '3097'],
    ]);
    expect(totals(renewal)).toMatchObject({ total: '12097', grand_total: '12097' });
    expect((lineItems(renewal)[1]?.proration as { rate: string }).rate).toBe('0.516129');

    // The lines are billed once: the renewal after carries only the items.
    await w.advance(30 * DAY_SECONDS);
    const later = await w.transactionsOf(subscriptionId, 'subscription_recurring');
    expect(later).toHaveLength(2);
    expect(totals(later[1] ?? {}).total).toBe('9000');
  });

  it('full_next_billing_period: a downgrade’s whole difference is credited on the renewal', async () => {
    const w = await world();
    const subscriptionId = await w.subscribe([{ priceId: w.priceA, quantity: 1 }]);
    await w.advance(15 * DAY_SECONDS);
    await w.paddle.subscriptions.update(subscriptionId, {
      items: [{ priceId: w.priceB, quantity: 1 }],
      prorationBillingMode: 'full_next_billing_period',
    });
    await w.advance(16 * DAY_SECONDS);
    const [renewal] = await w.transactionsOf(subscriptionId, 'subscription_recurring');
    expect(lineItems(renewal ?? {}).map((line) => [line.price_id, line.quantity, line.proration])).toEqual([
      [w.priceB, 1, null],
      [w.priceA, -1, null],
      [w.priceB, 1, null],
    ]);
    expect(totals(renewal ?? {})).toMatchObject({ total: '-1000', grand_total: '0', credit_to_balance: '1000' });
    expect(renewal?.status).toBe('completed');
    const [balance] = await w.paddle.customers.getCreditBalance(w.buyer.customerId);
    expect(balance?.balance?.available).toBe('1000');
  });

  it('do_not_bill: the items change and nothing is billed until the renewal bills the new items', async () => {
    const w = await world();
    const subscriptionId = await w.subscribe([{ priceId: w.priceA, quantity: 1 }]);
    await w.advance(15 * DAY_SECONDS);
    const updated = await w.paddle.subscriptions.update(subscriptionId, {
      items: [{ priceId: w.priceA, quantity: 2 }],
      prorationBillingMode: 'do_not_bill',
    });
    expect(updated.items[0]?.quantity).toBe(2);
    expect(await w.transactionsOf(subscriptionId, 'subscription_update')).toEqual([]);
    await w.advance(16 * DAY_SECONDS);
    const [renewal] = await w.transactionsOf(subscriptionId, 'subscription_recurring');
    expect(totals(renewal ?? {}).total).toBe('6000');
  });

  it('a manually collected subscription’s immediate change is an issued invoice', async () => {
    const w = await world();
    const subscriptionId = await w.subscribe([{ priceId: w.priceA, quantity: 1 }], { collection_mode: 'manual' });
    await w.advance(15 * DAY_SECONDS);
    await w.paddle.subscriptions.update(subscriptionId, {
      items: [{ priceId: w.priceA, quantity: 2 }],
      prorationBillingMode: 'prorated_immediately',
    });
    const [invoice] = await w.transactionsOf(subscriptionId, 'subscription_update');
    expect(invoice).toMatchObject({ status: 'billed', collection_mode: 'manual' });
    expect(invoice?.invoice_number).toMatch(/^2026-\d{5}$/);
    expect(totals(invoice ?? {}).balance).toBe('1548');
  });

  it('billing_details: switching to manual collection with net-14 terms invoices the next change on those terms', async () => {
    const w = await world();
    const subscriptionId = await w.subscribe([{ priceId: w.priceA, quantity: 1 }]);
    expectError(
      await w.api.patch(`/subscriptions/${subscriptionId}`, {
        billing_details: { payment_terms: { interval: 'day', frequency: 14 } },
      }),
      400,
      'invalid_field',
    );
    const manual = await w.api.patch(`/subscriptions/${subscriptionId}`, {
      collection_mode: 'manual',
      billing_details: { payment_terms: { interval: 'day', frequency: 14 }, purchase_order_number: 'PO-7' },
    });
    expect(manual.status, manual.text).toBe(200);
    expect(manual.entity.billing_details).toMatchObject({
      payment_terms: { interval: 'day', frequency: 14 },
      purchase_order_number: 'PO-7',
    });
    await w.advance(15 * DAY_SECONDS);
    await w.paddle.subscriptions.update(subscriptionId, {
      items: [{ priceId: w.priceA, quantity: 2 }],
      prorationBillingMode: 'prorated_immediately',
    });
    const [invoice] = await w.transactionsOf(subscriptionId, 'subscription_update');
    expect(invoice).toMatchObject({
      status: 'billed',
      collection_mode: 'manual',
      billing_details: { payment_terms: { interval: 'day', frequency: 14 }, purchase_order_number: 'PO-7' },
    });
    const automatic = await w.api.patch(`/subscriptions/${subscriptionId}`, { collection_mode: 'automatic' });
    expect(automatic.entity.billing_details).toBeNull();
  });

  describe('on_payment_failure, with the sandbox’s simulated card declining', () => {
    it('prevent_change: refused with subscription_payment_declined; the subscription, its transactions and its events are as before', async () => {
      const w = await world();
      const subscriptionId = await w.subscribe([{ priceId: w.priceA, quantity: 1 }]);
      await w.advance(15 * DAY_SECONDS);
      expect((await w.api.request('PUT', '/sandbox-payment-outcome', { body: { outcome: 'failure' } })).status).toBe(
        200,
      );
      const before = (await w.api.get(`/subscriptions/${subscriptionId}`)).entity;
      const transactionsBefore = await w.transactionsOf(subscriptionId);
      const eventsBefore = (await w.api.get('/events?per_page=200')).list.length;

      const refused = await w.api.patch(`/subscriptions/${subscriptionId}`, {
        items: [{ price_id: w.priceA, quantity: 2 }],
        proration_billing_mode: 'prorated_immediately',
        on_payment_failure: 'prevent_change',
      });
      expectError(refused, 409, 'subscription_payment_declined');
      expect((await w.api.get(`/subscriptions/${subscriptionId}`)).entity).toEqual(before);
      expect(await w.transactionsOf(subscriptionId)).toEqual(transactionsBefore);
      expect((await w.api.get('/events?per_page=200')).list).toHaveLength(eventsBefore);
    });

    it('apply_change: the change stays, the charge and the subscription are past due', async () => {
      const w = await world();
      const subscriptionId = await w.subscribe([{ priceId: w.priceA, quantity: 1 }]);
      await w.advance(15 * DAY_SECONDS);
      await w.api.request('PUT', '/sandbox-payment-outcome', { body: { outcome: 'failure' } });
      const updated = await w.paddle.subscriptions.update(subscriptionId, {
        items: [{ priceId: w.priceA, quantity: 2 }],
        prorationBillingMode: 'prorated_immediately',
        onPaymentFailure: 'apply_change',
      });
      expect(updated.status).toBe('past_due');
      expect(updated.items[0]?.quantity).toBe(2);
      const [charge] = await w.transactionsOf(subscriptionId, 'subscription_update');
      expect(charge?.status).toBe('past_due');
      expect((charge?.payments as WireObject[])[0]).toMatchObject({ status: 'error', error_code: 'declined' });
    });
  });

  describe('refusals change nothing', () => {
    it('refuses a past-due subscription a change that charges now, a canceled one any change, and a price in another currency', async () => {
      const w = await world();
      const subscriptionId = await w.subscribe([{ priceId: w.priceA, quantity: 1 }]);
      const euro = await w.price('900', { unit_price: { amount: '900', currency_code: 'EUR' } });
      expectError(
        await w.api.patch(`/subscriptions/${subscriptionId}`, {
          items: [{ price_id: euro, quantity: 1 }],
          proration_billing_mode: 'prorated_immediately',
        }),
        400,
        'subscription_currency_mismatch',
      );

      await w.api.request('PUT', '/sandbox-payment-outcome', { body: { outcome: 'failure' } });
      await w.advance(15 * DAY_SECONDS);
      const pastDue = await w.api.patch(`/subscriptions/${subscriptionId}`, {
        items: [{ price_id: w.priceA, quantity: 2 }],
        proration_billing_mode: 'prorated_immediately',
        on_payment_failure: 'apply_change',
      });
      expect(pastDue.entity.status).toBe('past_due');
      expectError(
        await w.api.patch(`/subscriptions/${subscriptionId}`, {
          items: [{ price_id: w.priceA, quantity: 3 }],
          proration_billing_mode: 'full_immediately',
        }),
        409,
        'subscription_update_when_past_due',
      );

      await w.api.post(`/subscriptions/${subscriptionId}/cancel`, { effective_from: 'immediately' });
      expectError(
        await w.api.patch(`/subscriptions/${subscriptionId}`, {
          items: [{ price_id: w.priceA, quantity: 1 }],
          proration_billing_mode: 'do_not_bill',
        }),
        409,
        'subscription_canceled',
      );
    });

    it('refuses a currency its prices have no price in, a scheduled change object, and addresses that are not the customer’s', async () => {
      const w = await world();
      const subscriptionId = await w.subscribe([{ priceId: w.priceA, quantity: 1 }]);
      const before = (await w.api.get(`/subscriptions/${subscriptionId}`)).entity;
      const refused = await w.api.patch(`/subscriptions/${subscriptionId}`, {
        currency_code: 'EUR',
        custom_data: { changed: true },
      });
      const error = expectError(refused, 400, 'subscription_currency_mismatch');
      expect(error.detail).toContain('priced in USD');
      expect((await w.api.get(`/subscriptions/${subscriptionId}`)).entity).toEqual(before);
      expectError(
        await w.api.patch(`/subscriptions/${subscriptionId}`, {
          scheduled_change: { action: 'cancel', effective_at: '2026-05-01T00:00:00Z' },
        }),
        400,
        'invalid_field',
      );
      const foreignAddress = await newChangeWorld(harness);
      expectError(
        await w.api.patch(`/subscriptions/${subscriptionId}`, { address_id: foreignAddress.buyer.addressId }),
        400,
        'address_not_found',
      );
      const otherBuyer = await w.api.post('/customers', { email: 'other-buyer@example.com' });
      const otherAddress = await w.api.post(`/customers/${otherBuyer.id}/addresses`, { country_code: 'US' });
      expectError(
        await w.api.patch(`/subscriptions/${subscriptionId}`, { address_id: otherAddress.id }),
        400,
        'address_not_found',
      );
      expect((await w.api.get(`/subscriptions/${subscriptionId}`)).entity).toEqual(before);
    });
  });
});
