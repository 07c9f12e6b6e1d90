/**
 * `on_payment_failure` in live with Stripe (ADR 1426), end to end on both engines: the official
 * Paddle SDK calls a real billing service whose account pays through the local Stripe-format
 * server. With `prevent_change` the immediate charge is authorised before the change commits and
 * captured after: a decline leaves everything exactly as it was; success charges once. Lost
 * answers, 5xx and a crash between the provider's call and the write are settled by the
 * recovery step (`runDueWork('payment_recovery')`) with the attempts' own idempotency keys: one
 * charge or none, never two.
 */
import { randomBytes } from 'node:crypto';
import { BillingError, RECOVERY_GRACE_MS } from '@drawdown/billing-core';
import { type BillingHarness, ENGINES, expectEvery, movableClock, startBillingHarness } from '@drawdown/testkit';
import { ApiError, type Environment, Paddle } from '@paddle/paddle-node-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, apiClient, type WireObject } from '../support/api-client.js';
import { type FakeStripe, startFakeStripe } from '../support/stripe/fake-stripe-server.js';
import { eventually } from '../support/stripe/live-stripe-account.js';

const SECRET_KEY = 'sk_test_drawdownPreventChange00001';
const WEBHOOK_SECRET = 'whsec_drawdownPreventChangeSecret01';
const PUBLISHABLE_KEY = 'pk_test_drawdownPreventChange00001';
const CREATE_INTENT = /^\/v1\/payment_intents$/;
const CAPTURE = /^\/v1\/payment_intents\/[^/]+\/capture$/;

/** The call's refusal code (the SDK's `ApiError`, or a use case's `BillingError`), or `applied` when it succeeded. */
async function outcomeOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
    return 'applied';
  } catch (error) {
    if (error instanceof ApiError || error instanceof BillingError) return String(error.code);
    throw error;
  }
}

describe.each(ENGINES)('%s: on_payment_failure in live with Stripe', (engine) => {
  const clock = movableClock();
  let harness: BillingHarness;
  let stripe: FakeStripe;
  let live: ApiClient;
  let paddle: Paddle;
  let monthlyPriceId: string;
  let biggerPriceId: string;
  let oneOffPriceId: string;
  let trialPriceId: string;
  const scope = () => ({ accountId: harness.accountId, environment: 'live' as const });
  const caller = async () => ({
    account: await harness.services.useCases.requireAccount(harness.accountId),
    scope: scope(),
  });

  beforeAll(async () => {
    stripe = await startFakeStripe({
      secretKey: SECRET_KEY,
      webhookSecret: WEBHOOK_SECRET,
      publishableKey: PUBLISHABLE_KEY,
      now: clock.now,
    });
    // One retry of an unanswered request by the Stripe client (the default is two): Drawdown's
    // one ask under the attempt's key is sent twice, and a lost-answer case waits out one
    // back-off instead of two.
    harness = await startBillingHarness({ engine, clock, stripeJsUrl: stripe.stripeJsUrl, stripeNetworkRetries: 1 });
    live = apiClient(harness.liveUrl, harness.liveKey);
    paddle = new Paddle(harness.liveKey, { environment: harness.liveUrl as Environment, logLevel: 'none' as never });
    await harness.services.useCases.configurePaymentProvider(harness.accountId, {
      provider: 'stripe',
      secretKey: SECRET_KEY,
      webhookSecret: WEBHOOK_SECRET,
      publishableKey: PUBLISHABLE_KEY,
      apiBase: stripe.baseUrl,
    });
    stripe.sendWebhooksTo(`${harness.liveUrl}/payment-providers/stripe/webhooks/${harness.accountId}`);
    const product = await live.post('/products', { name: 'Pro', tax_category: 'standard' });
    const price = (amount: string, billing: boolean, extra: Record<string, unknown> = {}) =>
      live.post('/prices', {
        product_id: product.id,
        description: `Pro ${amount}`,
        unit_price: { amount, currency_code: 'GBP' },
        ...(billing ? { billing_cycle: { interval: 'month', frequency: 1 } } : {}),
        ...extra,
      });
    monthlyPriceId = (await price('2000', true)).id;
    biggerPriceId = (await price('5000', true)).id;
    oneOffPriceId = (await price('700', false)).id;
    trialPriceId = (await price('3000', true, { trial_period: { interval: 'day', frequency: 14 } })).id;
  });
  afterAll(async () => {
    await stripe?.close();
    await harness?.close();
  });

  async function checkoutDetails(transactionId: string, email: string) {
    return harness.services.useCases.setCheckoutDetails('live', transactionId, {
      email,
      address: { countryCode: 'GB', postalCode: 'SW1A 1AA', region: null, city: null, firstLine: null },
    });
  }

  async function pay(transactionId: string, email: string, token: string) {
    const detailed = await checkoutDetails(transactionId, email);
    return harness.services.useCases.submitCheckout('live', transactionId, {
      submissionKey: randomBytes(12).toString('hex'),
      expectedAmount: detailed.transaction.details.totals.balance,
      method: { kind: 'token', token },
      saveMethod: false,
      returnUrl: `${harness.liveUrl}/checkout/return`,
    });
  }

  async function readyTransaction(
    priceId = monthlyPriceId,
  ): Promise<{ transactionId: string; email: string; customerId: string }> {
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
    return { transactionId: transaction.id, email, customerId: customer.id };
  }

  /** A subscription bought through a Stripe checkout, its saved card then `card` (a decline card through a SetupIntent). */
  async function subscribed(
    card: 'pm_card_visa' | 'pm_card_chargeCustomerFail' = 'pm_card_visa',
    priceId = monthlyPriceId,
  ) {
    const { transactionId, email, customerId } = await readyTransaction(priceId);
    expect((await pay(transactionId, email, 'pm_card_visa')).transaction.status).toBe('completed');
    await stripe.settled();
    const subscriptionId = String((await live.get(`/transactions/${transactionId}`)).entity.subscription_id);
    if (card !== 'pm_card_visa') {
      const change = await harness.services.useCases.getPaymentMethodChangeTransaction(await caller(), subscriptionId);
      expect((await pay(change.id, email, card)).transaction.status).toBe('completed');
      await stripe.settled();
    }
    return { subscriptionId, customerId };
  }

  /** Everything a refused change must leave as it was: the subscription, its transactions, balances, events, attempts. */
  async function snapshot(subscriptionId: string, customerId: string) {
    await stripe.settled();
    const events = await harness.services.store.events.list(scope(), { filter: {}, perPage: 1000, direction: 'asc' });
    return {
      subscription: (await live.get(`/subscriptions/${subscriptionId}`)).entity,
      transactions: (await live.get(`/transactions?subscription_id=${subscriptionId}&per_page=200`)).list,
      creditBalances: (await live.get(`/customers/${customerId}/credit-balances`)).list,
      events: events.items.map((event) => event.entity),
    };
  }

  /** The PaymentIntents Stripe holds for a Drawdown transaction (named in their metadata). */
  function intentsFor(transactionId: string): WireObject[] {
    return stripe
      .objects('pi_')
      .filter((intent) => (intent.metadata as Record<string, string>).drawdown_transaction_id === transactionId);
  }

  /** The manual-capture intents made for one subscription's changes, whatever their transaction. */
  function holdsSince(count: number): WireObject[] {
    return stripe
      .objects('pi_')
      .slice(count)
      .filter((intent) => intent.capture_method === 'manual');
  }

  async function attemptsInFlight(): Promise<number> {
    const page = await harness.services.store.paymentAttempts.list(scope(), {
      filter: { status: [{ op: 'in', values: ['processing', 'requires_action'] }] },
      perPage: 100,
      direction: 'asc',
    });
    return page.items.length;
  }

  const upgrade = (subscriptionId: string, onPaymentFailure?: 'prevent_change' | 'apply_change') =>
    paddle.subscriptions.update(subscriptionId, {
      items: [{ priceId: biggerPriceId, quantity: 1 }],
      prorationBillingMode: 'full_immediately',
      ...(onPaymentFailure ? { onPaymentFailure } : {}),
    });

  it('prevent_change + a declined card: the update changes nothing, and nothing is held', async () => {
    const { subscriptionId, customerId } = await subscribed('pm_card_chargeCustomerFail');
    const before = await snapshot(subscriptionId, customerId);
    const intents = stripe.objects('pi_').length;
    expect(await outcomeOf(upgrade(subscriptionId, 'prevent_change'))).toBe('subscription_payment_declined');
    expect(await snapshot(subscriptionId, customerId)).toEqual(before);
    const [hold, ...more] = holdsSince(intents);
    expect(more).toEqual([]);
    expect(hold).toMatchObject({ capture_method: 'manual', amount_received: 0, amount_capturable: 0 });
    expect(hold?.status).not.toBe('requires_capture');
    expect(await attemptsInFlight()).toBe(0);
    // The default is prevent_change too.
    expect(await outcomeOf(upgrade(subscriptionId))).toBe('subscription_payment_declined');
    expect(await snapshot(subscriptionId, customerId)).toEqual(before);
  });

  it('prevent_change + a declined card: a one-time charge changes nothing', async () => {
    const { subscriptionId, customerId } = await subscribed('pm_card_chargeCustomerFail');
    const before = await snapshot(subscriptionId, customerId);
    const outcome = await outcomeOf(
      paddle.subscriptions.createOneTimeCharge(subscriptionId, {
        effectiveFrom: 'immediately',
        items: [{ priceId: oneOffPriceId, quantity: 2 }],
        onPaymentFailure: 'prevent_change',
      }),
    );
    expect(outcome).toBe('subscription_payment_declined');
    expect(await snapshot(subscriptionId, customerId)).toEqual(before);
  });

  it('apply_change + a declined card: the change stays and the subscription is past due, as before', async () => {
    const { subscriptionId } = await subscribed('pm_card_chargeCustomerFail');
    const intents = stripe.objects('pi_').length;
    expect(await outcomeOf(upgrade(subscriptionId, 'apply_change'))).toBe('applied');
    await stripe.settled();
    const subscription = (await live.get(`/subscriptions/${subscriptionId}`)).entity;
    expect(subscription.status).toBe('past_due');
    expect((subscription.items as WireObject[]).map((item) => (item.price as WireObject).id)).toEqual([biggerPriceId]);
    const [charge] = (await live.get(`/transactions?subscription_id=${subscriptionId}&origin=subscription_update`))
      .list;
    expect(charge?.status).toBe('past_due');
    expect(charge?.payments).toEqual([expect.objectContaining({ status: 'error', error_code: 'declined' })]);
    // Today's path: one automatically captured charge, no hold.
    expect(holdsSince(intents)).toEqual([]);
  });

  it('prevent_change + a good card: the update applies, charged once, authorised then captured', async () => {
    const { subscriptionId } = await subscribed();
    const updated = await paddle.subscriptions.update(subscriptionId, {
      items: [{ priceId: biggerPriceId, quantity: 1 }],
      prorationBillingMode: 'full_immediately',
      onPaymentFailure: 'prevent_change',
    });
    expect(updated.items.map((item) => item.price?.id)).toEqual([biggerPriceId]);
    expect(updated.status).toBe('active');
    await stripe.settled();
    const [charge, ...others] = (
      await live.get(`/transactions?subscription_id=${subscriptionId}&origin=subscription_update`)
    ).list;
    expect(others).toEqual([]);
    expect(charge?.status).toBe('completed');
    const total = String((charge?.details as WireObject & { totals: WireObject }).totals.grand_total);
    expect(charge?.payments).toEqual([expect.objectContaining({ status: 'captured', amount: total })]);
    const intents = intentsFor(String(charge?.id));
    expect(intents).toHaveLength(1);
    expect(intents[0]).toMatchObject({
      capture_method: 'manual',
      status: 'succeeded',
      amount: Number(total),
      amount_received: Number(total),
    });
    expect(capturesOf(String(intents[0]?.id))).toBe(1);
    expect(await attemptsInFlight()).toBe(0);
    // The webhooks that followed (capturable, succeeded) changed nothing more.
    expect((await live.get(`/transactions/${String(charge?.id)}`)).entity.payments).toHaveLength(1);
  });

  it('activate with a declined card changes nothing; with a good card it charges once, authorised then captured', async () => {
    const declining = await subscribed('pm_card_chargeCustomerFail', trialPriceId);
    expect((await live.get(`/subscriptions/${declining.subscriptionId}`)).entity.status).toBe('trialing');
    const before = await snapshot(declining.subscriptionId, declining.customerId);
    expect(await outcomeOf(paddle.subscriptions.activate(declining.subscriptionId))).toBe(
      'subscription_payment_declined',
    );
    expect(await snapshot(declining.subscriptionId, declining.customerId)).toEqual(before);

    const paying = await subscribed('pm_card_visa', trialPriceId);
    const activated = await paddle.subscriptions.activate(paying.subscriptionId);
    expect(activated.status).toBe('active');
    await stripe.settled();
    const charges = (
      await live.get(`/transactions?subscription_id=${paying.subscriptionId}&origin=subscription_recurring`)
    ).list;
    expect(charges.map((charge) => charge.status)).toEqual(['completed']);
    const [intent, ...more] = intentsFor(String(charges[0]?.id));
    expect(more).toEqual([]);
    const total = Number((charges[0]?.details as WireObject & { totals: WireObject }).totals.grand_total);
    expect(total).toBeGreaterThan(0);
    expect(intent).toMatchObject({ capture_method: 'manual', status: 'succeeded', amount_received: total });
  });

  it('another change landing between the authorisation and the commit: the hold is released, nothing of this change is written', async () => {
    const { subscriptionId, customerId } = await subscribed();
    const intents = stripe.objects('pi_').length;
    let concurrent = '';
    // While Stripe's answer to the authorisation is on its way, another request moves the
    // subscription to the bigger price without billing: the held charge no longer matches.
    const clear = stripe.beforeAnswer(CREATE_INTENT, async () => {
      concurrent = await outcomeOf(
        paddle.subscriptions.update(subscriptionId, {
          items: [{ priceId: biggerPriceId, quantity: 1 }],
          prorationBillingMode: 'do_not_bill',
        }),
      );
      clear();
    });
    const outcome = await outcomeOf(upgrade(subscriptionId, 'prevent_change'));
    clear();
    expect(concurrent).toBe('applied');
    expect(outcome).toBe('subscription_payment_amount_changed');
    const after = await snapshot(subscriptionId, customerId);
    expect((after.subscription.items as WireObject[]).map((item) => (item.price as WireObject).id)).toEqual([
      biggerPriceId,
    ]);
    expect(after.transactions.filter((transaction) => transaction.origin === 'subscription_update')).toEqual([]);
    const [hold, ...more] = holdsSince(intents);
    expect(more).toEqual([]);
    expect(hold).toMatchObject({ status: 'canceled', amount_received: 0 });
    expect(await attemptsInFlight()).toBe(0);
  });

  it('a lost answer to the authorisation: nothing changes; recovery releases the hold, and a retry charges once', async () => {
    const { subscriptionId, customerId } = await subscribed();
    const before = await snapshot(subscriptionId, customerId);
    const intents = stripe.objects('pi_').length;
    const clear = stripe.fault('lose_answer', CREATE_INTENT);
    const outcome = await outcomeOf(upgrade(subscriptionId, 'prevent_change'));
    expect(clear()).toBe(2); // one ask under the attempt's key, sent twice (--stripe-network-retries 1)
    expect(outcome).toBe('subscription_payment_unconfirmed');
    expect(await snapshot(subscriptionId, customerId)).toEqual(before);
    // Stripe acted on the first request: one hold, the same one however many times it was asked.
    const [hold, ...more] = holdsSince(intents);
    expect(more).toEqual([]);
    expect(hold?.status).toBe('requires_capture');
    expect(await attemptsInFlight()).toBe(1);

    // Within its grace the attempt is left to its request.
    await harness.services.useCases.runDueWork('payment_recovery');
    expect(stripe.object(String(hold?.id))?.status).toBe('requires_capture');
    clock.advance(RECOVERY_GRACE_MS + 1_000);
    await harness.services.useCases.runDueWork('payment_recovery');
    expect(stripe.object(String(hold?.id))).toMatchObject({ status: 'canceled', amount_received: 0 });
    expect(holdsSince(intents)).toHaveLength(1);
    expect(await attemptsInFlight()).toBe(0);
    expect(await snapshot(subscriptionId, customerId)).toEqual(before);

    // A second run finds nothing to do; the retry charges once.
    await harness.services.useCases.runDueWork('payment_recovery');
    expect(await outcomeOf(upgrade(subscriptionId, 'prevent_change'))).toBe('applied');
    await stripe.settled();
    const received = holdsSince(intents).reduce((sum, intent) => sum + Number(intent.amount_received), 0);
    const [charge] = (await live.get(`/transactions?subscription_id=${subscriptionId}&origin=subscription_update`))
      .list;
    expect(charge?.status).toBe('completed');
    expect(received).toBe(Number((charge?.details as WireObject & { totals: WireObject }).totals.grand_total));
  });

  it('Stripe answering 500 before acting: nothing changes and nothing is held or charged', async () => {
    const { subscriptionId, customerId } = await subscribed();
    const before = await snapshot(subscriptionId, customerId);
    const intents = stripe.objects('pi_').length;
    const clear = stripe.fault('server_error', CREATE_INTENT);
    expect(await outcomeOf(upgrade(subscriptionId, 'prevent_change'))).toBe('subscription_payment_unconfirmed');
    clear();
    expect(stripe.objects('pi_')).toHaveLength(intents);
    expect(await snapshot(subscriptionId, customerId)).toEqual(before);
    // Recovery asks with the same key: Stripe saved nothing under it, so it acts now, and the hold is released.
    clock.advance(RECOVERY_GRACE_MS + 1_000);
    await harness.services.useCases.runDueWork('payment_recovery');
    expect(await attemptsInFlight()).toBe(0);
    expectEvery(holdsSince(intents), (intent) => intent.status === 'canceled' && intent.amount_received === 0, {
      what: 'holds',
    });
    expect(await snapshot(subscriptionId, customerId)).toEqual(before);
  });

  /**
   * How many times Stripe captured an intent's money (its `charge.captured` events). Requests are
   * not counted: the client may send one again after a closed keep-alive socket, under the same
   * key, and Stripe replays it.
   */
  function capturesOf(intentId: string): number {
    return stripe
      .objects('evt_')
      .filter(
        (event) =>
          event.type === 'charge.captured' &&
          ((event.data as WireObject).object as WireObject).payment_intent === intentId,
      ).length;
  }

  it('a capture that fails after the commit: the change stands, and recovery captures once, and only once', async () => {
    const { subscriptionId } = await subscribed();
    // Stripe refuses every capture before acting (500): as if the process died right after the commit.
    const clear = stripe.fault('server_error', CAPTURE);
    expect(await outcomeOf(upgrade(subscriptionId, 'prevent_change'))).toBe('applied');
    expect(clear()).toBe(2); // one ask to capture, sent twice
    const [charge] = (await live.get(`/transactions?subscription_id=${subscriptionId}&origin=subscription_update`))
      .list;
    expect(charge?.status).toBe('ready');
    const [intent, ...more] = intentsFor(String(charge?.id));
    expect(more).toEqual([]);
    expect(intent?.status).toBe('requires_capture');
    // The automatic charge of the renewals worker leaves a transaction with an attempt in flight alone.
    await harness.services.useCases.runDueWork('renewals');
    expect(intentsFor(String(charge?.id))).toHaveLength(1);

    clock.advance(RECOVERY_GRACE_MS + 1_000);
    await harness.services.useCases.runDueWork('payment_recovery');
    await harness.services.useCases.runDueWork('payment_recovery');
    await stripe.settled();
    const settled = (await live.get(`/transactions/${String(charge?.id)}`)).entity;
    expect(settled.status).toBe('completed');
    expect(settled.payments).toEqual([expect.objectContaining({ status: 'captured' })]);
    const total = Number((settled.details as WireObject & { totals: WireObject }).totals.grand_total);
    expect(stripe.object(String(intent?.id))).toMatchObject({ status: 'succeeded', amount_received: total });
    expect(capturesOf(String(intent?.id))).toBe(1);
    expect((await live.get(`/subscriptions/${subscriptionId}`)).entity.status).toBe('active');
  });

  it('a capture whose answer is lost: Stripe’s webhook completes the payment and recovery captures nothing more', async () => {
    const { subscriptionId } = await subscribed();
    const clear = stripe.fault('lose_answer', CAPTURE);
    expect(await outcomeOf(upgrade(subscriptionId, 'prevent_change'))).toBe('applied');
    clear();
    await stripe.settled();
    const [charge] = (await live.get(`/transactions?subscription_id=${subscriptionId}&origin=subscription_update`))
      .list;
    const [intent] = intentsFor(String(charge?.id));
    expect(charge?.status).toBe('completed');
    expect(charge?.payments).toEqual([expect.objectContaining({ status: 'captured' })]);
    expect(capturesOf(String(intent?.id))).toBe(1);
    clock.advance(RECOVERY_GRACE_MS + 1_000);
    await harness.services.useCases.runDueWork('payment_recovery');
    expect(capturesOf(String(intent?.id))).toBe(1);
    expect(stripe.object(String(intent?.id))).toMatchObject({
      status: 'succeeded',
      amount_received: Number((charge?.details as WireObject & { totals: WireObject }).totals.grand_total),
    });
  });

  it('a crash between a checkout intent’s creation and the storing of its reference: recovery releases it', async () => {
    const { transactionId, email } = await readyTransaction();
    const detailed = await checkoutDetails(transactionId, email);
    const submission = () => ({
      submissionKey: randomBytes(12).toString('hex'),
      expectedAmount: detailed.transaction.details.totals.balance,
      saveMethod: false,
    });
    const started = await harness.services.useCases.startBrowserCheckout('live', transactionId, submission());
    // What a crash right after Stripe's answer leaves: the intent at Stripe, the attempt without its reference.
    const attempt = await harness.services.store.paymentAttempts.findById(scope(), started.attemptId);
    if (!attempt) throw new Error('no attempt');
    const reference = String(attempt.providerPaymentRef);
    await harness.services.store.paymentAttempts.update(scope(), { ...attempt, providerPaymentRef: null });
    expect(await outcomeOf(harness.services.useCases.startBrowserCheckout('live', transactionId, submission()))).toBe(
      'transaction_payment_in_progress',
    );

    clock.advance(RECOVERY_GRACE_MS + 1_000);
    await harness.services.useCases.runDueWork('payment_recovery');
    // Canceled at Stripe first, then ended `canceled` (ADR 1468).
    expect((await harness.services.store.paymentAttempts.findById(scope(), started.attemptId))?.status).toBe(
      'canceled',
    );
    expect(stripe.object(reference)).toMatchObject({ status: 'canceled', amount_received: 0 });
    // The checkout takes a new payment, with a new intent.
    const again = await harness.services.useCases.startBrowserCheckout('live', transactionId, submission());
    expect(again.attemptId).not.toBe(started.attemptId);
    expect(intentsFor(transactionId)).toHaveLength(2);
  });

  it.each([
    { when: 'within the day Stripe keeps keys', pruned: false, searchFails: false },
    { when: 'after Stripe pruned the key (24 hours)', pruned: true, searchFails: false },
    { when: 'by its key while Stripe’s search fails (within the day)', pruned: false, searchFails: true },
  ])('a crash between a renewal charge’s creation and the storing of its reference: recovery finds it $when, charged once', async ({
    pruned,
    searchFails,
  }) => {
    const { subscriptionId, customerId } = await subscribed();
    const webhooks = `${harness.liveUrl}/payment-providers/stripe/webhooks/${harness.accountId}`;
    // No webhook can settle it, and no answer reaches Drawdown: what a process dying right after
    // Stripe charged leaves (the attempt in flight, without its reference).
    stripe.sendWebhooksTo(undefined);
    // The fault lasts until the in-flight check below: the service's own scheduler may have taken
    // the renewal's charge first, and its repeats under the key must not get through before then.
    // Only this customer's charges are lost: earlier tests' subscriptions renew at the same jump,
    // and each lost charge costs the Stripe client's retry back-off (about a second).
    const clear = stripe.fault(
      'lose_answer',
      CREATE_INTENT,
      'POST',
      (params) => (params.metadata as Record<string, string> | undefined)?.drawdown_customer_id === customerId,
    );
    let renewal: WireObject | undefined;
    let charged: WireObject | undefined;
    try {
      const before = (await live.get(`/subscriptions/${subscriptionId}`)).entity;
      const endsAt = Date.parse(String((before.current_billing_period as WireObject).ends_at));
      clock.advance(Math.max(0, endsAt - clock.now()) + 60_000);
      await harness.services.useCases.runDueWork('renewals');
      // Whichever scheduler took it, the renewal exists and Stripe made its charge.
      const seen = await eventually(
        async () => {
          const [open] = (
            await live.get(`/transactions?subscription_id=${subscriptionId}&origin=subscription_recurring`)
          ).list.filter((transaction) => transaction.status !== 'completed');
          return { open, intents: open ? intentsFor(String(open.id)) : [] };
        },
        ({ intents }) => intents.length > 0,
        'the renewal and its charge at Stripe',
      );
      renewal = seen.open;
      expect(renewal?.status).toBe('ready');
      expect(seen.intents).toHaveLength(1);
      [charged] = seen.intents;
      expect(charged?.status).toBe('succeeded');
      // The charge is asked once plus the client's one network retry (`stripeNetworkRetries: 1`), each
      // answer lost. The retry sleeps in the Stripe client for up to a second first: wait until it has
      // reached Stripe too, while the fault holds, or it could land after the key is forgotten below
      // and make a second intent that no real retry could (Stripe keeps keys for a day).
      await eventually(
        async () =>
          stripe.requests.filter(
            (request) =>
              request.method === 'POST' &&
              CREATE_INTENT.test(request.path) &&
              (request.params.metadata as Record<string, string> | undefined)?.drawdown_transaction_id ===
                String(renewal?.id),
          ).length,
        (sent) => sent >= 2,
        'the renewal charge and its retry at Stripe',
      );
      // The symptom of issue 14: every later attempt is refused while this one is in flight.
      expect(await outcomeOf(harness.services.useCases.chargeSavedMethod(await caller(), String(renewal?.id)))).toBe(
        'transaction_payment_in_progress',
      );
    } finally {
      clear();
    }
    await stripe.settled();
    // A repeat under a pruned key would act again: only the search by the attempt's metadata,
    // which recovery does first, keeps it from charging the renewal a second time.
    if (pruned) stripe.forgetIdempotencyKeys();
    const searched = stripe.searches.length;

    clock.advance(RECOVERY_GRACE_MS + 1_000);
    const clearSearch = searchFails ? stripe.fault('server_error', /^\/v1\/payment_intents\/search$/, 'GET') : () => 0;
    try {
      await harness.services.useCases.runDueWork('payment_recovery');
    } finally {
      if (searchFails) expect(clearSearch()).toBeGreaterThan(0);
    }
    stripe.sendWebhooksTo(webhooks);
    // (Every renewal in flight is looked for, whichever subscription it renews.)
    if (!searchFails) expect(stripe.searches.length).toBeGreaterThan(searched);
    const settled = (await live.get(`/transactions/${String(renewal?.id)}`)).entity;
    expect(settled.status).toBe('completed');
    expect(settled.payments).toEqual([expect.objectContaining({ status: 'captured' })]);
    // Stripe answered the replay with the first charge: still one PaymentIntent, charged once.
    expect(intentsFor(String(renewal?.id))).toHaveLength(1);
    expect(stripe.object(String(charged?.id))).toMatchObject({
      amount_received: Number((settled.details as WireObject & { totals: WireObject }).totals.grand_total),
    });
  });
});
