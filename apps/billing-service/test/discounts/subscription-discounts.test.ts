/**
 * Discounts on subscriptions, on both engines: a recurring discount from the checkout applies to
 * as many renewals as it recurs for, counted once per period even when two clock advances race;
 * `PATCH /subscriptions/{id}` sets one from the next billing period (the official SDK's
 * `discount`) and removes one. `immediately` is in `subscriptions/discount-immediately.test.ts`.
 */
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import type { Paddle } from '@paddle/paddle-node-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, harnessClients } from '../support/api-client.js';
import { createProduct } from '../support/catalogue-fixtures.js';
import { officialSdk } from '../support/official-sdk.js';
import { type Buyer, createBuyer, totalsOf } from '../transactions/transaction-fixtures.js';

const MONTH = 32 * 86_400;

describe.each(ENGINES)('%s: subscription discounts', (engine) => {
  let harness: BillingHarness;
  let paddle: Paddle;
  let sandbox: ApiClient;
  let buyer: Buyer;
  let monthly: string;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine });
    ({ sandbox } = harnessClients(harness));
    paddle = officialSdk(harness.sandboxKey, harness.sandboxUrl);
    buyer = await createBuyer(sandbox, 'GB');
    const price = await sandbox.post('/prices', {
      product_id: await createProduct(sandbox, { name: 'Team plan' }),
      description: 'Monthly',
      unit_price: { amount: '10000', currency_code: 'GBP' },
      billing_cycle: { interval: 'month', frequency: 1 },
    });
    expect(price.status, price.text).toBe(201);
    monthly = price.id;
  });
  afterAll(() => harness.close());

  async function subscribe(body: Record<string, unknown>): Promise<string> {
    const transaction = await sandbox.post('/transactions', {
      items: [{ price_id: monthly, quantity: 1 }],
      customer_id: buyer.customerId,
      address_id: buyer.addressId,
      ...body,
    });
    expect(transaction.status, transaction.text).toBe(201);
    const paid = await sandbox.post(`/transactions/${transaction.id}/simulate-payment`, { outcome: 'success' });
    return String(paid.entity.subscription_id);
  }

  async function renewalDiscounts(subscriptionId: string): Promise<string[]> {
    const list = await sandbox.get(
      `/transactions?subscription_id=${subscriptionId}&origin=subscription_recurring&order_by=id[ASC]`,
    );
    return list.list.map((transaction) => String(totalsOf(transaction).discount));
  }

  it('applies a checkout discount to as many periods as it recurs for, once each, even when advances race', async () => {
    const discount = await paddle.discounts.create({
      description: 'Two months at 25% off',
      type: 'percentage',
      amount: '25',
      recur: true,
      maximumRecurringIntervals: 2,
    });
    const subscriptionId = await subscribe({ discount_id: discount.id });
    const subscription = await paddle.subscriptions.get(subscriptionId);
    expect(subscription.discount?.id).toBe(discount.id);
    // Limited to two periods: it ends with the second, the one the first renewal starts (issue 36).
    const endsAt = subscription.discount?.endsAt;
    expect(endsAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);

    // Two advances at once: each renewal runs once, and its discount is counted once.
    const target = new Date(Date.now() + MONTH * 1000).toISOString();
    const [first, second] = await Promise.all([
      sandbox.post('/sandbox-clock/advance', { to: target, renewal_payments: 'success' }),
      sandbox.post('/sandbox-clock/advance', { to: target, renewal_payments: 'success' }),
    ]);
    expect([first.status, second.status].some((status) => status === 200)).toBe(true);
    expect(await renewalDiscounts(subscriptionId)).toEqual(['2500']);
    const renewed = await paddle.subscriptions.get(subscriptionId);
    expect(renewed.discount).toBeNull();
    expect(renewed.currentBillingPeriod?.endsAt).toBe(endsAt);

    await sandbox.post('/sandbox-clock/advance', { seconds: MONTH });
    expect(await renewalDiscounts(subscriptionId)).toEqual(['2500', '0']);
  });

  it('sets a discount from the next billing period with the SDK, and removes it', async () => {
    const subscriptionId = await subscribe({});
    const discount = await paddle.discounts.create({
      description: 'Ten off, one period',
      type: 'flat',
      amount: '1000',
      currencyCode: 'GBP',
      recur: true,
      maximumRecurringIntervals: 1,
      usageLimit: 5,
    });
    const updated = await paddle.subscriptions.update(subscriptionId, {
      discount: { id: discount.id, effectiveFrom: 'next_billing_period' },
    });
    expect(updated.discount?.id).toBe(discount.id);
    expect((await paddle.discounts.get(discount.id)).timesUsed).toBe(1);
    // One period from the next renewal: it ends where that period ends (issue 36).
    const oneEndsAt = updated.discount?.endsAt;
    expect(oneEndsAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    await sandbox.post('/sandbox-clock/advance', { seconds: MONTH });
    const renewedOnce = await paddle.subscriptions.get(subscriptionId);
    expect(renewedOnce.currentBillingPeriod?.endsAt).toBe(oneEndsAt);
    expect(renewedOnce.discount).toBeNull();

    await sandbox.post('/sandbox-clock/advance', { seconds: MONTH });
    expect(await renewalDiscounts(subscriptionId)).toEqual(['1000', '0']);

    const other = await paddle.discounts.create({
      description: 'Five off',
      type: 'percentage',
      amount: '5',
      recur: true,
    });
    const forever = await paddle.subscriptions.update(subscriptionId, {
      discount: { id: other.id, effectiveFrom: 'next_billing_period' },
    });
    // A discount that recurs for ever never ends.
    expect(forever.discount).toMatchObject({ id: other.id, endsAt: null });
    const removed = await paddle.subscriptions.update(subscriptionId, { discount: null });
    expect(removed.discount).toBeNull();
    expect((await paddle.discounts.get(other.id)).timesUsed).toBe(0);
  });
});
