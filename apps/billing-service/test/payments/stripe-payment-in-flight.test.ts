/**
 * A payment in flight owns its transaction (ADR 1468), in live through Stripe (the local
 * Stripe-format server), on both engines, for the two ways a customer-present payment waits:
 * a form payment whose PaymentIntent asks for 3-D Secure (`next_action`), and a Stripe.js payment
 * the browser has not confirmed yet. While either waits, the merchant's cancel, reported payment
 * and item changes are refused and change nothing; when the customer finishes, the money is
 * recorded once. An abandoned one never blocks the transaction: a new payment (form or Stripe.js)
 * cancels its intent at Stripe first, and after 30 minutes the recovery step does; an intent that
 * succeeded before the cancel reached Stripe is recorded, never lost.
 */
import { randomBytes } from 'node:crypto';
import { ENGINES } from '@drawdown/testkit';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/api-client.js';
import { SECRET_KEY, useLiveStripeAccount, WEBHOOK_SECRET } from '../support/stripe/live-stripe-account.js';

const MINUTE_MS = 60_000;

describe.each(ENGINES)('%s: a Stripe payment in flight', (engine) => {
  const account = useLiveStripeAccount(engine);
  const { clock, pay, readyTransaction, transactionOf } = account;

  beforeAll(async () => {
    // Stripe.js takes the card on the page: the account's publishable key as well (ADR 1424).
    await account.harness.services.useCases.configurePaymentProvider(account.harness.accountId, {
      provider: 'stripe',
      secretKey: SECRET_KEY,
      webhookSecret: WEBHOOK_SECRET,
      publishableKey: 'pk_test_drawdownLiveTest00000001',
      apiBase: account.stripe.baseUrl,
    });
  });

  function scope() {
    return { accountId: account.harness.accountId, environment: 'live' as const };
  }

  async function attemptsOf(transactionId: string) {
    const page = await account.harness.services.store.paymentAttempts.list(scope(), {
      filter: { transaction_id: [{ op: 'eq', value: transactionId }] },
      direction: 'asc',
      perPage: 10,
      countTotal: false,
    });
    return page.items;
  }

  function payments(entity: Record<string, unknown>) {
    return entity.payments as { status: string; amount: string; provider_reference: string }[];
  }

  /** The merchant's changes of what the transaction owes, each refused while the payment waits, nothing changed. */
  async function expectChangesRefused(transactionId: string): Promise<void> {
    const before = await transactionOf(transactionId);
    const refusals = [
      await account.live.patch(`/transactions/${transactionId}`, { status: 'canceled' }),
      await account.live.post(`/transactions/${transactionId}/payments`, {
        method_type: 'bank_transfer',
        provider_reference: 'wire-1',
      }),
      await account.live.patch(`/transactions/${transactionId}`, {
        items: [{ price_id: account.priceId, quantity: 3 }],
      }),
    ];
    for (const refusal of refusals) expectError(refusal, 409, 'transaction_payment_in_progress');
    expect(await transactionOf(transactionId)).toEqual(before);
  }

  /** A form payment with the 3-D Secure card: its PaymentIntent waits at `requires_action`. */
  async function waitingForm(): Promise<{ transactionId: string; email: string; intentId: string }> {
    const { transactionId, email } = await readyTransaction();
    const view = await pay(transactionId, email, 'pm_card_authenticationRequired');
    expect(view.attempt?.status).toBe('requires_action');
    return { transactionId, email, intentId: String(view.attempt?.providerPaymentRef) };
  }

  /** A Stripe.js payment: the intent exists, the browser has not confirmed it. */
  async function waitingBrowser(): Promise<{ transactionId: string; intentId: string; expected: string }> {
    const { transactionId, email } = await readyTransaction();
    const detailed = await account.harness.services.useCases.setCheckoutDetails('live', transactionId, {
      email,
      address: { countryCode: 'GB', postalCode: 'SW1A 1AA', region: null, city: null, firstLine: null },
    });
    const expected = detailed.transaction.details.totals.balance;
    const started = await account.harness.services.useCases.startBrowserCheckout('live', transactionId, {
      submissionKey: randomBytes(12).toString('hex'),
      expectedAmount: expected,
      saveMethod: false,
    });
    const [attempt] = await attemptsOf(transactionId);
    expect(attempt).toMatchObject({ id: started.attemptId, status: 'processing', channel: 'browser' });
    return { transactionId, intentId: String(attempt?.providerPaymentRef), expected };
  }

  it('refuses changes while 3-D Secure waits, then records the payment once when the customer passes', async () => {
    const { transactionId, intentId } = await waitingForm();
    await expectChangesRefused(transactionId);
    await account.stripe.authenticate(intentId, 'pass');
    await account.stripe.settled();
    await account.harness.services.useCases.resumeCheckout('live', transactionId, () => true);
    const paid = await transactionOf(transactionId);
    expect(paid.status).toBe('completed');
    expect(payments(paid).filter((payment) => payment.status === 'captured')).toHaveLength(1);
    expect(account.stripe.object(intentId)).toMatchObject({ status: 'succeeded' });
  });

  it('refuses changes while a Stripe.js payment is unconfirmed, and a new form payment cancels its intent first', async () => {
    const { transactionId, intentId, expected } = await waitingBrowser();
    await expectChangesRefused(transactionId);
    // The card form of the same page (its details step is done): a new payment.
    const view = await account.harness.services.useCases.submitCheckout('live', transactionId, {
      submissionKey: randomBytes(12).toString('hex'),
      expectedAmount: expected,
      method: { kind: 'token', token: 'pm_card_visa' },
      saveMethod: false,
      returnUrl: `${account.harness.liveUrl}/checkout/return`,
    });
    expect(view.transaction.status).toBe('completed');
    expect(account.stripe.object(intentId)).toMatchObject({ status: 'canceled', amount_received: 0 });
    const [abandoned, paid] = await attemptsOf(transactionId);
    expect(abandoned).toMatchObject({ status: 'canceled' });
    expect(paid).toMatchObject({ status: 'succeeded', channel: 'form' });
  });

  it('lets Stripe.js supersede an abandoned 3-D Secure form payment: one cancel, one new intent, no error', async () => {
    const { transactionId, intentId } = await waitingForm();
    const transaction = await transactionOf(transactionId);
    const started = await account.harness.services.useCases.startBrowserCheckout('live', transactionId, {
      submissionKey: randomBytes(12).toString('hex'),
      expectedAmount: String((transaction.details as { totals: { balance: string } }).totals.balance),
      saveMethod: false,
    });
    expect(account.stripe.object(intentId)).toMatchObject({ status: 'canceled' });
    const [abandoned, browser] = await attemptsOf(transactionId);
    expect(abandoned).toMatchObject({ status: 'canceled' });
    expect(browser).toMatchObject({ id: started.attemptId, status: 'processing', channel: 'browser' });
    expect(String(browser?.providerPaymentRef)).not.toBe(intentId);
  });

  it('asks Stripe about a waiting payment once however often anonymous visitors open the return address', async () => {
    const { transactionId, intentId } = await waitingForm();
    const reads = () =>
      account.stripe.requests.filter(
        (request) => request.method === 'GET' && request.path === `/v1/payment_intents/${intentId}`,
      ).length;
    const before = reads();
    for (let visit = 0; visit < 20; visit += 1) {
      const response = await fetch(`${account.harness.liveUrl}/checkout/return?_ptxn=${transactionId}`, {
        redirect: 'manual',
      });
      await response.arrayBuffer();
      expect(response.status).toBe(303);
    }
    expect(reads() - before).toBe(1);
    // Asked again and still waiting, the attempt's wait is not extended by the visits.
    const [attempt] = await attemptsOf(transactionId);
    expect(attempt?.status).toBe('requires_action');
    clock.advance(31 * MINUTE_MS);
    await account.harness.services.useCases.runDueWork('payment_recovery');
    expect((await attemptsOf(transactionId))[0]).toMatchObject({ status: 'canceled' });
  });

  it('ends a waiting payment canceled at Stripe by another party canceled, with no decline on the transaction', async () => {
    // Another process's recovery step (or the merchant at Stripe) canceled the intent; this one learns it on the return.
    const { transactionId, intentId } = await waitingForm();
    const canceled = await fetch(`${account.stripe.baseUrl}/v1/payment_intents/${intentId}/cancel`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SECRET_KEY}` },
    });
    expect(canceled.status).toBe(200);
    await account.stripe.settled();
    await account.harness.services.useCases.resumeCheckout('live', transactionId, () => true);
    expect((await attemptsOf(transactionId))[0]).toMatchObject({ status: 'canceled', errorCode: 'canceled' });
    const transaction = await transactionOf(transactionId);
    expect(transaction.status).toBe('ready');
    expect(payments(transaction)).toEqual([]);
  });

  it('cancels a 3-D Secure payment left waiting 30 minutes at Stripe, after which the merchant may cancel', async () => {
    const { transactionId, intentId } = await waitingForm();
    clock.advance(31 * MINUTE_MS);
    await account.harness.services.useCases.runDueWork('payment_recovery');
    expect(account.stripe.object(intentId)).toMatchObject({ status: 'canceled', amount_received: 0 });
    expect((await attemptsOf(transactionId))[0]).toMatchObject({ status: 'canceled' });
    const canceled = await account.live.patch(`/transactions/${transactionId}`, { status: 'canceled' });
    expect(canceled.status, canceled.text).toBe(200);
  });

  it('records an abandoned payment that succeeded before the cancel reached Stripe, instead of canceling it', async () => {
    const { transactionId, intentId } = await waitingForm();
    // The customer passes 3-D Secure at the last moment; Stripe's webhook has not arrived yet.
    account.stripe.sendWebhooksTo(undefined);
    try {
      await account.stripe.authenticate(intentId, 'pass');
      clock.advance(31 * MINUTE_MS);
      await account.harness.services.useCases.runDueWork('payment_recovery');
    } finally {
      account.stripe.sendWebhooksTo(account.webhookUrl);
    }
    expect(account.stripe.object(intentId)).toMatchObject({ status: 'succeeded' });
    const paid = await transactionOf(transactionId);
    expect(paid.status).toBe('completed');
    expect(payments(paid)).toMatchObject([{ status: 'captured', provider_reference: intentId }]);
  });
});
