/**
 * The seven metrics endpoints through the official SDK, each checked against values this test
 * computes on its own from the transactions, refunds and subscriptions it made: net revenue
 * (total minus tax) of completed transactions by completion day and currency, refunds net of
 * tax, checkouts and their conversion by creation day, subscribers and monthly recurring
 * revenue as running totals. The sandbox clock is set to noon so a test never straddles a day.
 */
import { type BillingHarness, ENGINES, startBillingHarness, startSandboxSubscription } from '@drawdown/testkit';
import type { Paddle } from '@paddle/paddle-node-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, expectError, harnessClients, type WireObject } from '../support/api-client.js';
import { createCustomer, createPrice, createProduct } from '../support/catalogue-fixtures.js';
import { officialSdk } from '../support/official-sdk.js';
import { createBuyer, createOneOffPrice, readyTransaction, totalsOf } from '../transactions/transaction-fixtures.js';

const DAY_MS = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

interface Expected {
  revenue: Map<string, { amount: bigint; count: number }>;
  refunds: Map<string, bigint>;
  checkouts: Map<string, { count: number; completed: number }>;
}

describe.each(ENGINES)('metrics on %s', (engine) => {
  let harness: BillingHarness;
  let sandbox: ApiClient;
  let paddle: Paddle;
  let firstDay: number;
  const expected: Expected = { revenue: new Map(), refunds: new Map(), checkouts: new Map() };
  const key = (currency: string, day: string) => `${currency} ${day}`;

  async function sandboxNow(): Promise<number> {
    return Date.parse(String((await sandbox.get('/sandbox-clock')).entity.now));
  }

  /** Creates a transaction and, when `pay`, completes it; records what the metrics should say. */
  async function checkout(priceId: string, currency: string, pay: boolean): Promise<WireObject> {
    const buyer = await createBuyer(sandbox);
    const created = await readyTransaction(sandbox, buyer, priceId);
    const createdDay = dayOf(Date.parse(String(created.created_at)));
    const checkouts = expected.checkouts.get(createdDay) ?? { count: 0, completed: 0 };
    checkouts.count += 1;
    if (pay) {
      const paid = await sandbox.post(`/transactions/${created.id}/simulate-payment`, { outcome: 'success' });
      expect(paid.status, paid.text).toBe(200);
      const completed = (await sandbox.get(`/transactions/${created.id}`)).entity;
      expect(completed.status).toBe('completed');
      const totals = totalsOf(completed);
      const day = dayOf(await sandboxNow());
      const revenue = expected.revenue.get(key(currency, day)) ?? { amount: 0n, count: 0 };
      revenue.amount += BigInt(String(totals.total)) - BigInt(String(totals.tax));
      revenue.count += 1;
      expected.revenue.set(key(currency, day), revenue);
      checkouts.completed += 1;
    }
    expected.checkouts.set(createdDay, checkouts);
    return created;
  }

  beforeAll(async () => {
    harness = await startBillingHarness({ engine });
    sandbox = harnessClients(harness).sandbox;
    paddle = officialSdk(harness.sandboxKey, harness.sandboxUrl);
    // Noon the day after tomorrow (UTC): everything below happens well inside one sandbox day.
    firstDay = Math.floor(Date.now() / DAY_MS) * DAY_MS + 2 * DAY_MS;
    await sandbox.post('/sandbox-clock/advance', { to: new Date(firstDay + DAY_MS / 2).toISOString() });
  });
  afterAll(async () => harness?.close());

  it('answers every metric from the stored data, per currency and day', async () => {
    const usd = await createOneOffPrice(sandbox, '1999', 'USD');
    const eur = await createOneOffPrice(sandbox, '1000', 'EUR');
    await checkout(usd, 'USD', true);
    await checkout(usd, 'USD', true);
    await checkout(usd, 'USD', false);
    await checkout(eur, 'EUR', true);
    const productId = await createProduct(sandbox);
    const monthly = await createPrice(sandbox, productId, { unit_price: { amount: '3000', currency_code: 'USD' } });
    const yearly = await createPrice(sandbox, productId, {
      unit_price: { amount: '12001', currency_code: 'USD' },
      billing_cycle: { interval: 'year', frequency: 1 },
    });
    const customerId = await createCustomer(sandbox);
    await startSandboxSubscription(harness, { customerId, items: [{ priceId: String(monthly.id), quantity: 2 }] });
    const yearlyId = await startSandboxSubscription(harness, {
      customerId: await createCustomer(sandbox),
      items: [{ priceId: String(yearly.id), quantity: 1 }],
    });

    // The next day: one more sale, a refund, and the yearly subscription canceled.
    await sandbox.post('/sandbox-clock/advance', { seconds: 86_400 });
    const refunded = await checkout(usd, 'USD', true);
    const line = ((refunded.details as WireObject).line_items as WireObject[])[0]?.id;
    const refund = await sandbox.post('/adjustments', {
      action: 'refund',
      transaction_id: refunded.id,
      reason: 'Customer request',
      items: [{ item_id: line, type: 'partial', amount: '1500' }],
    });
    expect(refund.status, refund.text).toBe(201);
    const refundTotals = refund.entity.totals as WireObject;
    expected.refunds.set(
      dayOf(await sandboxNow()),
      BigInt(String(refundTotals.total)) - BigInt(String(refundTotals.tax)),
    );
    const canceled = await sandbox.post(`/subscriptions/${yearlyId}/cancel`, { effective_from: 'immediately' });
    expect(canceled.status, canceled.text).toBe(200);

    const from = dayOf(firstDay - DAY_MS);
    const to = dayOf(firstDay + 2 * DAY_MS);
    const days = [firstDay - DAY_MS, firstDay, firstDay + DAY_MS].map(dayOf);

    const revenue = await paddle.metrics.getRevenue({ from, to });
    expect(revenue).toMatchObject({ currencyCode: 'USD', interval: 'day' });
    expect(revenue.startsAt).toBe(`${from}T00:00:00.000Z`);
    expect(revenue.endsAt).toBe(`${to}T00:00:00.000Z`);
    expect(revenue.timeseries.map((point) => [point.timestamp.slice(0, 10), point.amount, point.count])).toEqual(
      days.map((day) => {
        const row = expected.revenue.get(key('USD', day));
        return [day, (row?.amount ?? 0n).toString(), row?.count ?? 0];
      }),
    );
    const eurRevenue = await sandbox.get(`/metrics/revenue?from=${from}&to=${to}&currency_code=EUR`);
    expect((eurRevenue.entity.timeseries as WireObject[]).map((point) => point.amount)).toEqual(
      days.map((day) => (expected.revenue.get(key('EUR', day))?.amount ?? 0n).toString()),
    );

    const refunds = await paddle.metrics.getRefunds({ from, to });
    expect(refunds.timeseries.map((point) => point.amount)).toEqual(
      days.map((day) => (expected.refunds.get(day) ?? 0n).toString()),
    );
    const chargebacks = await paddle.metrics.getChargebacks({ from, to });
    expect(chargebacks.timeseries.map((point) => point.count)).toEqual([0, 0, 0]);

    const conversion = await paddle.metrics.getCheckoutConversion({ from, to });
    expect(conversion.timeseries.map((point) => [point.count, point.completedCount, point.rate])).toEqual(
      days.map((day) => {
        const row = expected.checkouts.get(day) ?? { count: 0, completed: 0 };
        const rate = row.count === 0 ? '0' : String(Math.round((row.completed / row.count) * 10_000) / 10_000);
        return [row.count, row.completed, rate];
      }),
    );

    // Monthly 3000 × 2 and yearly 12001 / 12 = 1000.08… → 1000 (half to even, per subscription).
    const subscribers = await paddle.metrics.getActiveSubscribers({ from, to });
    expect(subscribers.timeseries.map((point) => point.count)).toEqual([0, 2, 1]);
    const mrr = await paddle.metrics.getMonthlyRecurringRevenue({ from, to });
    expect(mrr.timeseries.map((point) => point.amount)).toEqual(['0', '7000', '6000']);
    const change = await paddle.metrics.getMonthlyRecurringRevenueChange({ from, to });
    expect(change.timeseries.map((point) => point.amount)).toEqual(['0', '7000', '-1000']);
    const empty = await paddle.metrics.getRevenue({ from, to: from });
    expect(empty.timeseries).toEqual([]);
  });

  it('refuses bad ranges and parameters with specific codes', async () => {
    expectError(await sandbox.get('/metrics/revenue?from=2026-01-01&to=2027-01-03'), 400, 'metrics_range_too_long');
    expectError(await sandbox.get('/metrics/revenue?from=2026-02-01&to=2026-01-01'), 400, 'invalid_field');
    expectError(await sandbox.get('/metrics/revenue?from=2026-02-30&to=2026-03-01'), 400, 'invalid_field');
    expectError(await sandbox.get('/metrics/revenue?to=2026-03-01'), 400, 'invalid_field');
    expectError(
      await sandbox.get('/metrics/revenue?from=2026-01-01&to=2026-01-02&interval=week'),
      400,
      'invalid_field',
    );
    expectError(
      await sandbox.get('/metrics/active-subscribers?from=2026-01-01&to=2026-01-02&currency_code=USD'),
      400,
      'invalid_field',
    );
    expectError(
      await sandbox.get('/metrics/revenue?from=2026-01-01&to=2026-01-02&currency_code=XYZ'),
      400,
      'invalid_field',
    );
  });
});
