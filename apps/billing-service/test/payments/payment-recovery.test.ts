/**
 * Payment recovery (dunning, ADR 1460) in the sandbox, on both engines, read back through the
 * official SDK where it can: a declined renewal is retried on the documented schedule as the
 * sandbox clock moves (seven retries over 30 days), a successful retry through the saved card
 * completes the renewal and revives the subscription, retries that all fail end with the
 * environment's dunning exhausted action (canceled by default, paused when set), a customer who
 * pays through the checkout meanwhile stops the retries, and concurrent schedulers take each
 * retry once.
 */
import { formatMinorUnits } from '@drawdown/billing-core';
import { type BillingHarness, ENGINES, expectEvery, movableClock, startBillingHarness } from '@drawdown/testkit';
import { type Environment, Paddle } from '@paddle/paddle-node-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, harnessClients, type WireObject } from '../support/api-client.js';
import { createPrice, createProduct } from '../support/catalogue-fixtures.js';
import { createBuyer, createTransaction } from '../transactions/transaction-fixtures.js';
import { CARDS, checkoutClient } from './checkout-client.js';

const DAY_S = 86_400;

describe.each(ENGINES)('%s: payment recovery in the sandbox', (engine) => {
  const clock = movableClock();
  let harness: BillingHarness;
  let sandbox: ApiClient;
  let paddle: Paddle;
  let yearlyPriceId: string;
  let monthlyPriceId: string;
  let weeklyPriceId: string;

  async function advance(days: number, renewalPayments?: 'success' | 'failure'): Promise<void> {
    const advanced = await sandbox.post('/sandbox-clock/advance', {
      // A minute more than the days: the schedule counts from the instant of the decline.
      seconds: days * DAY_S + 60,
      ...(renewalPayments ? { renewal_payments: renewalPayments } : {}),
    });
    expect(advanced.status, advanced.text).toBe(200);
  }

  /** A subscription bought at the checkout with the success card, then renewed with a declined payment. */
  async function declinedRenewal(
    priceId: string,
    days: number,
  ): Promise<{ subscriptionId: string; renewalId: string }> {
    const buyer = await createBuyer(sandbox, 'GB');
    const created = await createTransaction(sandbox, {
      items: [{ price_id: priceId, quantity: 1 }],
      customer_id: buyer.customerId,
      address_id: buyer.addressId,
    });
    const paid = await checkoutClient(harness.sandboxUrl).pay(String(created.id), CARDS.success);
    expect(paid.status, paid.text).toBe(303);
    const subscriptionId = String((await sandbox.get(`/transactions/${created.id}`)).entity.subscription_id);
    await advance(days, 'failure');
    const renewals = await sandbox.get(
      `/transactions?subscription_id=${subscriptionId}&origin=subscription_recurring&status=past_due`,
    );
    expect(renewals.list, renewals.text).toHaveLength(1);
    expect((await paddle.subscriptions.get(subscriptionId)).status).toBe('past_due');
    return { subscriptionId, renewalId: String(renewals.list[0]?.id) };
  }

  async function paymentsOf(transactionId: string): Promise<WireObject[]> {
    return (await sandbox.get(`/transactions/${transactionId}`)).entity.payments as WireObject[];
  }

  async function eventTypesOf(entityId: string): Promise<string[]> {
    const events = await sandbox.get('/events?per_page=200');
    return events.list
      .filter((event) => (event.data as WireObject).id === entityId)
      .map((event) => String(event.event_type));
  }

  /** The customer's captured emails of `kind`, once `count` of them were captured (ADR 1500). */
  async function emailsTold(customerId: string, kind: string, count: number): Promise<WireObject[]> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const captured = (await sandbox.get(`/emails?customer_id=${customerId}&kind=${kind}&per_page=200`)).list.filter(
        (email) => email.status === 'captured',
      );
      if (captured.length >= count) return captured;
      if (Date.now() > deadline) throw new Error(`${captured.length} of ${count} ${kind} emails captured`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  beforeAll(async () => {
    harness = await startBillingHarness({
      engine,
      clock,
      emailDelivery: { pollIntervalMs: 20 },
      // The failed-payment emails' update links lead to a configured portal (ADR 1472).
      portalUrl: 'https://portal.shop.example/billing',
    });
    ({ sandbox } = harnessClients(harness));
    paddle = new Paddle(harness.sandboxKey, {
      environment: harness.sandboxUrl as Environment,
      logLevel: 'none' as never,
    });
    const productId = await createProduct(sandbox, { name: 'Recovered plan' });
    yearlyPriceId = String(
      (
        await createPrice(sandbox, productId, {
          unit_price: { amount: '12000', currency_code: 'GBP' },
          billing_cycle: { interval: 'year', frequency: 1 },
        })
      ).id,
    );
    monthlyPriceId = String(
      (await createPrice(sandbox, productId, { unit_price: { amount: '900', currency_code: 'GBP' } })).id,
    );
    weeklyPriceId = String(
      (
        await createPrice(sandbox, productId, {
          unit_price: { amount: '300', currency_code: 'GBP' },
          billing_cycle: { interval: 'week', frequency: 1 },
        })
      ).id,
    );
  });
  afterAll(() => harness.close());

  it('retries a declined renewal a day later with the saved card, completes it and revives the subscription', async () => {
    const { subscriptionId, renewalId } = await declinedRenewal(monthlyPriceId, 32);
    expect(await paymentsOf(renewalId)).toHaveLength(1);
    await advance(1);
    const renewal = await paddle.transactions.get(renewalId);
    expect(renewal.status).toBe('completed');
    expect(renewal.payments.map((payment) => payment.status)).toEqual(['error', 'captured']);
    expect(renewal.payments[1]?.methodDetails?.card?.last4).toBe('4242');
    expect((await paddle.subscriptions.get(subscriptionId)).status).toBe('active');
    expect(await eventTypesOf(renewalId)).toEqual(
      expect.arrayContaining(['transaction.paid', 'transaction.completed']),
    );
    // Recovered: later time takes no more retries of it.
    await advance(30);
    expect(await paymentsOf(renewalId)).toHaveLength(2);
  });

  it('retries on the documented schedule, then cancels the subscription and the renewal when nothing was recovered', async () => {
    const { subscriptionId, renewalId } = await declinedRenewal(yearlyPriceId, 366);
    // Retries fall 1, 3, 5, 8, 12, 18 and 25 days after the first decline.
    await advance(2, 'failure');
    expect(await paymentsOf(renewalId)).toHaveLength(2);
    await advance(6, 'failure');
    expect(await paymentsOf(renewalId)).toHaveLength(5);
    expect((await paddle.subscriptions.get(subscriptionId)).status).toBe('past_due');
    await advance(17, 'failure');
    const payments = await paymentsOf(renewalId);
    expect(payments).toHaveLength(8);
    expectEvery(payments, (payment) => payment.status === 'error', { atLeast: 8 });
    expect((await paddle.subscriptions.get(subscriptionId)).status).toBe('past_due');
    // Thirty days after the first decline the window ends: the default action cancels.
    await advance(5, 'failure');
    const subscription = await paddle.subscriptions.get(subscriptionId);
    expect(subscription.status).toBe('canceled');
    expect((await paddle.transactions.get(renewalId)).status).toBe('canceled');
    expect(await eventTypesOf(subscriptionId)).toContain('subscription.canceled');
    expect(await eventTypesOf(renewalId)).toContain('transaction.canceled');
    expect(await paymentsOf(renewalId)).toHaveLength(8);
    // The customer was told at each declined attempt, that the subscription fell past due, and that it ended.
    const failed = await emailsTold(subscription.customerId, 'payment_failed', 8);
    expect(failed).toHaveLength(8);
    expectEvery(
      failed,
      (email) => /^Your payment to Test account failed$/.test(String((email.message as WireObject).subject)),
      {
        atLeast: 8,
      },
    );
    const owed = formatMinorUnits(
      BigInt((await paddle.transactions.get(renewalId)).details?.totals?.grandTotal ?? '0'),
      'GBP',
      'en',
    );
    expectEvery(failed, (email) => String((email.message as WireObject).text).includes(`payment of ${owed}`), {
      atLeast: 8,
    });
    // Each email but the last names the next automatic try, on the schedule counted from the
    // first decline, and links the portal's update-payment page for this subscription (ADR 1503).
    const byTime = [...failed].sort((a, b) => String(a.created_at).localeCompare(String(b.created_at)));
    const startedAt = Date.parse(String(byTime[0]?.created_at));
    const longDate = (instant: number) =>
      new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(instant));
    const told = byTime.map(
      (email) => /We will try again on ([^.]+)\./.exec(String((email.message as WireObject).text))?.[1],
    );
    expect(told).toEqual([
      ...[1, 3, 5, 8, 12, 18, 25].map((days) => longDate(startedAt + days * DAY_S * 1000)),
      undefined,
    ]);
    for (const email of failed) {
      expect(String((email.message as WireObject).text)).toContain(
        `/session?action=update_subscription_payment_method&subscription_id=${subscriptionId}&token=`,
      );
    }
    expect(await emailsTold(subscription.customerId, 'subscription_past_due', 1)).toHaveLength(1);
    expect(await emailsTold(subscription.customerId, 'subscription_canceled', 1)).toHaveLength(1);
  });

  it('cancels every renewal left past due when the first decline’s window ends, not only its own', async () => {
    const { subscriptionId, renewalId } = await declinedRenewal(weeklyPriceId, 8);
    // Renewals go on while the subscription is past due; each is declined and opens its own run.
    await advance(22, 'failure');
    const pastDue = await sandbox.get(
      `/transactions?subscription_id=${subscriptionId}&origin=subscription_recurring&status=past_due&per_page=50`,
    );
    expect(pastDue.list.length, pastDue.text).toBeGreaterThan(1);
    expect((await paddle.subscriptions.get(subscriptionId)).status).toBe('past_due');
    // Thirty days after the first decline: the subscription and all its past-due renewals end.
    await advance(8, 'failure');
    expect((await paddle.subscriptions.get(subscriptionId)).status).toBe('canceled');
    const renewals = await sandbox.get(
      `/transactions?subscription_id=${subscriptionId}&origin=subscription_recurring&per_page=50`,
    );
    expect(renewals.list.map((renewal) => renewal.status)).toEqual(renewals.list.map(() => 'canceled'));
    expect(renewals.list.map((renewal) => renewal.id)).toEqual(
      expect.arrayContaining([renewalId, ...pastDue.list.map((renewal) => renewal.id)]),
    );
    // Their runs ended too: later time takes no retry of any of them.
    const payments = await Promise.all(renewals.list.map((renewal) => paymentsOf(String(renewal.id))));
    await advance(30, 'failure');
    expect(await Promise.all(renewals.list.map((renewal) => paymentsOf(String(renewal.id))))).toEqual(payments);
  });

  it('pauses the subscription instead when the environment says so', async () => {
    const set = await sandbox.patch('/checkout-settings', { dunning_exhausted_action: 'subscription_paused' });
    expect(set.status, set.text).toBe(200);
    expect(set.entity.dunning_exhausted_action).toBe('subscription_paused');
    try {
      const { subscriptionId, renewalId } = await declinedRenewal(yearlyPriceId, 366);
      await advance(31, 'failure');
      expect((await paddle.subscriptions.get(subscriptionId)).status).toBe('paused');
      expect((await paddle.transactions.get(renewalId)).status).toBe('canceled');
      expect(await eventTypesOf(subscriptionId)).toContain('subscription.paused');
    } finally {
      const reset = await sandbox.patch('/checkout-settings', { dunning_exhausted_action: 'subscription_canceled' });
      expect(reset.status, reset.text).toBe(200);
    }
  });

  it('refuses an unknown exhausted action and changes nothing', async () => {
    const refused = await sandbox.patch('/checkout-settings', { dunning_exhausted_action: 'subscription_deleted' });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.error?.code).toBe('invalid_field');
    expect((await sandbox.get('/checkout-settings')).entity.dunning_exhausted_action).toBe('subscription_canceled');
  });

  it('stops retrying once the customer paid through the checkout', async () => {
    const { subscriptionId, renewalId } = await declinedRenewal(yearlyPriceId, 366);
    const paid = await checkoutClient(harness.sandboxUrl).pay(renewalId, CARDS.success);
    expect(paid.status, paid.text).toBe(303);
    expect((await paddle.transactions.get(renewalId)).status).toBe('completed');
    expect((await paddle.subscriptions.get(subscriptionId)).status).toBe('active');
    await advance(31, 'failure');
    expect((await paymentsOf(renewalId)).map((payment) => payment.status)).toEqual(['error', 'captured']);
    expect((await paddle.subscriptions.get(subscriptionId)).status).toBe('active');
  });

  it('takes each retry once when several schedulers run at the same time', async () => {
    const { subscriptionId, renewalId } = await declinedRenewal(yearlyPriceId, 366);
    // The sandbox runs ahead of the wall clock by its offset; moving the wall clock a day makes the retry due.
    clock.advance(DAY_S * 1000 + 60_000);
    // (Runs of earlier tests that were recovered meanwhile end now too: the count is not asserted.)
    await Promise.all([1, 2, 3].map(() => harness.services.useCases.runDueWork('payment_retries')));
    const renewal = await paddle.transactions.get(renewalId);
    expect(renewal.payments.map((payment) => payment.status)).toEqual(['error', 'captured']);
    expect(renewal.status).toBe('completed');
    expect((await paddle.subscriptions.get(subscriptionId)).status).toBe('active');
  });
});
