/**
 * A live customer pays on the hosted checkout with Stripe (ADR 1424), in real headless Chromium:
 * the page loads Stripe.js (here the local Stripe-format server's stand-in at `/v3/`, through
 * the `--stripe-js-url` setting), mounts the Payment Element, asks Drawdown for the
 * PaymentIntent, confirms it in the browser and returns to `/checkout/return`, where the server
 * reads the intent back from Stripe before the transaction completes. A decline shows the error
 * and a retry pays; axe-core finds no violations; the CSP allows the Stripe.js origin and no
 * more (Chromium reports any violation to the console, which the test watches).
 */
import { randomBytes } from 'node:crypto';
import { axeViolations, type BillingHarness, chromiumLaunchOptions, startBillingHarness } from '@drawdown/testkit';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ApiClient, apiClient, type WireObject } from '../support/api-client.js';
import { type FakeStripe, startFakeStripe } from '../support/stripe/fake-stripe-server.js';

const SECRET_KEY = 'sk_test_drawdownBrowserTest000001';
const WEBHOOK_SECRET = 'whsec_drawdownBrowserTestSecret001';
const PUBLISHABLE_KEY = 'pk_test_drawdownBrowserTest000001';

describe('a live checkout paid with Stripe.js in Chromium', () => {
  let harness: BillingHarness;
  let stripe: FakeStripe;
  let live: ApiClient;
  let browser: Browser;
  let page: Page;
  let priceId: string;
  let consoleProblems: string[];

  async function expectNoAxeViolations(label: string): Promise<void> {
    expect(await axeViolations(page), label).toEqual([]);
  }

  /** A ready transaction of a new customer with a GB address, and its checkout URL. */
  async function newCheckout(): Promise<{ transactionId: string; url: string }> {
    const customer = await live.post('/customers', { email: `s${randomBytes(5).toString('hex')}@example.com` });
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
    return { transactionId: transaction.id, url: String((transaction.entity.checkout as { url: string }).url) };
  }

  async function fillCard(number: string): Promise<void> {
    await page.getByLabel('Card number').fill(number);
    await page.getByLabel('Expiration date (MM / YY)').fill('12 / 39');
    await page.getByLabel('Security code').fill('123');
  }

  async function transactionOf(id: string): Promise<WireObject> {
    return (await live.get(`/transactions/${id}`)).entity;
  }

  function intentsOf(transactionId: string): Record<string, unknown>[] {
    return stripe
      .objects('pi_')
      .filter((intent) => (intent.metadata as Record<string, string>).drawdown_transaction_id === transactionId);
  }

  beforeAll(async () => {
    stripe = await startFakeStripe({
      secretKey: SECRET_KEY,
      webhookSecret: WEBHOOK_SECRET,
      publishableKey: PUBLISHABLE_KEY,
    });
    harness = await startBillingHarness({ engine: 'sqlite', stripeJsUrl: stripe.stripeJsUrl });
    live = apiClient(harness.liveUrl, harness.liveKey);
    await harness.services.useCases.configurePaymentProvider(harness.accountId, {
      provider: 'stripe',
      secretKey: SECRET_KEY,
      webhookSecret: WEBHOOK_SECRET,
      publishableKey: PUBLISHABLE_KEY,
      apiBase: stripe.baseUrl,
    });
    stripe.sendWebhooksTo(`${harness.liveUrl}/payment-providers/stripe/webhooks/${harness.accountId}`);
    const product = await live.post('/products', { name: 'Pro', tax_category: 'standard' });
    const price = await live.post('/prices', {
      product_id: product.id,
      description: 'Pro monthly',
      unit_price: { amount: '2000', currency_code: 'GBP' },
      billing_cycle: { interval: 'month', frequency: 1 },
    });
    priceId = price.id;
    browser = await chromium.launch(chromiumLaunchOptions());
    page = await (await browser.newContext({ viewport: { width: 1024, height: 900 }, locale: 'en-GB' })).newPage();
    page.on('console', (message) => {
      // A declined confirmation is a 402 from Stripe's API, logged by Chromium as a failed load; the
      // browser's own favicon request is not the page's. Anything else (a CSP violation) counts.
      const source = message.location().url;
      if (message.type() !== 'error' || source.endsWith('/favicon.ico') || source.endsWith('/confirm')) return;
      consoleProblems.push(`${message.text()} (${source})`);
    });
    page.on('pageerror', (error) => consoleProblems.push(error.message));
  });
  beforeEach(() => {
    consoleProblems = [];
  });
  afterAll(async () => {
    await browser?.close();
    await harness?.close();
    await stripe?.close();
  });

  it('loads Stripe.js under a CSP that allows its origin only, and buys a subscription', async () => {
    const { transactionId, url } = await newCheckout();
    const response = await page.goto(url);
    const csp = response?.headers()['content-security-policy'] ?? '';
    const origin = new URL(stripe.baseUrl).origin;
    expect(csp).toContain(`script-src 'self' ${origin}`);
    expect(csp).toContain(`connect-src 'self' ${origin}`);
    expect(csp).toContain(`frame-src ${origin}`);
    expect(csp).not.toContain('unsafe-inline');
    await page.getByLabel('Card number').waitFor();
    await expectNoAxeViolations('Stripe payment step');
    await fillCard('4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Pay £20.00' }).click();
    await page.waitForSelector('#checkout-message.success');
    await expect(page.locator('#checkout-message').textContent()).resolves.toContain('Visa ending 4242');
    await expectNoAxeViolations('completed');
    // Stripe.js came back to the return URL with the intent; the server read it from Stripe.
    const intents = intentsOf(transactionId);
    expect(intents).toHaveLength(1);
    expect(intents[0]).toMatchObject({
      status: 'succeeded',
      amount: 2000,
      currency: 'gbp',
      setup_future_usage: 'off_session',
    });
    const confirmations = stripe.requests.filter(
      (request) => request.path === `/v1/payment_intents/${intents[0]?.id}/confirm`,
    );
    expect(confirmations).toHaveLength(1);
    // The browser confirmed with the publishable key and the client secret, never the secret key.
    expect(confirmations[0]?.headers.authorization).toBeUndefined();
    expect(confirmations[0]?.params).toMatchObject({ key: PUBLISHABLE_KEY });
    await stripe.settled();
    const paid = await transactionOf(transactionId);
    expect(paid.status).toBe('completed');
    // The webhook and the return both saw the success: one payment.
    expect((paid.payments as WireObject[]).filter((payment) => payment.status === 'captured')).toHaveLength(1);
    const subscription = (await live.get(`/subscriptions/${paid.subscription_id}`)).entity;
    expect(subscription.status).toBe('active');
    expect(consoleProblems).toEqual([]);
  });

  it('shows a decline, cancels that intent, and a retry pays', async () => {
    const { transactionId, url } = await newCheckout();
    await page.goto(url);
    await fillCard('4000 0000 0000 0002');
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.waitForSelector('#checkout-error');
    await expect(page.locator('#checkout-error').textContent()).resolves.toContain('Your card was declined');
    await expectNoAxeViolations('declined');
    const declined = await transactionOf(transactionId);
    expect(declined.status).toBe('ready');
    expect((declined.payments as WireObject[]).map((payment) => payment.status)).toEqual(['error']);
    // The declined intent can no longer be confirmed from a stale tab.
    expect(intentsOf(transactionId).map((intent) => intent.status)).toEqual(['canceled']);
    await fillCard('4242 4242 4242 4242');
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.waitForSelector('#checkout-message.success');
    await stripe.settled();
    const paid = await transactionOf(transactionId);
    expect(paid.status).toBe('completed');
    expect((paid.payments as WireObject[]).map((payment) => payment.status).sort()).toEqual(['captured', 'error']);
    expect(intentsOf(transactionId).map((intent) => intent.status)).toEqual(['canceled', 'succeeded']);
    expect(consoleProblems).toEqual([]);
  });

  it('an incomplete card is refused in the page, before any PaymentIntent exists', async () => {
    const { transactionId, url } = await newCheckout();
    await page.goto(url);
    await page.getByLabel('Card number').fill('4242 4242');
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.locator('#payment-error:not([hidden])').waitFor();
    await expect(page.locator('#payment-error').textContent()).resolves.toBe('Your card number is incomplete.');
    await expectNoAxeViolations('incomplete card');
    expect(intentsOf(transactionId)).toEqual([]);
    expect((await transactionOf(transactionId)).status).toBe('ready');
  });
});
