/**
 * The Stripe provider against a local server speaking Stripe's wire format, through the real
 * `stripe` client: what it sends (form-encoded PaymentIntents and SetupIntents, the attempt id
 * as Idempotency-Key, one Stripe customer per Drawdown customer) and how it reads what Stripe
 * answers and sends (card errors, 3-D Secure, signed webhooks). The customer mapping is stored
 * on both engines.
 */
import { randomBytes } from 'node:crypto';
import { type CheckoutPaymentRequest, parseProviderSettings, type Scope, type Store } from '@drawdown/billing-core';
import { ENGINES, openTestStore } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StripeProvider } from '../../src/payments/stripe-provider.js';
import { type FakeStripe, startFakeStripe, stripeSignature } from '../support/stripe/fake-stripe-server.js';

const SECRET_KEY = 'sk_test_drawdownProviderTest0001';
const WEBHOOK_SECRET = 'whsec_drawdownProviderTestSecret0001';
const scope: Scope = { accountId: 'acc_stripe_provider', environment: 'live' };

const attemptId = () => `payatt_${randomBytes(10).toString('hex')}`;

function checkout(overrides: Partial<CheckoutPaymentRequest> = {}): CheckoutPaymentRequest {
  return {
    scope,
    customerId: 'ctm_provider_1',
    customerEmail: 'ada@example.com',
    transactionId: 'txn_provider_1',
    attemptId: attemptId(),
    amount: '2500',
    currencyCode: 'GBP',
    method: { kind: 'token', token: 'pm_card_visa' },
    saveMethod: true,
    returnUrl: 'http://127.0.0.1:1/checkout/return',
    ...overrides,
  };
}

describe.each(ENGINES)('%s: the Stripe provider against the local Stripe-format server', (engine) => {
  let stripe: FakeStripe;
  let store: Store;
  let dispose: () => Promise<void>;
  let provider: StripeProvider;

  beforeAll(async () => {
    stripe = await startFakeStripe({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET });
    ({ store, dispose } = await openTestStore(engine));
    provider = new StripeProvider({
      scope,
      settings: parseProviderSettings(
        { provider: 'stripe', secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, apiBase: stripe.baseUrl },
        new Date().toISOString(),
      ),
      customers: store.providerCustomers,
      now: () => Date.now(),
    });
  });
  afterAll(async () => {
    await stripe.close();
    await dispose();
  });

  it('pays a checkout with a confirmed PaymentIntent, keyed by the attempt, and saves the card', async () => {
    const request = checkout();
    const outcome = await provider.payCheckout(request);
    expect(outcome).toMatchObject({
      status: 'succeeded',
      method: { type: 'card', card: { type: 'visa', last4: '4242', expiryMonth: 12 } },
    });
    if (outcome.status !== 'succeeded') throw new Error('unreachable');
    const intent = stripe.object(outcome.providerPaymentRef);
    expect(intent).toMatchObject({
      amount: 2500,
      currency: 'gbp',
      status: 'succeeded',
      setup_future_usage: 'off_session',
      metadata: {
        drawdown_account_id: scope.accountId,
        drawdown_transaction_id: 'txn_provider_1',
        drawdown_attempt_id: request.attemptId,
      },
    });
    const create = stripe.requests.find((r) => r.method === 'POST' && r.path === '/v1/payment_intents');
    expect(create?.headers['idempotency-key']).toBe(request.attemptId);
    expect(create?.headers['content-type']).toContain('application/x-www-form-urlencoded');
    expect(create?.rawBody).toContain('confirm=true');
    // The card is attached to the customer for later off-session charges.
    expect(stripe.object(outcome.method.providerMethodRef)?.customer).toBe(intent?.customer);
  });

  it('makes one Stripe customer per Drawdown customer and keeps the mapping', async () => {
    const before = stripe.objects('cus_').length;
    await provider.payCheckout(checkout());
    await provider.payCheckout(checkout());
    expect(stripe.objects('cus_')).toHaveLength(before);
    const mapped = await store.providerCustomers.find(scope, 'stripe', 'ctm_provider_1');
    expect(mapped).toMatch(/^cus_/);
    expect(stripe.object(mapped as string)).toMatchObject({
      email: 'ada@example.com',
      metadata: { drawdown_customer_id: 'ctm_provider_1' },
    });
  });

  it('retrying an attempt replays Stripe’s first answer: one PaymentIntent, one charge', async () => {
    const request = checkout({ customerId: 'ctm_provider_retry' });
    const first = await provider.payCheckout(request);
    const second = await provider.payCheckout(request);
    expect(second).toEqual(first);
    const intents = stripe
      .objects('pi_')
      .filter((intent) => (intent.metadata as Record<string, string>).drawdown_attempt_id === request.attemptId);
    expect(intents).toHaveLength(1);
  });

  it('reads a declined card as a decline with the public API’s error code', async () => {
    const outcome = await provider.payCheckout(
      checkout({ method: { kind: 'token', token: 'pm_card_chargeDeclinedInsufficientFunds' } }),
    );
    expect(outcome).toMatchObject({
      status: 'declined',
      errorCode: 'not_enough_balance',
      method: { card: { last4: '9995' } },
    });
    expect(outcome.providerPaymentRef).toMatch(/^pi_/);
  });

  it('sends the customer to 3-D Secure and reads the outcome when they come back', async () => {
    const outcome = await provider.payCheckout(
      checkout({ method: { kind: 'token', token: 'pm_card_authenticationRequired' } }),
    );
    expect(outcome.status).toBe('requires_action');
    if (outcome.status !== 'requires_action') throw new Error('unreachable');
    expect(outcome.actionUrl).toBe(`${stripe.baseUrl}/test/authenticate/${outcome.providerPaymentRef}`);
    expect(await provider.resumeAttempt(scope, outcome.providerPaymentRef)).toMatchObject({
      status: 'requires_action',
    });
    await stripe.authenticate(outcome.providerPaymentRef, 'pass');
    expect(await provider.resumeAttempt(scope, outcome.providerPaymentRef)).toMatchObject({
      status: 'succeeded',
      method: { card: { last4: '3184' } },
    });
  });

  it('charges a saved card off-session, and reads an off-session decline', async () => {
    const saved = await provider.setUpMethod({
      scope,
      customerId: 'ctm_provider_2',
      customerEmail: 'grace@example.com',
      transactionId: 'txn_provider_setup',
      attemptId: attemptId(),
      method: { kind: 'token', token: 'pm_card_chargeCustomerFail' },
      returnUrl: 'http://127.0.0.1:1/return',
    });
    expect(saved).toMatchObject({ status: 'succeeded', method: { card: { last4: '0341' } } });
    if (saved.status !== 'succeeded') throw new Error('unreachable');
    expect(saved.providerPaymentRef).toMatch(/^seti_/);

    const declined = await provider.chargeSavedMethod({
      scope,
      customerId: 'ctm_provider_2',
      customerEmail: 'grace@example.com',
      transactionId: 'txn_provider_renewal',
      attemptId: attemptId(),
      amount: '1000',
      currencyCode: 'EUR',
      providerMethodRef: saved.method.providerMethodRef,
    });
    expect(declined).toMatchObject({ status: 'declined', errorCode: 'declined' });
    const offSession = stripe.requests.filter((r) => r.path === '/v1/payment_intents').at(-1);
    expect(offSession?.params).toMatchObject({ off_session: 'true', confirm: 'true', currency: 'eur', amount: '1000' });

    const good = await provider.setUpMethod({
      scope,
      customerId: 'ctm_provider_2',
      customerEmail: 'grace@example.com',
      transactionId: 'txn_provider_setup_2',
      attemptId: attemptId(),
      method: { kind: 'token', token: 'pm_card_mastercard' },
      returnUrl: 'http://127.0.0.1:1/return',
    });
    if (good.status !== 'succeeded') throw new Error('the mastercard setup failed');
    const paid = await provider.chargeSavedMethod({
      scope,
      customerId: 'ctm_provider_2',
      customerEmail: 'grace@example.com',
      transactionId: 'txn_provider_renewal_2',
      attemptId: attemptId(),
      amount: '1000',
      currencyCode: 'EUR',
      providerMethodRef: good.method.providerMethodRef,
    });
    expect(paid).toMatchObject({ status: 'succeeded', method: { card: { type: 'mastercard', last4: '4444' } } });
  });

  it('refuses card fields, foreign tokens and amounts Stripe cannot charge, before anything is charged', async () => {
    const before = stripe.objects('pi_').length;
    await expect(
      provider.payCheckout(
        checkout({
          method: {
            kind: 'card_fields',
            number: '4242424242424242',
            expiryMonth: 12,
            expiryYear: 2030,
            cvc: '123',
            cardholderName: 'A',
          },
        }),
      ),
    ).rejects.toMatchObject({ code: 'payment_method_input_invalid' });
    await expect(
      provider.payCheckout(checkout({ method: { kind: 'token', token: 'tok_visa' } })),
    ).rejects.toMatchObject({
      code: 'payment_method_input_invalid',
    });
    await expect(
      provider.payCheckout(checkout({ method: { kind: 'token', token: 'pm_unknown' } })),
    ).rejects.toMatchObject({
      code: 'payment_method_input_invalid',
    });
    await expect(provider.payCheckout(checkout({ amount: '100000000' }))).rejects.toMatchObject({
      code: 'invalid_field',
    });
    expect(stripe.objects('pi_')).toHaveLength(before);
  });

  it('verifies webhooks with the signing secret and reads them as neutral notifications', async () => {
    const paid = await provider.payCheckout(checkout({ customerId: 'ctm_provider_hooks' }));
    await stripe.settled();
    const event = stripe
      .objects('evt_')
      .find(
        (e) =>
          e.type === 'payment_intent.succeeded' &&
          (e.data as { object: { id: string } }).object.id === paid.providerPaymentRef,
      );
    const body = JSON.stringify(event);
    const notification = await provider.readNotification({
      rawBody: body,
      headers: { 'stripe-signature': stripeSignature(body, WEBHOOK_SECRET) },
    });
    expect(notification).toMatchObject({
      kind: 'payment_succeeded',
      notificationRef: event?.id,
      providerPaymentRef: paid.providerPaymentRef,
      method: { card: { last4: '4242' } },
    });

    const dispute = await stripe.dispute(paid.providerPaymentRef);
    const disputeEvent = stripe.objects('evt_').find((e) => e.type === 'charge.dispute.created');
    const disputeBody = JSON.stringify(disputeEvent);
    expect(
      await provider.readNotification({
        rawBody: disputeBody,
        headers: { 'stripe-signature': stripeSignature(disputeBody, WEBHOOK_SECRET) },
      }),
    ).toEqual({
      kind: 'payment_disputed',
      notificationRef: disputeEvent?.id,
      providerPaymentRef: paid.providerPaymentRef,
      amount: '2500',
      reason: dispute.reason,
    });

    const chargeEvent = JSON.stringify(stripe.objects('evt_').find((e) => e.type === 'charge.succeeded'));
    expect(
      await provider.readNotification({
        rawBody: chargeEvent,
        headers: { 'stripe-signature': stripeSignature(chargeEvent, WEBHOOK_SECRET) },
      }),
    ).toMatchObject({ kind: 'ignored' });
  });

  it('refuses a webhook signed with another secret, a stale one, an altered body, or none', async () => {
    const body = JSON.stringify(stripe.objects('evt_')[0]);
    const refusals = [
      { 'stripe-signature': stripeSignature(body, 'whsec_someoneElsesSecret0001') },
      { 'stripe-signature': stripeSignature(body, WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 301) },
      { 'stripe-signature': stripeSignature(`${body} `, WEBHOOK_SECRET) },
      { 'stripe-signature': 'garbage' },
      {},
    ];
    for (const headers of refusals) {
      await expect(provider.readNotification({ rawBody: body, headers })).rejects.toMatchObject({
        code: 'provider_notification_invalid',
      });
    }
  });
});
