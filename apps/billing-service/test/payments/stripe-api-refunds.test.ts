/**
 * Refund adjustments made through the API reach Stripe (ADR 1463): the official SDK's
 * `adjustments.create` against a live account whose payments Stripe took, through the local
 * Stripe-format server. The Stripe client does not retry here (`stripeNetworkRetries: 0`), so
 * a lost answer fails at once and the recovery step is what settles it.
 */
import { ENGINES } from '@drawdown/testkit';
import type { Paddle } from '@paddle/paddle-node-sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient, WireObject } from '../support/api-client.js';
import { sdkRefusal } from '../support/official-sdk.js';
import type { FakeStripe } from '../support/stripe/fake-stripe-server.js';
import { eventually, SECRET_KEY, useLiveStripeAccount, WEBHOOK_SECRET } from '../support/stripe/live-stripe-account.js';

const ELEVEN_MINUTES_MS = 11 * 60_000;

describe.each(ENGINES)('%s: refund adjustments sent to Stripe', (engine) => {
  const account = useLiveStripeAccount(engine, { stripeNetworkRetries: 0 });
  const { transactionOf, subscribed, readyTransaction, pay } = account;
  let stripe: FakeStripe;
  let live: ApiClient;
  let paddle: Paddle;

  beforeAll(() => {
    ({ stripe, live, paddle } = account);
  });

  function intentOf(transactionId: string): string {
    const intent = stripe
      .objects('pi_')
      .find(
        (object) =>
          (object.metadata as Record<string, string>).drawdown_transaction_id === transactionId &&
          object.status === 'succeeded',
      );
    expect(intent).toBeDefined();
    return String(intent?.id);
  }

  function stripeRefundsOf(intentId: string) {
    return stripe.objects('re_').filter((refund) => refund.payment_intent === intentId);
  }

  function refundPostsFor(adjustmentId: string) {
    return stripe.requests.filter(
      (request) =>
        request.method === 'POST' &&
        request.path === '/v1/refunds' &&
        request.headers['idempotency-key'] === adjustmentId,
    );
  }

  async function totalOf(transactionId: string): Promise<string> {
    return String(((await transactionOf(transactionId)).details as { totals: { total: string } }).totals.total);
  }

  async function adjustedTotal(transactionId: string): Promise<string> {
    const transaction = await paddle.transactions.get(transactionId, { include: ['adjustments_totals'] as never });
    return String(transaction.adjustmentsTotals?.total);
  }

  async function adjustmentsOf(transactionId: string) {
    const adjustments = [];
    for await (const adjustment of paddle.adjustments.list({ transactionId: [transactionId] }))
      adjustments.push(adjustment);
    return adjustments;
  }

  /** The adjustment's events in order: [event type, its status]. */
  async function eventsOf(adjustmentId: string): Promise<string[][]> {
    const found: { at: string; entry: string[] }[] = [];
    for (const type of ['adjustment.created', 'adjustment.updated']) {
      for (const event of (await live.get(`/events?event_type=${type}&per_page=200`)).list) {
        const data = event.data as WireObject;
        if (data.id === adjustmentId) found.push({ at: String(event.event_id), entry: [type, String(data.status)] });
      }
    }
    return found.sort((a, b) => a.at.localeCompare(b.at)).map((item) => item.entry);
  }

  async function statusOf(adjustmentId: string, transactionId: string): Promise<string | undefined> {
    return (await adjustmentsOf(transactionId)).find((adjustment) => adjustment.id === adjustmentId)?.status;
  }

  /** A full refund of a new subscription's payment whose answer, and webhooks, never reach Drawdown: left pending. */
  async function refundWithLostAnswer(reason: string) {
    const { transactionId } = await subscribed();
    const intent = intentOf(transactionId);
    stripe.sendWebhooksTo(undefined);
    const clear = stripe.fault('lose_answer', /^\/v1\/refunds$/);
    let adjustment: Awaited<ReturnType<Paddle['adjustments']['create']>>;
    try {
      adjustment = await paddle.adjustments.create({ action: 'refund', transactionId, reason, type: 'full' });
    } finally {
      // (The client may retry a reset connection once itself: the same key, replayed and lost again.)
      expect(clear()).toBeGreaterThanOrEqual(1);
      stripe.sendWebhooksTo(account.webhookUrl);
    }
    expect(adjustment.status).toBe('pending_approval');
    return { transactionId, intent, adjustment };
  }

  it('refunds the whole payment at Stripe, keyed by the adjustment, and approves the adjustment once', async () => {
    const { transactionId } = await subscribed();
    const intent = intentOf(transactionId);
    const total = await totalOf(transactionId);
    const adjustment = await paddle.adjustments.create({
      action: 'refund',
      transactionId,
      reason: 'The customer asked',
      type: 'full',
    });
    expect(adjustment).toMatchObject({ action: 'refund', type: 'full', status: 'approved', transactionId });
    await stripe.settled();
    const refunds = stripeRefundsOf(intent);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({
      amount: Number(total),
      status: 'succeeded',
      metadata: { drawdown_adjustment_id: adjustment.id },
    });
    expect(refundPostsFor(adjustment.id)).toHaveLength(1);
    expect(await eventsOf(adjustment.id)).toEqual([
      ['adjustment.created', 'pending_approval'],
      ['adjustment.updated', 'approved'],
    ]);
    expect(await adjustedTotal(transactionId)).toBe(total);
    // Stripe's `charge.refunded` echo is not recorded as a second refund.
    expect(await adjustmentsOf(transactionId)).toHaveLength(1);
  });

  it('sends a partial refund of one item of two for that amount', async () => {
    const product = await live.post('/products', { name: 'Seats', tax_category: 'standard' });
    const seats = await live.post('/prices', {
      product_id: product.id,
      description: 'Seats monthly',
      unit_price: { amount: '1000', currency_code: 'GBP' },
      billing_cycle: { interval: 'month', frequency: 1 },
    });
    const { transactionId, email } = await readyTransaction();
    const customerId = String((await transactionOf(transactionId)).customer_id);
    const addressId = String((await transactionOf(transactionId)).address_id);
    const two = await live.post('/transactions', {
      customer_id: customerId,
      address_id: addressId,
      items: [
        { price_id: account.priceId, quantity: 1 },
        { price_id: seats.id, quantity: 2 },
      ],
    });
    expect((await pay(two.id, email, 'pm_card_visa')).transaction.status).toBe('completed');
    await stripe.settled();
    const lines = ((await transactionOf(two.id)).details as { line_items: WireObject[] }).line_items;
    const seatLine = lines.find((line) => line.price_id === seats.id);
    const adjustment = await paddle.adjustments.create({
      action: 'refund',
      transactionId: two.id,
      reason: 'One seat was never used',
      items: [{ itemId: String(seatLine?.id), type: 'partial', amount: '1000' }],
    });
    expect(adjustment.status).toBe('approved');
    expect(stripeRefundsOf(intentOf(two.id)).map((refund) => refund.amount)).toEqual([1000]);
    expect(await adjustedTotal(two.id)).toBe('1000');
  });

  it('sends a transaction paid in two parts only what its Stripe payment can refund, and refuses the rest', async () => {
    const { transactionId } = await readyTransaction();
    const total = BigInt(await totalOf(transactionId));
    const reported = await live.post(`/transactions/${transactionId}/payments`, {
      amount: '500',
      method_type: 'bank_transfer',
      provider_reference: 'wire-refund-test',
    });
    expect(reported.status, reported.text).toBe(201);
    // The checkout's pay step for the balance left (its details step is closed once a payment exists).
    const paid = await account.harness.services.useCases.submitCheckout('live', transactionId, {
      submissionKey: `two-parts-${transactionId}`,
      expectedAmount: (total - 500n).toString(),
      method: { kind: 'token', token: 'pm_card_visa' },
      saveMethod: false,
      returnUrl: `${account.harness.liveUrl}/checkout/return`,
    });
    expect(paid.transaction.status).toBe('completed');
    await stripe.settled();
    const intent = intentOf(transactionId);
    expect(stripe.object(intent)?.amount).toBe(Number(total - 500n));
    const line = ((await transactionOf(transactionId)).details as { line_items: WireObject[] }).line_items[0];
    expect(
      await sdkRefusal(
        paddle.adjustments.create({ action: 'refund', transactionId, reason: 'All of it', type: 'full' }),
      ),
    ).toBe('adjustment_refund_spans_payments');
    expect(await adjustmentsOf(transactionId)).toHaveLength(0);
    expect(stripe.requests.filter((request) => request.path === '/v1/refunds' && request.method === 'POST')).toEqual(
      expect.not.arrayContaining([
        expect.objectContaining({ params: expect.objectContaining({ payment_intent: intent }) }),
      ]),
    );
    const adjustment = await paddle.adjustments.create({
      action: 'refund',
      transactionId,
      reason: 'What the card paid',
      items: [{ itemId: String(line?.id), type: 'partial', amount: String(total - 500n) }],
    });
    expect(adjustment.status).toBe('approved');
    expect(stripeRefundsOf(intent).map((refund) => refund.amount)).toEqual([Number(total - 500n)]);
  });

  it('records a refund of a transaction paid outside Stripe approved at once, as before, and asks Stripe nothing', async () => {
    const { transactionId } = await readyTransaction();
    const total = await totalOf(transactionId);
    const reported = await live.post(`/transactions/${transactionId}/payments`, {
      method_type: 'bank_transfer',
      provider_reference: 'wire-paid-outside',
    });
    expect(reported.entity.status, reported.text).toBe('completed');
    const posts = stripe.requests.filter((request) => request.path === '/v1/refunds').length;
    const adjustment = await paddle.adjustments.create({
      action: 'refund',
      transactionId,
      reason: 'Wired',
      type: 'full',
    });
    expect(adjustment.status).toBe('approved');
    expect(stripe.requests.filter((request) => request.path === '/v1/refunds')).toHaveLength(posts);
    expect(await eventsOf(adjustment.id)).toEqual([['adjustment.created', 'approved']]);
    expect(await adjustedTotal(transactionId)).toBe(total);
  });

  it('rejects the adjustment when Stripe refuses the refund, and moves no money', async () => {
    const { transactionId } = await subscribed();
    const intent = intentOf(transactionId);
    // Refunded in Stripe's dashboard, its webhook not delivered yet: Drawdown does not know.
    stripe.sendWebhooksTo(undefined);
    await stripe.refund(intent);
    stripe.sendWebhooksTo(account.webhookUrl);
    const adjustment = await paddle.adjustments.create({
      action: 'refund',
      transactionId,
      reason: 'Again',
      type: 'full',
    });
    expect(adjustment.status).toBe('rejected');
    expect(stripeRefundsOf(intent)).toHaveLength(1);
    expect(await eventsOf(adjustment.id)).toEqual([
      ['adjustment.created', 'pending_approval'],
      ['adjustment.updated', 'rejected'],
    ]);
    expect(await adjustedTotal(transactionId)).toBe('0');
  });

  it('waits for a refund Stripe keeps pending, refuses other adjustments meanwhile, and rejects it when it fails', async () => {
    const { transactionId } = await subscribed();
    const intent = intentOf(transactionId);
    stripe.holdRefunds(true);
    try {
      const adjustment = await paddle.adjustments.create({
        action: 'refund',
        transactionId,
        reason: 'Pending at the bank',
        type: 'full',
      });
      expect(adjustment.status).toBe('pending_approval');
      expect(
        await sdkRefusal(paddle.adjustments.create({ action: 'credit', transactionId, reason: 'x', type: 'full' })),
      ).toBe('adjustment_pending_refund_request');
      const [refund] = stripeRefundsOf(intent);
      await stripe.settleRefund(String(refund?.id), 'failed');
      await stripe.settled();
      expect(await statusOf(adjustment.id, transactionId)).toBe('rejected');
      expect(await adjustedTotal(transactionId)).toBe('0');
      // A replayed `refund.failed` changes nothing.
      const failed = stripe.objects('evt_').findLast((event) => event.type === 'refund.failed');
      expect(JSON.parse((await stripe.redeliver(String(failed?.id))).responseBody).data.outcome).toBe('duplicate');
      expect(await eventsOf(adjustment.id)).toEqual([
        ['adjustment.created', 'pending_approval'],
        ['adjustment.updated', 'rejected'],
      ]);
    } finally {
      stripe.holdRefunds(false);
    }
  });

  it('applies the webhook that arrives before Stripe answers, once; a replay and the answer change nothing', async () => {
    const { transactionId } = await subscribed();
    const intent = intentOf(transactionId);
    const total = await totalOf(transactionId);
    const delivered = () =>
      stripe.deliveries.find(
        (delivery) =>
          delivery.eventType === 'charge.refunded' &&
          (stripe.object(delivery.eventId)?.data as { object: WireObject }).object.payment_intent === intent,
      );
    const release = stripe.beforeAnswer(/^\/v1\/refunds$/, async () => {
      await eventually(
        async () => delivered(),
        (found) => found !== undefined,
        'the charge.refunded webhook',
      );
    });
    let adjustment: Awaited<ReturnType<Paddle['adjustments']['create']>>;
    try {
      adjustment = await paddle.adjustments.create({ action: 'refund', transactionId, reason: 'Race', type: 'full' });
    } finally {
      release();
    }
    expect(JSON.parse(delivered()?.responseBody ?? '{}').data.outcome).toBe('applied');
    expect(adjustment.status).toBe('approved');
    const replay = await stripe.redeliver(String(delivered()?.eventId));
    expect(JSON.parse(replay.responseBody).data.outcome).toBe('duplicate');
    const [refund] = stripeRefundsOf(intent);
    const updated = await stripe.sendEvent('refund.updated', refund as WireObject);
    expect(JSON.parse(updated.responseBody).data).toMatchObject({ kind: 'refund_updated', outcome: 'ignored' });
    expect(await eventsOf(adjustment.id)).toEqual([
      ['adjustment.created', 'pending_approval'],
      ['adjustment.updated', 'approved'],
    ]);
    expect(await adjustedTotal(transactionId)).toBe(total);
    expect(stripeRefundsOf(intent)).toHaveLength(1);
  });

  it('settles a refund whose answer was lost through the recovery step, without refunding twice', async () => {
    const { transactionId, intent, adjustment } = await refundWithLostAnswer('Lost');
    expect(stripeRefundsOf(intent)).toHaveLength(1);
    const asked = refundPostsFor(adjustment.id).length;
    const { harness, clock } = account;
    // Within the grace period a request may still be running: recovery leaves it.
    await harness.services.useCases.runDueWork('payment_recovery');
    expect(await statusOf(adjustment.id, transactionId)).toBe('pending_approval');
    clock.advance(ELEVEN_MINUTES_MS);
    await harness.services.useCases.runDueWork('payment_recovery');
    expect(await statusOf(adjustment.id, transactionId)).toBe('approved');
    // Found among the payment's refunds by its metadata: never asked for again.
    expect(refundPostsFor(adjustment.id)).toHaveLength(asked);
    expect(stripeRefundsOf(intent)).toHaveLength(1);
    expect(await eventsOf(adjustment.id)).toEqual([
      ['adjustment.created', 'pending_approval'],
      ['adjustment.updated', 'approved'],
    ]);
  });

  it('asks again with the same key when Stripe failed before acting, and refunds once', async () => {
    const { transactionId } = await subscribed();
    const intent = intentOf(transactionId);
    const clear = stripe.fault('server_error', /^\/v1\/refunds$/);
    let adjustment: Awaited<ReturnType<Paddle['adjustments']['create']>>;
    try {
      adjustment = await paddle.adjustments.create({ action: 'refund', transactionId, reason: '500', type: 'full' });
    } finally {
      clear();
    }
    expect(adjustment.status).toBe('pending_approval');
    expect(stripeRefundsOf(intent)).toHaveLength(0);
    const asked = refundPostsFor(adjustment.id).length;
    account.clock.advance(ELEVEN_MINUTES_MS);
    await account.harness.services.useCases.runDueWork('payment_recovery');
    expect(await statusOf(adjustment.id, transactionId)).toBe('approved');
    expect(stripeRefundsOf(intent)).toHaveLength(1);
    // Not found at Stripe, so asked again, with the same key (refundPostsFor counts that key's requests only). The
    // service's own payment-recovery worker runs on its schedule beside this explicit run and may ask once too, once
    // the clock has moved: both carry the key, and Stripe refunds once. Nothing else asks.
    expect(refundPostsFor(adjustment.id).length).toBeGreaterThan(asked);
    expect(refundPostsFor(adjustment.id).length).toBeLessThanOrEqual(asked + 2);
    await stripe.settled();
    expect(await adjustmentsOf(transactionId)).toHaveLength(1);
  });

  it('keeps the provider settings while a refund waits for its answer; forced away, the refund waits until they are back', async () => {
    const { transactionId, intent, adjustment } = await refundWithLostAnswer('Gone');
    const { harness, clock } = account;
    const useCases = harness.services.useCases;
    const refusal = await useCases.removePaymentProvider(harness.accountId).then(
      () => undefined,
      (error: { code?: string; message?: string }) => error,
    );
    expect(refusal?.code).toBe('payment_provider_work_in_flight');
    expect(refusal?.message).toContain(adjustment.id);
    expect(await useCases.showPaymentProvider(harness.accountId)).not.toBeNull();

    const forced = await useCases.removePaymentProvider(harness.accountId, { force: true });
    expect(forced.removed).toBe(true);
    expect(forced.leftInFlight?.refunds).toEqual({ ids: [adjustment.id], total: 1 });
    expect(await useCases.showPaymentProvider(harness.accountId)).toBeNull();
    // Past the grace period, with no provider to ask, recovery settles nothing and guesses nothing.
    clock.advance(ELEVEN_MINUTES_MS);
    const asked = refundPostsFor(adjustment.id).length;
    expect(await useCases.runDueWork('payment_recovery')).toBe(0);
    expect(await statusOf(adjustment.id, transactionId)).toBe('pending_approval');
    expect(refundPostsFor(adjustment.id)).toHaveLength(asked);

    // Set again, the next recovery run finds the refund Stripe made, and approves it once.
    await useCases.configurePaymentProvider(harness.accountId, {
      provider: 'stripe',
      secretKey: SECRET_KEY,
      webhookSecret: WEBHOOK_SECRET,
      apiBase: stripe.baseUrl,
    });
    await useCases.runDueWork('payment_recovery');
    expect(await statusOf(adjustment.id, transactionId)).toBe('approved');
    expect(stripeRefundsOf(intent)).toHaveLength(1);
    expect(refundPostsFor(adjustment.id)).toHaveLength(asked);
    // Nothing waits any more: removing needs no force (and the suite's later tests get it back).
    expect(await useCases.removePaymentProvider(harness.accountId)).toEqual({ removed: true, leftInFlight: null });
    await useCases.configurePaymentProvider(harness.accountId, {
      provider: 'stripe',
      secretKey: SECRET_KEY,
      webhookSecret: WEBHOOK_SECRET,
      apiBase: stripe.baseUrl,
    });
  });
});
