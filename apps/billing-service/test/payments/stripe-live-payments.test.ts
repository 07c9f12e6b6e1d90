/**
 * Live payments through Stripe, end to end: a real billing service whose account is configured
 * with Stripe (ADR 1420) pointed at the local Stripe-format server, which sends its webhooks
 * back to the account's live webhook route. Checkout, a 3-D Secure checkout settled by the
 * webhook, an off-session renewal, a card update through a SetupIntent, a declined renewal
 * leading to `past_due`, a dispute becoming a chargeback, webhook replays, bad signatures and
 * unknown payments, on both engines.
 */
import { randomBytes } from 'node:crypto';
import { type BillingHarness, ENGINES, expectEvery } from '@drawdown/testkit';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, apiClient, type WireObject } from '../support/api-client.js';
import { type FakeStripe, stripeSignature } from '../support/stripe/fake-stripe-server.js';
import { SECRET_KEY, useLiveStripeAccount, WEBHOOK_SECRET } from '../support/stripe/live-stripe-account.js';

describe.each(ENGINES)('%s: live payments through Stripe', (engine) => {
  const account = useLiveStripeAccount(engine);
  const { clock, readyTransaction, pay, transactionOf, subscriptionOf, subscribed, renew } = account;
  let harness: BillingHarness;
  let stripe: FakeStripe;
  let live: ApiClient;

  beforeAll(() => {
    ({ harness, stripe, live } = account);
  });

  it('pays a checkout through a PaymentIntent, saves the card and starts the subscription', async () => {
    const { transactionId, subscriptionId } = await subscribed();
    const transaction = await transactionOf(transactionId);
    const payments = transaction.payments as WireObject[];
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({
      status: 'captured',
      amount: (transaction.details as { totals: { grand_total: string } }).totals.grand_total,
      method_details: { type: 'card', card: { type: 'visa', last4: '4242' } },
    });
    expect(String(payments[0]?.payment_method_id)).toMatch(/^paymtd_/);
    expect((await subscriptionOf(subscriptionId)).status).toBe('active');
    const intent = stripe
      .objects('pi_')
      .find((object) => (object.metadata as Record<string, string>).drawdown_transaction_id === transactionId);
    expect(intent).toMatchObject({ status: 'succeeded', setup_future_usage: 'off_session', currency: 'gbp' });
    // Stripe's webhook for the same payment races the checkout's own answer: whichever applies
    // first wins (`applied`), the other changes nothing (`ignored`): one payment either way.
    const event = stripe
      .objects('evt_')
      .find(
        (candidate) =>
          candidate.type === 'payment_intent.succeeded' &&
          (candidate.data as { object: { id: string } }).object.id === intent?.id,
      );
    const delivery = stripe.deliveries.find((d) => d.eventId === event?.id);
    expect(delivery?.status).toBe(200);
    expect(['applied', 'ignored']).toContain(JSON.parse(delivery?.responseBody ?? '{}').data.outcome);
    expect((await transactionOf(transactionId)).payments).toHaveLength(1);
  });

  it('a replayed webhook is acknowledged as a duplicate and pays nothing twice', async () => {
    const { transactionId } = await readyTransaction();
    const { email } = {
      email: String((await live.get(`/customers/${(await transactionOf(transactionId)).customer_id}`)).entity.email),
    };
    const view = await pay(transactionId, email, 'pm_card_authenticationRequired');
    expect(view.transaction.status).toBe('ready');
    const intent = stripe
      .objects('pi_')
      .find((object) => (object.metadata as Record<string, string>).drawdown_transaction_id === transactionId);
    // The customer passes 3-D Secure; only Stripe's webhook tells Drawdown.
    await stripe.authenticate(String(intent?.id), 'pass');
    await stripe.settled();
    const succeeded = stripe
      .objects('evt_')
      .find(
        (event) =>
          event.type === 'payment_intent.succeeded' &&
          (event.data as { object: { id: string } }).object.id === intent?.id,
      );
    const first = stripe.deliveries.find((delivery) => delivery.eventId === succeeded?.id);
    expect(first?.status).toBe(200);
    expect(JSON.parse(first?.responseBody ?? '{}').data).toMatchObject({
      kind: 'payment_succeeded',
      outcome: 'applied',
    });
    const paid = await transactionOf(transactionId);
    expect(paid.status).toBe('completed');
    expect(String(paid.subscription_id)).toMatch(/^sub_/);

    const replay = await stripe.redeliver(String(succeeded?.id));
    expect(replay.status).toBe(200);
    expect(JSON.parse(replay.responseBody).data).toMatchObject({ outcome: 'duplicate' });
    const after = await transactionOf(transactionId);
    expect(after.payments).toHaveLength(1);
    expect(after.updated_at).toBe(paid.updated_at);
    const completedEvents = (await live.get('/events?event_type=transaction.completed&per_page=200')).list.filter(
      (event) => (event.data as WireObject).id === transactionId,
    );
    expect(completedEvents).toHaveLength(1);
  });

  it('charges a renewal off-session with the saved card', async () => {
    const { subscriptionId } = await subscribed();
    const [renewal] = await renew(subscriptionId);
    expect(renewal?.status).toBe('completed');
    expect(renewal?.payments).toEqual([
      expect.objectContaining({ status: 'captured', method_details: expect.objectContaining({ type: 'card' }) }),
    ]);
    const offSession = stripe.requests.filter(
      (request) => request.path === '/v1/payment_intents' && request.params.off_session === 'true',
    );
    expect(
      offSession.some((request) => (request.params.metadata as WireObject).drawdown_transaction_id === renewal?.id),
    ).toBe(true);
    expect((await subscriptionOf(subscriptionId)).status).toBe('active');
  });

  it('updates the card through a SetupIntent, then a declined renewal makes the subscription past due', async () => {
    const { subscriptionId, email } = await subscribed();
    const change = await harness.services.useCases.getPaymentMethodChangeTransaction(
      {
        account: await harness.services.useCases.requireAccount(harness.accountId),
        scope: { accountId: harness.accountId, environment: 'live' },
      },
      subscriptionId,
    );
    const updated = await pay(change.id, email, 'pm_card_chargeCustomerFail');
    expect(updated.transaction.status).toBe('completed');
    const setup = stripe
      .objects('seti_')
      .find((object) => (object.metadata as Record<string, string>).drawdown_transaction_id === change.id);
    expect(setup).toMatchObject({ status: 'succeeded', usage: 'off_session' });
    // The card saved through the SetupIntent is now the subscription's.
    const scope = { accountId: harness.accountId, environment: 'live' as const };
    const stored = await harness.services.store.subscriptions.findById(scope, subscriptionId);
    const method = await harness.services.store.paymentMethods.findById(
      scope,
      String(stored?.internal.paymentMethodId),
    );
    expect(method?.internal).toMatchObject({ provider: 'stripe', providerMethodRef: setup?.payment_method });
    expect(method?.card).toMatchObject({ last4: '0341' });

    const [renewal] = await renew(subscriptionId);
    expect(renewal?.status).toBe('past_due');
    expect(renewal?.payments).toEqual([expect.objectContaining({ status: 'error', error_code: 'declined' })]);
    expect((await subscriptionOf(subscriptionId)).status).toBe('past_due');
    // Stripe's payment_failed webhook for that attempt arrives too, and changes nothing more.
    await stripe.settled();
    expectEvery(
      stripe.deliveries.filter((d) => d.eventType === 'payment_intent.payment_failed'),
      (d) => d.status === 200,
      { what: 'payment_failed deliveries' },
    );
    expect((await transactionOf(String(renewal?.id))).payments).toHaveLength(1);

    // One charge path, one rule (ADR 1425): the automatic charge never comes back to a past-due
    // renewal; a requested retry charges it through the same path, once at a time.
    // Counted for this renewal only: the service's own due-work worker may meanwhile renew (and charge)
    // the subscriptions of earlier tests, whose periods the moved clock has ended too.
    const intentsOf = (transactionId: unknown) =>
      stripe
        .objects('pi_')
        .filter((intent) => (intent.metadata as Record<string, string>).drawdown_transaction_id === transactionId);
    expect(intentsOf(renewal?.id)).toHaveLength(1);
    await harness.services.useCases.runDueWork('renewals');
    expect(intentsOf(renewal?.id)).toHaveLength(1);
    const caller = {
      account: await harness.services.useCases.requireAccount(harness.accountId),
      scope: { accountId: harness.accountId, environment: 'live' as const },
    };
    const retried = await harness.services.useCases.chargeSavedMethod(caller, String(renewal?.id));
    expect(retried.status).toBe('past_due');
    expect(retried.payments.map((payment) => payment.errorCode)).toEqual(['declined', 'declined']);
    expect(intentsOf(renewal?.id)).toHaveLength(2);
    await stripe.settled();
    expect((await transactionOf(String(renewal?.id))).payments).toHaveLength(2);
  });

  it('a renewal whose answer never arrives is settled by Stripe’s webhook: declined, past due', async () => {
    const { subscriptionId, email } = await subscribed();
    const change = await harness.services.useCases.getPaymentMethodChangeTransaction(
      {
        account: await harness.services.useCases.requireAccount(harness.accountId),
        scope: { accountId: harness.accountId, environment: 'live' },
      },
      subscriptionId,
    );
    // A card Stripe refuses to set up leaves the update payable; the customer tries another.
    const refused = await pay(change.id, email, 'pm_card_chargeDeclinedInsufficientFunds');
    expect(refused.attempt).toMatchObject({ status: 'declined', errorCode: 'not_enough_balance' });
    expect(refused.transaction.status).toBe('ready');
    // This one attaches, but every charge of it declines.
    expect((await pay(change.id, email, 'pm_card_chargeCustomerFail')).transaction.status).toBe('completed');
    // Every try of the client loses its answer: Drawdown never hears back, only the webhook tells.
    stripe.loseAnswers(10);
    const [renewal] = await renew(subscriptionId);
    expect(renewal?.status).toBe('past_due');
    expect(renewal?.payments).toEqual([expect.objectContaining({ status: 'error', error_code: 'declined' })]);
    expect((await subscriptionOf(subscriptionId)).status).toBe('past_due');
    // One PaymentIntent for the renewal, however many tries: the attempt id is the idempotency key.
    const intents = stripe
      .objects('pi_')
      .filter((intent) => (intent.metadata as Record<string, string>).drawdown_transaction_id === renewal?.id);
    expect(intents).toHaveLength(1);
  });

  it('records a dispute as a chargeback adjustment, once', async () => {
    const { transactionId } = await subscribed();
    const intent = stripe
      .objects('pi_')
      .find((object) => (object.metadata as Record<string, string>).drawdown_transaction_id === transactionId);
    await stripe.dispute(String(intent?.id));
    await stripe.settled();
    const disputeEvent = stripe.objects('evt_').findLast((event) => event.type === 'charge.dispute.created');
    expect(
      JSON.parse(stripe.deliveries.find((d) => d.eventId === disputeEvent?.id)?.responseBody ?? '{}').data,
    ).toMatchObject({
      kind: 'payment_disputed',
      outcome: 'applied',
    });
    await stripe.redeliver(String(disputeEvent?.id));
    // A second dispute of the same payment finds nothing left to charge back.
    await stripe.dispute(String(intent?.id), 'duplicate');
    await stripe.settled();
    const second = stripe.objects('evt_').findLast((event) => event.type === 'charge.dispute.created');
    expect(second?.id).not.toBe(disputeEvent?.id);
    expect(
      JSON.parse(stripe.deliveries.find((d) => d.eventId === second?.id)?.responseBody ?? '{}').data,
    ).toMatchObject({
      outcome: 'ignored',
    });
    const adjustments = (await live.get(`/adjustments?transaction_id=${transactionId}`)).list;
    expect(adjustments).toHaveLength(1);
    expect(adjustments[0]).toMatchObject({ action: 'chargeback', type: 'full', status: 'approved' });
  });

  it('two deliveries of one event at the same moment apply it once', async () => {
    const { transactionId } = await subscribed();
    const intent = stripe
      .objects('pi_')
      .find((object) => (object.metadata as Record<string, string>).drawdown_transaction_id === transactionId);
    const body = JSON.stringify({
      id: `evt_concurrent${randomBytes(8).toString('hex')}`,
      object: 'event',
      api_version: '2026-10-28.endive',
      created: Math.floor(clock.now() / 1000),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type: 'charge.dispute.created',
      data: {
        object: {
          id: `du_${randomBytes(8).toString('hex')}`,
          object: 'dispute',
          amount: intent?.amount,
          currency: 'gbp',
          charge: intent?.latest_charge,
          payment_intent: intent?.id,
          reason: 'product_not_received',
          status: 'needs_response',
        },
      },
    });
    const signature = stripeSignature(body, WEBHOOK_SECRET, Math.floor(clock.now() / 1000));
    const answers = await Promise.all([stripe.postRaw(body, signature), stripe.postRaw(body, signature)]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(answers.map((answer) => JSON.parse(answer.responseBody).data.outcome).sort()).toEqual([
      'applied',
      'duplicate',
    ]);
    expect((await live.get(`/adjustments?transaction_id=${transactionId}`)).list).toHaveLength(1);
  });

  it('refuses webhooks with a bad or stale signature, changing nothing', async () => {
    const { transactionId } = await readyTransaction();
    const body = JSON.stringify({
      id: 'evt_forged000000000000000001',
      object: 'event',
      type: 'payment_intent.succeeded',
      data: {
        object: {
          id: 'pi_forged',
          object: 'payment_intent',
          payment_method: null,
          metadata: { drawdown_transaction_id: transactionId },
        },
      },
    });
    const forged = await stripe.postRaw(body, stripeSignature(body, 'whsec_notTheAccountsSecret0001'));
    expect(forged.status).toBe(400);
    expect(JSON.parse(forged.responseBody).error.code).toBe('provider_notification_invalid');
    const stale = await stripe.postRaw(
      body,
      stripeSignature(body, WEBHOOK_SECRET, Math.floor(clock.now() / 1000) - 600),
    );
    expect(stale.status).toBe(400);
    expect(JSON.parse(stale.responseBody).error.code).toBe('provider_notification_invalid');
    const unsigned = await stripe.postRaw(body, undefined);
    expect(unsigned.status).toBe(400);
    expect((await transactionOf(transactionId)).status).toBe('ready');

    const otherAccount = await harness.createAccount({ earlyAccess: false });
    const elsewhere = await fetch(`${harness.liveUrl}/payment-providers/stripe/webhooks/${otherAccount}`, {
      method: 'POST',
      headers: { 'stripe-signature': stripeSignature(body, WEBHOOK_SECRET) },
      body,
    });
    expect(elsewhere.status).toBe(404);
    const onSandbox = await fetch(`${harness.sandboxUrl}/payment-providers/stripe/webhooks/${harness.accountId}`, {
      method: 'POST',
      headers: { 'stripe-signature': stripeSignature(body, WEBHOOK_SECRET) },
      body,
    });
    expect(onSandbox.status).toBe(403);
  });

  it('acknowledges and ignores a webhook for a payment this account never started', async () => {
    const method = stripe.objects('pm_')[0];
    const delivery = await stripe.sendEvent('payment_intent.succeeded', {
      id: 'pi_notDrawdowns000000000001',
      object: 'payment_intent',
      amount: 999,
      currency: 'gbp',
      status: 'succeeded',
      payment_method: method?.id,
      metadata: {},
    });
    expect(delivery.status).toBe(200);
    expect(JSON.parse(delivery.responseBody).data).toMatchObject({
      kind: 'payment_succeeded',
      outcome: 'unknown_payment',
    });
    // A payment method Stripe no longer has does not make the webhook fail (and Stripe retry it forever).
    const gone = await stripe.sendEvent('payment_intent.succeeded', {
      id: 'pi_notDrawdowns000000000002',
      object: 'payment_intent',
      amount: 999,
      currency: 'gbp',
      status: 'succeeded',
      payment_method: 'pm_deletedSince0000000001',
      metadata: {},
    });
    expect(JSON.parse(gone.responseBody).data).toMatchObject({ outcome: 'unknown_payment' });
    const ignored = await stripe.sendEvent('customer.created', { id: 'cus_x', object: 'customer' });
    expect(JSON.parse(ignored.responseBody).data).toMatchObject({ kind: 'ignored', outcome: 'ignored' });
  });

  it('a webhook for another account’s payment, signed with this account’s secret, changes nothing here', async () => {
    const { transactionId } = await readyTransaction();
    const customerId = String((await transactionOf(transactionId)).customer_id);
    const email = String((await live.get(`/customers/${customerId}`)).entity.email);
    await pay(transactionId, email, 'pm_card_authenticationRequired');
    const intent = stripe
      .objects('pi_')
      .find((object) => (object.metadata as Record<string, string>).drawdown_transaction_id === transactionId);
    // A second account on the same Stripe account and signing secret receives the payment's webhook too.
    const other = await harness.createAccount({ earlyAccess: false });
    await harness.services.useCases.configurePaymentProvider(other, {
      provider: 'stripe',
      secretKey: SECRET_KEY,
      webhookSecret: WEBHOOK_SECRET,
      apiBase: stripe.baseUrl,
    });
    await stripe.authenticate(String(intent?.id), 'pass');
    await stripe.settled();
    const event = stripe
      .objects('evt_')
      .find(
        (candidate) =>
          candidate.type === 'payment_intent.succeeded' &&
          (candidate.data as { object: { id: string } }).object.id === intent?.id,
      );
    const body = JSON.stringify(event);
    const elsewhere = await fetch(`${harness.liveUrl}/payment-providers/stripe/webhooks/${other}`, {
      method: 'POST',
      headers: { 'stripe-signature': stripeSignature(body, WEBHOOK_SECRET, Math.floor(clock.now() / 1000)) },
      body,
    });
    expect(elsewhere.status).toBe(200);
    expect(((await elsewhere.json()) as { data: unknown }).data).toMatchObject({ outcome: 'unknown_payment' });
    // Here it applied once, from Stripe's own delivery.
    expect((await transactionOf(transactionId)).status).toBe('completed');
    expect((await transactionOf(transactionId)).payments).toHaveLength(1);
  });

  it('without a provider, live keeps the reported-payment route', async () => {
    const other = await harness.createAccount({ earlyAccess: false });
    const key = await harness.createKey({ environment: 'live', permissions: ['all'], accountId: other });
    const api = apiClient(harness.liveUrl, key);
    expect(await harness.services.useCases.showPaymentProvider(other)).toBeNull();
    const customer = await api.post('/customers', { email: 'no-provider@example.com' });
    const address = await api.post(`/customers/${customer.id}/addresses`, { country_code: 'GB' });
    const product = await api.post('/products', { name: 'One-off', tax_category: 'standard' });
    const price = await api.post('/prices', {
      product_id: product.id,
      description: 'One-off',
      unit_price: { amount: '500', currency_code: 'GBP' },
    });
    const transaction = await api.post('/transactions', {
      customer_id: customer.id,
      address_id: address.id,
      items: [{ price_id: price.id, quantity: 1 }],
    });
    await expect(pay(transaction.id, 'no-provider@example.com', 'pm_card_visa')).rejects.toMatchObject({
      code: 'checkout_provider_not_configured',
    });
    const paid = await api.post(`/transactions/${transaction.id}/payments`, {
      status: 'captured',
      method_type: 'card',
      provider_reference: 'reported-1',
    });
    expect(paid.entity.status).toBe('completed');
  });
});
