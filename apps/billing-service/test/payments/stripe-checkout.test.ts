/**
 * The hosted checkout's Stripe.js path (ADR 1424) over HTTP, on both engines: `POST
 * /checkout/intent` (what the page's script calls) creates the PaymentIntent, the test confirms
 * it at the local Stripe-format server exactly as Stripe.js does (publishable key, client secret,
 * `payment_method_data`), and `GET /checkout/return` completes the transaction only after the
 * server has read the intent back from Stripe. Webhooks are off unless a test sends them, so
 * nothing else can complete a payment behind the test's back.
 */
import { randomBytes } from 'node:crypto';
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, apiClient, type WireObject } from '../support/api-client.js';
import { type FakeStripe, startFakeStripe } from '../support/stripe/fake-stripe-server.js';

const SECRET_KEY = 'sk_test_drawdownIntentTest0000001';
const WEBHOOK_SECRET = 'whsec_drawdownIntentTestSecret0001';
const PUBLISHABLE_KEY = 'pk_test_drawdownIntentTest0000001';

interface IntentAnswer {
  readonly status: number;
  readonly body: {
    readonly data?: { readonly payment_attempt_id: string; readonly kind: string; readonly client_secret: string };
    readonly error?: { readonly code: string; readonly detail: string };
  };
}

describe.each(ENGINES)('%s: the checkout page’s Stripe.js payment', (engine) => {
  let harness: BillingHarness;
  let stripe: FakeStripe;
  let live: ApiClient;
  let priceId: string;

  beforeAll(async () => {
    stripe = await startFakeStripe({
      secretKey: SECRET_KEY,
      webhookSecret: WEBHOOK_SECRET,
      publishableKey: PUBLISHABLE_KEY,
    });
    harness = await startBillingHarness({ engine, stripeJsUrl: stripe.stripeJsUrl });
    live = apiClient(harness.liveUrl, harness.liveKey);
    await harness.services.useCases.configurePaymentProvider(harness.accountId, {
      provider: 'stripe',
      secretKey: SECRET_KEY,
      webhookSecret: WEBHOOK_SECRET,
      publishableKey: PUBLISHABLE_KEY,
      apiBase: stripe.baseUrl,
    });
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
    await harness?.close();
    await stripe?.close();
  });

  async function readyTransaction(): Promise<string> {
    const customer = await live.post('/customers', { email: `i${randomBytes(5).toString('hex')}@example.com` });
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
    return transaction.id;
  }

  async function askForIntent(
    transactionId: string,
    fields: Record<string, string>,
    base = harness.liveUrl,
    headers: Record<string, string> = {},
  ): Promise<IntentAnswer> {
    const response = await fetch(`${base}/checkout/intent?_ptxn=${transactionId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams({ submission_key: randomBytes(12).toString('hex'), ...fields }),
    });
    return { status: response.status, body: (await response.json()) as IntentAnswer['body'] };
  }

  /** What Stripe.js's `confirmPayment`/`confirmSetup` sends from the browser, with a test card number. */
  async function confirmAsBrowser(clientSecret: string, number: string, key = PUBLISHABLE_KEY) {
    const id = clientSecret.split('_secret_')[0] as string;
    const resource = id.startsWith('seti_') ? 'setup_intents' : 'payment_intents';
    const response = await fetch(`${stripe.baseUrl}/v1/${resource}/${id}/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        key,
        client_secret: clientSecret,
        'payment_method_data[type]': 'card',
        'payment_method_data[card][number]': number,
        'payment_method_data[card][exp_month]': '12',
        'payment_method_data[card][exp_year]': '2039',
        'payment_method_data[card][cvc]': '123',
        return_url: `${harness.liveUrl}/checkout/return`,
      }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  async function returnFromStripe(transactionId: string): Promise<number> {
    const response = await fetch(
      `${harness.liveUrl}/checkout/return?_ptxn=${transactionId}&redirect_status=succeeded`,
      {
        redirect: 'manual',
      },
    );
    await response.arrayBuffer();
    return response.status;
  }

  async function transactionOf(id: string): Promise<WireObject> {
    return (await live.get(`/transactions/${id}`)).entity;
  }

  it('creates one unconfirmed PaymentIntent for the amount shown, and answers the same one when asked again', async () => {
    const transactionId = await readyTransaction();
    const first = await askForIntent(transactionId, { expected_amount: '2000' });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data).toMatchObject({ kind: 'checkout', payment_attempt_id: expect.stringMatching(/^payatt_/) });
    const intentId = String(first.body.data?.client_secret.split('_secret_')[0]);
    expect(stripe.object(intentId)).toMatchObject({
      status: 'requires_payment_method',
      amount: 2000,
      currency: 'gbp',
      setup_future_usage: 'off_session',
      metadata: { drawdown_transaction_id: transactionId, drawdown_attempt_id: first.body.data?.payment_attempt_id },
    });
    // A reload (a new form key) while it is unconfirmed: the same intent, never a second one.
    const again = await askForIntent(transactionId, { expected_amount: '2000' });
    expect(again.body.data).toEqual(first.body.data);
    expect(
      stripe
        .objects('pi_')
        .filter((intent) => (intent.metadata as Record<string, string>).drawdown_transaction_id === transactionId),
    ).toHaveLength(1);
  });

  it('completes only once the server has read the confirmed intent back from Stripe, exactly once', async () => {
    const transactionId = await readyTransaction();
    const started = await askForIntent(transactionId, { expected_amount: '2000' });
    const confirmed = await confirmAsBrowser(String(started.body.data?.client_secret), '4242424242424242');
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.status).toBe('succeeded');
    // Stripe took the money, but nobody told Drawdown yet: nothing is completed on the browser's word.
    expect((await transactionOf(transactionId)).status).toBe('ready');
    expect(await returnFromStripe(transactionId)).toBe(303);
    const paid = await transactionOf(transactionId);
    expect(paid.status).toBe('completed');
    expect(paid.payments).toEqual([
      expect.objectContaining({
        status: 'captured',
        amount: '2000',
        method_details: expect.objectContaining({ card: expect.objectContaining({ last4: '4242' }) }),
      }),
    ]);
    expect(String(paid.subscription_id)).toMatch(/^sub_/);
    // The return again, and Stripe's own webhook for the payment: nothing more.
    expect(await returnFromStripe(transactionId)).toBe(303);
    const event = stripe
      .objects('evt_')
      .find(
        (candidate) =>
          candidate.type === 'payment_intent.succeeded' &&
          (candidate.data as { object: { id: string } }).object.id === confirmed.body.id,
      );
    stripe.sendWebhooksTo(`${harness.liveUrl}/payment-providers/stripe/webhooks/${harness.accountId}`);
    const delivery = await stripe.redeliver(String(event?.id));
    expect(delivery.status).toBe(200);
    expect(JSON.parse(delivery.responseBody).data.outcome).toBe('ignored');
    expect((await transactionOf(transactionId)).payments).toHaveLength(1);
    // Asking for a payment of a paid transaction is refused, and nothing new is created at Stripe.
    const late = await askForIntent(transactionId, { expected_amount: '2000' });
    expect([late.status, late.body.error?.code]).toEqual([409, 'transaction_not_payable']);
  });

  it('a decline is recorded when the customer returns, its intent canceled, and a new intent pays', async () => {
    const transactionId = await readyTransaction();
    const first = await askForIntent(transactionId, { expected_amount: '2000' });
    const declined = await confirmAsBrowser(String(first.body.data?.client_secret), '4000000000000002');
    expect(declined.status).toBe(402);
    expect(declined.body.error).toMatchObject({ type: 'card_error', code: 'card_declined' });
    expect(await returnFromStripe(transactionId)).toBe(303);
    const afterDecline = await transactionOf(transactionId);
    expect(afterDecline.status).toBe('ready');
    expect(afterDecline.payments).toEqual([expect.objectContaining({ status: 'error', error_code: 'declined' })]);
    const firstIntent = String(first.body.data?.client_secret.split('_secret_')[0]);
    expect(stripe.object(firstIntent)?.status).toBe('canceled');
    // A stale tab confirming the declined intent again is refused by Stripe: nothing is charged.
    const stale = await confirmAsBrowser(String(first.body.data?.client_secret), '4242424242424242');
    expect(stale.status).toBe(400);
    const retry = await askForIntent(transactionId, { expected_amount: '2000' });
    expect(retry.body.data?.client_secret).not.toBe(first.body.data?.client_secret);
    expect((await confirmAsBrowser(String(retry.body.data?.client_secret), '4242424242424242')).status).toBe(200);
    expect(await returnFromStripe(transactionId)).toBe(303);
    expect((await transactionOf(transactionId)).status).toBe('completed');
  });

  it('updates a subscription’s card through a SetupIntent confirmed in the browser', async () => {
    const transactionId = await readyTransaction();
    const bought = await askForIntent(transactionId, { expected_amount: '2000' });
    await confirmAsBrowser(String(bought.body.data?.client_secret), '4242424242424242');
    await returnFromStripe(transactionId);
    const subscriptionId = String((await transactionOf(transactionId)).subscription_id);
    const change = await live.get(`/subscriptions/${subscriptionId}/update-payment-method-transaction`);
    expect(change.status, change.text).toBe(200);
    const setup = await askForIntent(change.id, { expected_amount: '0' });
    expect(setup.body.data?.kind).toBe('setup');
    expect(setup.body.data?.client_secret).toMatch(/^seti_/);
    expect((await confirmAsBrowser(String(setup.body.data?.client_secret), '5555555555554444')).status).toBe(200);
    expect(await returnFromStripe(change.id)).toBe(303);
    expect((await transactionOf(change.id)).status).toBe('completed');
    const scope = { accountId: harness.accountId, environment: 'live' as const };
    const stored = await harness.services.store.subscriptions.findById(scope, subscriptionId);
    const method = await harness.services.store.paymentMethods.findById(
      scope,
      String(stored?.internal.paymentMethodId),
    );
    expect(method?.card).toMatchObject({ type: 'mastercard', last4: '4444' });
  });

  it('refuses what it cannot do, changing nothing', async () => {
    const transactionId = await readyTransaction();
    const before = stripe.objects('pi_').length;
    const changed = await askForIntent(transactionId, { expected_amount: '1999' });
    expect([changed.status, changed.body.error?.code]).toEqual([409, 'transaction_checkout_amount_changed']);
    const unknownField = await askForIntent(transactionId, {
      expected_amount: '2000',
      card_number: '4242424242424242',
    });
    expect([unknownField.status, unknownField.body.error?.code]).toEqual([400, 'invalid_field']);
    const badAmount = await askForIntent(transactionId, { expected_amount: '20.00' });
    expect([badAmount.status, badAmount.body.error?.code]).toEqual([400, 'invalid_field']);
    const crossSite = await askForIntent(transactionId, { expected_amount: '2000' }, harness.liveUrl, {
      'sec-fetch-site': 'cross-site',
    });
    expect([crossSite.status, crossSite.body.error?.code]).toEqual([403, 'forbidden']);
    const unknown = await askForIntent('txn_01hv8x3d1q2w3e4r5t6y7u8i9o', { expected_amount: '2000' });
    expect(unknown.status).toBe(404);
    expect(stripe.objects('pi_')).toHaveLength(before);
    // The sandbox takes its test cards on its own form: no Stripe.js payment there.
    const sandbox = apiClient(harness.sandboxUrl, harness.sandboxKey);
    const customer = await sandbox.post('/customers', { email: `s${randomBytes(5).toString('hex')}@example.com` });
    const address = await sandbox.post(`/customers/${customer.id}/addresses`, { country_code: 'GB' });
    const sandboxPrice = await sandbox.post('/prices', {
      product_id: (await sandbox.post('/products', { name: 'Sandbox', tax_category: 'standard' })).id,
      description: 'One-off',
      unit_price: { amount: '500', currency_code: 'GBP' },
    });
    const sandboxTransaction = await sandbox.post('/transactions', {
      customer_id: customer.id,
      address_id: address.id,
      items: [{ price_id: sandboxPrice.id, quantity: 1 }],
    });
    const inSandbox = await askForIntent(sandboxTransaction.id, { expected_amount: '500' }, harness.sandboxUrl);
    expect([inSandbox.status, inSandbox.body.error?.code]).toEqual([409, 'checkout_provider_not_configured']);
  });

  it('serves the Payment Element page only with a publishable key; without one the page takes no card', async () => {
    const transactionId = await readyTransaction();
    const page = await fetch(`${harness.liveUrl}/checkout?_ptxn=${transactionId}`);
    const html = await page.text();
    expect(page.headers.get('content-security-policy')).toContain(
      `script-src 'self' ${new URL(stripe.baseUrl).origin}`,
    );
    expect(html).toContain(`<script src="${stripe.stripeJsUrl}"></script>`);
    expect(html).toContain(`data-publishable-key="${PUBLISHABLE_KEY}"`);
    expect(html).not.toContain('name="card_number"');
    await harness.services.useCases.configurePaymentProvider(harness.accountId, {
      provider: 'stripe',
      secretKey: SECRET_KEY,
      webhookSecret: WEBHOOK_SECRET,
      apiBase: stripe.baseUrl,
    });
    try {
      const without = await fetch(`${harness.liveUrl}/checkout?_ptxn=${transactionId}`);
      const text = await without.text();
      expect(text).toContain('cannot take card payments');
      expect(text).not.toContain('<script');
      expect(without.headers.get('content-security-policy')).not.toContain('script-src');
      const refused = await askForIntent(transactionId, { expected_amount: '2000' });
      expect([refused.status, refused.body.error?.code]).toEqual([409, 'checkout_provider_not_configured']);
    } finally {
      await harness.services.useCases.configurePaymentProvider(harness.accountId, {
        provider: 'stripe',
        secretKey: SECRET_KEY,
        webhookSecret: WEBHOOK_SECRET,
        publishableKey: PUBLISHABLE_KEY,
        apiBase: stripe.baseUrl,
      });
    }
  });
});
