/**
 * @module
 * A billing service whose live account takes payments through Stripe (ADR 1420), pointed at the
 * local Stripe-format server, which sends its webhooks back to the account's live webhook route:
 * the set-up the live Stripe tests share, with the customer's steps they all take (a ready
 * transaction, the two checkout steps, a subscription bought with a card, a renewal by the clock).
 */
import { randomBytes } from 'node:crypto';
import type { CheckoutView } from '@drawdown/billing-core';
import {
  type BillingHarness,
  type Engine,
  type MovableClock,
  movableClock,
  startBillingHarness,
} from '@drawdown/testkit';
import type { Paddle } from '@paddle/paddle-node-sdk';
import { afterAll, beforeAll, expect } from 'vitest';
import { type ApiClient, apiClient, type WireObject } from '../api-client.js';
import { officialSdk } from '../official-sdk.js';
import { type FakeStripe, startFakeStripe } from './fake-stripe-server.js';

export const SECRET_KEY = 'sk_test_drawdownLiveTest00000001';
export const WEBHOOK_SECRET = 'whsec_drawdownLiveTestSecret000001';
export const DAY_MS = 86_400_000;

/** Polls `read` until `done` holds; fails after a bound, never sleeps a fixed time to race a worker. */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  for (let tries = 0; tries < 200; tries += 1) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export interface LiveStripeAccount {
  readonly clock: MovableClock;
  /** Set once the suite's `beforeAll` has run. */
  readonly harness: BillingHarness;
  readonly stripe: FakeStripe;
  readonly live: ApiClient;
  /** The official SDK with the live key. */
  readonly paddle: Paddle;
  /** A GBP 20.00 monthly price of a standard product. */
  readonly priceId: string;
  readonly webhookUrl: string;
  /** A ready transaction of a new customer with a GB address, for the monthly price. */
  readyTransaction(): Promise<{ transactionId: string; email: string }>;
  /** The customer's two checkout steps: their details (tax recomputed), then the card Stripe.js tokenised. */
  pay(transactionId: string, email: string, token: string): Promise<CheckoutView>;
  transactionOf(id: string): Promise<WireObject>;
  subscriptionOf(id: string): Promise<WireObject>;
  /** A subscription bought through a Stripe checkout with the success card. */
  subscribed(): Promise<{ transactionId: string; subscriptionId: string; email: string }>;
  /** Moves the service's clock past the subscription's period and lets the renewal (and its charge) run. */
  renew(subscriptionId: string): Promise<readonly WireObject[]>;
}

/**
 * Registers the calling suite's `beforeAll` and `afterAll`: a harness on `engine` on its own
 * movable clock, its live account configured with Stripe, and one monthly price. Lost-answer
 * tests may ask for fewer Stripe client retries (`stripeNetworkRetries`) to wait out fewer back-offs.
 */
export function useLiveStripeAccount(
  engine: Engine,
  options: {
    readonly stripeNetworkRetries?: number;
    /**
     * The SMTP server customer email goes to, read when the suite starts (a server the file
     * started in its own `beforeAll`); the live sender address is then set, so live email is sent.
     */
    readonly smtpUrl?: () => string;
  } = {},
): LiveStripeAccount {
  const clock = movableClock();
  let harness: BillingHarness;
  let stripe: FakeStripe;
  let live: ApiClient;
  let paddle: Paddle;
  let priceId: string;
  let webhookUrl: string;

  beforeAll(async () => {
    const { smtpUrl, ...harnessOptions } = options;
    harness = await startBillingHarness({
      engine,
      clock,
      ...harnessOptions,
      ...(smtpUrl ? { smtpUrl: smtpUrl(), emailDelivery: { pollIntervalMs: 20 } } : {}),
    });
    stripe = await startFakeStripe({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, now: clock.now });
    live = apiClient(harness.liveUrl, harness.liveKey);
    paddle = officialSdk(harness.liveKey, harness.liveUrl);
    await harness.services.useCases.configurePaymentProvider(harness.accountId, {
      provider: 'stripe',
      secretKey: SECRET_KEY,
      webhookSecret: WEBHOOK_SECRET,
      apiBase: stripe.baseUrl,
    });
    if (smtpUrl) {
      const settings = await live.patch('/email-settings', { sender_address: 'billing@shop.example' });
      expect(settings.status, settings.text).toBe(200);
    }
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
    await stripe?.close();
    await harness?.close();
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

  return {
    clock,
    get harness() {
      return harness;
    },
    get stripe() {
      return stripe;
    },
    get live() {
      return live;
    },
    get paddle() {
      return paddle;
    },
    get priceId() {
      return priceId;
    },
    get webhookUrl() {
      return webhookUrl;
    },
    readyTransaction,
    pay,
    transactionOf,
    subscriptionOf,
    subscribed,
    renew,
  };
}
