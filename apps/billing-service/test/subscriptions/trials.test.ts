/**
 * Trials, through the official SDK on both engines: a price with a 7-day trial starts its
 * subscription `trialing` for nothing, the sandbox clock ends the trial and charges the first
 * period, `activate` ends it at once; each step's webhooks verified with the SDK's `unmarshal`.
 */
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import type { Paddle } from '@paddle/paddle-node-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookTestbed, type WebhookTestbed } from '../notifications/webhook-receiver.js';
import { type ApiClient, expectError, harnessClients, type WireObject } from '../support/api-client.js';
import { createProduct } from '../support/catalogue-fixtures.js';
import { sdkRefusal } from '../support/official-sdk.js';
import { type Buyer, createBuyer } from '../transactions/transaction-fixtures.js';

const DAY_MS = 86_400_000;

describe.each(ENGINES)('%s: trials', (engine) => {
  let harness: BillingHarness;
  let testbed: WebhookTestbed;
  let paddle: Paddle;
  let sandbox: ApiClient;
  let trialPrice: string;
  let plainPrice: string;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine, allowPrivateWebhooks: true });
    testbed = await startWebhookTestbed(harness, {
      events: ['subscription.created', 'subscription.trialing', 'subscription.activated'],
    });
    paddle = testbed.paddle;
    ({ sandbox } = harnessClients(harness));
    const productId = await createProduct(sandbox, { name: 'Studio' });
    const price = async (body: WireObject) => {
      const response = await sandbox.post('/prices', {
        product_id: productId,
        description: 'Studio monthly',
        unit_price: { amount: '2500', currency_code: 'USD' },
        billing_cycle: { interval: 'month', frequency: 1 },
        ...body,
      });
      expect(response.status, response.text).toBe(201);
      return response.id;
    };
    trialPrice = await price({ trial_period: { interval: 'day', frequency: 7 } });
    plainPrice = await price({});
  });
  afterAll(async () => {
    await testbed.close();
    await harness.close();
  });

  async function startTrial(buyer: Buyer): Promise<{ subscriptionId: string; checkout: WireObject }> {
    const checkout = await sandbox.post('/transactions', {
      customer_id: buyer.customerId,
      address_id: buyer.addressId,
      items: [{ price_id: trialPrice, quantity: 1 }],
    });
    expect(checkout.status, checkout.text).toBe(201);
    const paid = await sandbox.post(`/transactions/${checkout.id}/simulate-payment`, { outcome: 'success' });
    expect(paid.status, paid.text).toBe(200);
    return { subscriptionId: String(paid.entity.subscription_id), checkout: paid.entity };
  }

  it('a trial price starts the subscription trialing, charged nothing, billed next at the trial’s end', async () => {
    const buyer = await createBuyer(sandbox, 'US');
    const { subscriptionId, checkout } = await startTrial(buyer);
    expect((checkout.details as { totals: WireObject }).totals).toMatchObject({ total: '0', grand_total: '0' });
    expect(checkout.status).toBe('completed');

    const subscription = await paddle.subscriptions.get(subscriptionId);
    expect(subscription.status).toBe('trialing');
    const trial = subscription.items[0]?.trialDates;
    expect(Date.parse(String(trial?.endsAt)) - Date.parse(String(trial?.startsAt))).toBe(7 * DAY_MS);
    expect(subscription.items[0]?.status).toBe('trialing');
    expect(subscription.nextBilledAt).toBe(trial?.endsAt);
    expect(subscription.firstBilledAt).toBeNull();

    const trialing = await testbed.verifiedEvent('subscription.trialing', (webhook) =>
      webhook.rawBody.includes(subscriptionId),
    );
    expect(trialing.data).toMatchObject({ id: subscriptionId, status: 'trialing' });
    const created = await testbed.verifiedEvent('subscription.created', (webhook) =>
      webhook.rawBody.includes(subscriptionId),
    );
    expect(created.data).toMatchObject({ id: subscriptionId, status: 'trialing' });

    // Ended by the clock: the first period starts at the trial's end and is charged then.
    await sandbox.post('/sandbox-clock/advance', { seconds: 8 * 86_400 });
    const active = await paddle.subscriptions.get(subscriptionId);
    expect(active.status).toBe('active');
    expect(active.currentBillingPeriod?.startsAt).toBe(trial?.endsAt);
    expect(active.firstBilledAt).toBe(trial?.endsAt);
    const charged = (await sandbox.get(`/transactions?subscription_id=${subscriptionId}&origin=subscription_recurring`))
      .list;
    expect(
      charged.map((transaction) => [transaction.status, (transaction.details as { totals: WireObject }).totals.total]),
    ).toEqual([['completed', '2500']]);
    const activated = await testbed.verifiedEvent('subscription.activated', (webhook) =>
      webhook.rawBody.includes(subscriptionId),
    );
    expect(activated.data).toMatchObject({ id: subscriptionId, status: 'active' });
  });

  it('activate ends the trial now and charges the first period; a second activate is refused', async () => {
    const buyer = await createBuyer(sandbox, 'US');
    const { subscriptionId } = await startTrial(buyer);
    const activated = await paddle.subscriptions.activate(subscriptionId);
    expect(activated.status).toBe('active');
    expect(activated.items[0]?.status).toBe('active');
    expect(Date.parse(String(activated.nextBilledAt)) - Date.parse(String(activated.firstBilledAt))).toBeGreaterThan(
      27 * DAY_MS,
    );
    const charged = (await sandbox.get(`/transactions?subscription_id=${subscriptionId}&origin=subscription_recurring`))
      .list;
    expect(charged).toHaveLength(1);
    expect((charged[0]?.details as { totals: WireObject }).totals.grand_total).toBe('2500');
    const event = await testbed.verifiedEvent('subscription.activated', (webhook) =>
      webhook.rawBody.includes(subscriptionId),
    );
    expect(event.data).toMatchObject({ id: subscriptionId, status: 'active' });
    // The public API's code for activating a subscription that is not trialing (issue 36).
    expect(await sdkRefusal(paddle.subscriptions.activate(subscriptionId))).toBe('subscription_cannot_activate');
  });

  it('a declined activation leaves the subscription trialing and writes no transaction', async () => {
    const buyer = await createBuyer(sandbox, 'US');
    const { subscriptionId } = await startTrial(buyer);
    await sandbox.request('PUT', '/sandbox-payment-outcome', { body: { outcome: 'failure' } });
    try {
      expectError(
        await sandbox.post(`/subscriptions/${subscriptionId}/activate`),
        409,
        'subscription_payment_declined',
      );
    } finally {
      await sandbox.request('PUT', '/sandbox-payment-outcome', { body: { outcome: 'success' } });
    }
    expect((await paddle.subscriptions.get(subscriptionId)).status).toBe('trialing');
    expect(
      (await sandbox.get(`/transactions?subscription_id=${subscriptionId}&origin=subscription_recurring`)).list,
    ).toEqual([]);
  });

  it('a change during the trial bills nothing now; the trial end charges the new items', async () => {
    const buyer = await createBuyer(sandbox, 'US');
    const { subscriptionId } = await startTrial(buyer);
    const changed = await paddle.subscriptions.update(subscriptionId, {
      items: [{ priceId: trialPrice, quantity: 3 }],
      prorationBillingMode: 'prorated_immediately',
    });
    expect(changed.status).toBe('trialing');
    expect(changed.items[0]).toMatchObject({ quantity: 3, status: 'trialing' });
    expect(
      (await sandbox.get(`/transactions?subscription_id=${subscriptionId}&origin=subscription_update`)).list,
    ).toEqual([]);
    const activated = await paddle.subscriptions.activate(subscriptionId);
    expect(activated.status).toBe('active');
    const [charge] = (
      await sandbox.get(`/transactions?subscription_id=${subscriptionId}&origin=subscription_recurring`)
    ).list;
    expect((charge?.details as { totals: WireObject }).totals.total).toBe('7500');
  });

  it('refuses a transaction mixing trial and non-trial recurring prices; previews price trials free unless ignored', async () => {
    const buyer = await createBuyer(sandbox, 'US');
    expectError(
      await sandbox.post('/transactions', {
        customer_id: buyer.customerId,
        address_id: buyer.addressId,
        items: [
          { price_id: trialPrice, quantity: 1 },
          { price_id: plainPrice, quantity: 1 },
        ],
      }),
      400,
      'subscription_trial_items_mixed',
    );
    const free = await paddle.transactions.preview({ items: [{ priceId: trialPrice, quantity: 2 }] });
    expect(free.details.totals.total).toBe('0');
    const full = await paddle.transactions.preview({
      items: [{ priceId: trialPrice, quantity: 2 }],
      ignoreTrials: true,
    });
    expect(full.details.totals.total).toBe('5000');
    expect(full.ignoreTrials).toBe(true);
  });
});
