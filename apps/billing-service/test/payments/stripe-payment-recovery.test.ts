/**
 * Payment recovery (dunning, ADR 1460) in live, through Stripe: a real billing service whose
 * account is configured with Stripe pointed at the local Stripe-format server. A declined renewal
 * is retried by the scheduler on the documented schedule through the one off-session charge path,
 * each retry a new PaymentIntent keyed by its attempt (a retry whose answer is lost is sent again
 * under the same idempotency key and makes one intent; concurrent schedulers take it once); the
 * customer paying through the checkout stops the retries; a run that recovers nothing cancels
 * the subscription after 30 days. Both engines, read back through the official SDK.
 */
import { randomBytes } from 'node:crypto';
import type { CheckoutView, Clock } from '@drawdown/billing-core';
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { type Environment, Paddle } from '@paddle/paddle-node-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, apiClient, type WireObject } from '../support/api-client.js';
import { type FakeStripe, startFakeStripe } from '../support/stripe/fake-stripe-server.js';

const SECRET_KEY = 'sk_test_drawdownLiveTest00000001';
const WEBHOOK_SECRET = 'whsec_drawdownLiveTestSecret000001';
const DAY_MS = 86_400_000;

/** The service's wall clock, moved forward by tests (renewals fall due on it). */
function movableClock(): Clock & { advance(ms: number): void } {
  let offset = 0;
  return {
    now: () => Date.now() + offset,
    advance: (ms) => {
      offset += ms;
    },
  };
}

/** Polls `read` until `done` holds; fails after a bound, never sleeps a fixed time to race a worker. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  for (let tries = 0; tries < 200; tries += 1) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.each(ENGINES)('%s: payment recovery through Stripe', (engine) => {
  const clock = movableClock();
  let harness: BillingHarness;
  let stripe: FakeStripe;
  let live: ApiClient;
  let priceId: string;
  let webhookUrl: string;
  let paddle: Paddle;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine, clock });
    stripe = await startFakeStripe({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, now: clock.now });
    live = apiClient(harness.liveUrl, harness.liveKey);
    paddle = new Paddle(harness.liveKey, { environment: harness.liveUrl as Environment, logLevel: 'none' as never });
    await harness.services.useCases.configurePaymentProvider(harness.accountId, {
      provider: 'stripe',
      secretKey: SECRET_KEY,
      webhookSecret: WEBHOOK_SECRET,
      apiBase: stripe.baseUrl,
    });
    webhookUrl = `${harness.liveUrl}/payment-providers/stripe/webhooks/${harness.accountId}`;
    stripe.sendWebhooksTo(webhookUrl);
    const product = await live.post('/products', { name: 'Pro', tax_category: 'standard' });
    const price = await live.post('/prices', {
      product_id: product.id,
      description: 'Pro monthly',
      unit_price: { amount: '2000', currency_code: 'GBP' },
      billing_cycle: { interval: 'month', frequency: 1 },
    });
    priceId = price.id;
  });
  afterAll(async () => {
    await stripe.close();
    await harness.close();
  });

  async function readyTransaction(): Promise<{ transactionId: string; email: string }> {
    const email = `c${randomBytes(5).toString('hex')}@example.com`;
    const customer = await live.post('/customers', { email });
    const address = await live.post(`/customers/${customer.id}/addresses`, {
      country_code: 'GB',
      postal_code: 'SW1A 1AA',
    });
    const transaction = await live.post('/transactions', {
      customer_id: customer.id,
      address_id: address.id,
      items: [{ price_id: priceId, quantity: 1 }],
    });
    expect(transaction.entity.status).toBe('ready');
    return { transactionId: transaction.id, email };
  }

  /** The customer's two checkout steps: their details (tax recomputed), then the card Stripe.js tokenised. */
  async function pay(transactionId: string, email: string, token: string): Promise<CheckoutView> {
    const detailed = await harness.services.useCases.setCheckoutDetails('live', transactionId, {
      email,
      address: { countryCode: 'GB', postalCode: 'SW1A 1AA', region: null, city: null, firstLine: null },
    });
    return harness.services.useCases.submitCheckout('live', transactionId, {
      submissionKey: randomBytes(12).toString('hex'),
      expectedAmount: detailed.transaction.details.totals.balance,
      method: { kind: 'token', token },
      saveMethod: false,
      returnUrl: `${harness.liveUrl}/checkout/return`,
    });
  }

  async function transactionOf(id: string): Promise<WireObject> {
    return (await live.get(`/transactions/${id}`)).entity;
  }

  async function subscriptionOf(id: string): Promise<WireObject> {
    return (await live.get(`/subscriptions/${id}`)).entity;
  }

  /** A subscription bought through a Stripe checkout with the success card. */
  async function subscribed(): Promise<{ transactionId: string; subscriptionId: string; email: string }> {
    const { transactionId, email } = await readyTransaction();
    const view = await pay(transactionId, email, 'pm_card_visa');
    expect(view.transaction.status).toBe('completed');
    await stripe.settled();
    const subscriptionId = String((await transactionOf(transactionId)).subscription_id);
    return { transactionId, subscriptionId, email };
  }

  /** Moves the service's clock past the subscription's period and lets the renewal (and its charge) run. */
  async function renew(subscriptionId: string): Promise<readonly WireObject[]> {
    const before = await subscriptionOf(subscriptionId);
    const endsAt = Date.parse(String((before.current_billing_period as WireObject).ends_at));
    clock.advance(Math.max(0, endsAt - clock.now()) + DAY_MS);
    await harness.services.useCases.runDueWork('renewals');
    const renewals = await eventually(
      async () =>
        (await live.get(`/transactions?subscription_id=${subscriptionId}&origin=subscription_recurring`)).list,
      (list) => list.length > 0 && list.every((transaction) => transaction.status !== 'ready'),
      'the renewal to be charged',
    );
    await stripe.settled();
    return renewals;
  }

  function intentsOf(transactionId: string) {
    return stripe
      .objects('pi_')
      .filter((intent) => (intent.metadata as Record<string, string>).drawdown_transaction_id === transactionId);
  }

  /** A subscription whose card is replaced by one that attaches but declines every charge, then a declined renewal. */
  async function declinedRenewal(): Promise<{ subscriptionId: string; renewalId: string; email: string }> {
    const { subscriptionId, email } = await subscribed();
    const change = await harness.services.useCases.getPaymentMethodChangeTransaction(await caller(), subscriptionId);
    expect((await pay(change.id, email, 'pm_card_chargeCustomerFail')).transaction.status).toBe('completed');
    const [renewal] = await renew(subscriptionId);
    expect(renewal?.status).toBe('past_due');
    expect((await subscriptionOf(subscriptionId)).status).toBe('past_due');
    return { subscriptionId, renewalId: String(renewal?.id), email };
  }

  async function caller() {
    return {
      account: await harness.services.useCases.requireAccount(harness.accountId),
      scope: { accountId: harness.accountId, environment: 'live' as const },
    };
  }

  /**
   * Moves the wall clock `days` (and a minute) on and runs the payment recovery scheduler; the
   * service's own scheduler may take the step first, so this waits until the renewal shows
   * `payments` payments and no attempt in flight.
   */
  async function retriesAfter(days: number, renewalId: string, payments: number): Promise<void> {
    clock.advance(days * DAY_MS + 60_000);
    await harness.services.useCases.runDueWork('payment_retries');
    const scope = { accountId: harness.accountId, environment: 'live' as const };
    await eventually(
      async () => ({
        payments: ((await transactionOf(renewalId)).payments as unknown[]).length,
        inFlight: (
          await harness.services.store.paymentAttempts.list(scope, {
            filter: {
              transaction_id: [{ op: 'eq', value: renewalId }],
              status: [{ op: 'in', values: ['processing', 'requires_action'] }],
            },
            direction: 'asc',
            perPage: 1,
            countTotal: false,
          })
        ).items.length,
      }),
      (seen) => seen.payments === payments && seen.inFlight === 0,
      `${payments} payments of ${renewalId}`,
    );
    await stripe.settled();
  }

  it('retries the declined renewal a day later, once however many schedulers run, and stops when the customer pays', async () => {
    const { subscriptionId, renewalId } = await declinedRenewal();
    expect(intentsOf(renewalId)).toHaveLength(1);
    // The first retry's answers are lost: the client sends it again under the attempt id as
    // idempotency key, and Stripe makes one PaymentIntent of it.
    const creations = () =>
      stripe.requests.filter((request) => request.method === 'POST' && request.path === '/v1/payment_intents').length;
    const before = creations();
    stripe.loseAnswers(3);
    clock.advance(DAY_MS + 60_000);
    await Promise.all([1, 2, 3].map(() => harness.services.useCases.runDueWork('payment_retries')));
    stripe.loseAnswers(0);
    await retriesAfter(0, renewalId, 2);
    // The client sent the creation again (its answer was lost), and Stripe made one intent of it.
    expect(creations() - before).toBeGreaterThanOrEqual(2);
    expect(intentsOf(renewalId)).toHaveLength(2);
    const declined = await paddle.transactions.get(renewalId);
    expect(declined.status).toBe('past_due');
    expect(declined.payments.map((payment) => payment.status)).toEqual(['error', 'error']);
    // Nothing more is due until the next step of the schedule (three days after the first decline).
    await retriesAfter(1, renewalId, 2);
    expect(intentsOf(renewalId)).toHaveLength(2);
    // The customer pays the past-due renewal through the checkout with another card: no more retries.
    const paid = await harness.services.useCases.submitCheckout('live', renewalId, {
      submissionKey: randomBytes(12).toString('hex'),
      expectedAmount: String((declined.details?.totals as { balance: string }).balance),
      method: { kind: 'token', token: 'pm_card_visa' },
      saveMethod: false,
      returnUrl: `${harness.liveUrl}/checkout/return`,
    });
    expect(paid.transaction.status).toBe('completed');
    expect((await paddle.subscriptions.get(subscriptionId)).status).toBe('active');
    await retriesAfter(30, renewalId, 3);
    expect(intentsOf(renewalId)).toHaveLength(3);
    expect((await paddle.transactions.get(renewalId)).payments.map((payment) => payment.status)).toEqual([
      'error',
      'error',
      'captured',
    ]);
  });

  it('cancels the subscription and its renewal 30 days after the first decline when no retry succeeded', async () => {
    const { subscriptionId, renewalId } = await declinedRenewal();
    // Retries 1, 3, 5, 8, 12, 18 and 25 days after the first decline, each its own PaymentIntent.
    let payments = 1;
    for (const days of [1, 2, 2, 3, 4, 6, 7]) {
      payments += 1;
      await retriesAfter(days, renewalId, payments);
      expect(intentsOf(renewalId)).toHaveLength(payments);
    }
    expect((await paddle.subscriptions.get(subscriptionId)).status).toBe('past_due');
    clock.advance(5 * DAY_MS);
    await harness.services.useCases.runDueWork('payment_retries');
    await eventually(
      () => paddle.subscriptions.get(subscriptionId),
      (subscription) => subscription.status === 'canceled',
      'the subscription to be canceled',
    );
    const renewal = await paddle.transactions.get(renewalId);
    expect(renewal.status).toBe('canceled');
    expect(renewal.payments).toHaveLength(8);
    expect(intentsOf(renewalId)).toHaveLength(8);
  });
});
