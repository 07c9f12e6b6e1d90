import { ENGINES, expectEvery } from '@drawdown/testkit';
import type { Paddle } from '@paddle/paddle-node-sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient, WireObject } from '../support/api-client.js';
import type { FakeStripe } from '../support/stripe/fake-stripe-server.js';
import { useLiveStripeAccount } from '../support/stripe/live-stripe-account.js';

describe.each(ENGINES)('%s: disputes, fraud warnings and dashboard refunds from Stripe', (engine) => {
  const account = useLiveStripeAccount(engine);
  const { transactionOf, subscribed } = account;
  let stripe: FakeStripe;
  let live: ApiClient;
  let paddle: Paddle;

  beforeAll(() => {
    ({ stripe, live, paddle } = account);
  });

  function intentOf(transactionId: string) {
    const intent = stripe
      .objects('pi_')
      .find((object) => (object.metadata as Record<string, string>).drawdown_transaction_id === transactionId);
    expect(intent?.status).toBe('succeeded');
    return String(intent?.id);
  }

  /** The answer Drawdown gave to the latest `charge.refunded` webhook, once every webhook is answered. */
  async function lastRefundAnswer(): Promise<{ eventId: string; answer: WireObject }> {
    await stripe.settled();
    const event = stripe.objects('evt_').findLast((candidate) => candidate.type === 'charge.refunded');
    const delivery = stripe.deliveries.findLast((d) => d.eventId === event?.id);
    expect(delivery?.status).toBe(200);
    return { eventId: String(event?.id), answer: JSON.parse(delivery?.responseBody ?? '{}').data };
  }

  async function refundsOf(transactionId: string) {
    const adjustments = [];
    for await (const adjustment of paddle.adjustments.list({ transactionId: [transactionId] }))
      adjustments.push(adjustment);
    return adjustments;
  }

  it('records a full refund once as an approved full refund adjustment; a replay adds nothing', async () => {
    const { transactionId } = await subscribed();
    const total = String(((await transactionOf(transactionId)).details as { totals: { total: string } }).totals.total);
    await stripe.refund(intentOf(transactionId));
    const { eventId, answer } = await lastRefundAnswer();
    expect(answer).toMatchObject({ kind: 'payment_refunded', outcome: 'applied' });
    const refunds = await refundsOf(transactionId);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ action: 'refund', type: 'full', status: 'approved', transactionId });
    expect(refunds[0]?.totals?.total).toBe(total);
    const replay = await stripe.redeliver(eventId);
    expect(JSON.parse(replay.responseBody ?? '{}').data.outcome).toBe('duplicate');
    expect(await refundsOf(transactionId)).toHaveLength(1);
    const events = await live.get('/events?event_type=adjustment.created&per_page=200');
    expect(events.list.filter((event) => (event.data as WireObject).transaction_id === transactionId)).toHaveLength(1);
  });

  it('records partial refunds as partial adjustments of their amounts, each once', async () => {
    const { transactionId } = await subscribed();
    const intent = intentOf(transactionId);
    await stripe.refund(intent, 500);
    expect((await lastRefundAnswer()).answer.outcome).toBe('applied');
    // The second event lists both refunds: only the new one is recorded.
    await stripe.refund(intent, 700);
    expect((await lastRefundAnswer()).answer.outcome).toBe('applied');
    const refunds = await refundsOf(transactionId);
    // (The list is newest first.)
    expect(refunds.map((refund) => [refund.type, refund.totals?.total]).reverse()).toEqual([
      ['partial', '500'],
      ['partial', '700'],
    ]);
    expectEvery(refunds, (refund) => refund.action === 'refund' && refund.status === 'approved', { atLeast: 2 });
  });

  it('ignores the echo of a refund Drawdown made itself', async () => {
    const { transactionId } = await subscribed();
    await stripe.refund(intentOf(transactionId), 300, { drawdown_adjustment_id: 'adj_01drawdownmadethisrefund0' });
    expect((await lastRefundAnswer()).answer).toMatchObject({ kind: 'payment_refunded', outcome: 'ignored' });
    expect(await refundsOf(transactionId)).toHaveLength(0);
  });

  it('answers a refund of a payment it never took as unknown, and changes nothing', async () => {
    const delivery = await stripe.sendEvent('charge.refunded', {
      id: 'ch_notDrawdowns000000000',
      object: 'charge',
      amount: 1000,
      amount_refunded: 1000,
      refunded: true,
      currency: 'gbp',
      payment_intent: 'pi_notDrawdowns000000000',
      metadata: {},
      status: 'succeeded',
    });
    expect(delivery.status).toBe(200);
    expect(JSON.parse(delivery.responseBody ?? '{}').data).toMatchObject({
      kind: 'payment_refunded',
      outcome: 'unknown_payment',
    });
  });
  /** The answer Drawdown gave to the latest webhook of `type`, once every webhook is answered. */
  async function lastAnswer(type: string): Promise<{ eventId: string; answer: WireObject }> {
    await stripe.settled();
    const event = stripe.objects('evt_').findLast((candidate) => candidate.type === type);
    const delivery = stripe.deliveries.findLast((d) => d.eventId === event?.id);
    expect(delivery?.status).toBe(200);
    return { eventId: String(event?.id), answer: JSON.parse(delivery?.responseBody ?? '{}').data };
  }

  async function adjustedTotal(transactionId: string): Promise<string> {
    const transaction = await paddle.transactions.get(transactionId, { include: ['adjustments_totals'] as never });
    return String(transaction.adjustmentsTotals?.total);
  }

  it('reverses the chargeback of a dispute the seller won, once', async () => {
    const { transactionId } = await subscribed();
    const intent = intentOf(transactionId);
    const total = String(((await transactionOf(transactionId)).details as { totals: { total: string } }).totals.total);
    const dispute = await stripe.dispute(intent);
    expect((await lastAnswer('charge.dispute.created')).answer.outcome).toBe('applied');
    expect(await adjustedTotal(transactionId)).toBe(total);
    await stripe.closeDispute(String(dispute.id), 'won');
    const { eventId, answer } = await lastAnswer('charge.dispute.closed');
    expect(answer).toMatchObject({ kind: 'dispute_closed', outcome: 'applied' });
    const adjustments = (await refundsOf(transactionId)).reverse();
    expect(adjustments.map((adjustment) => [adjustment.action, adjustment.totals?.total])).toEqual([
      ['chargeback', total],
      ['chargeback_reverse', total],
    ]);
    expect(await adjustedTotal(transactionId)).toBe('0');
    expect(JSON.parse((await stripe.redeliver(eventId)).responseBody ?? '{}').data.outcome).toBe('duplicate');
    expect(await refundsOf(transactionId)).toHaveLength(2);
  });

  it('adds nothing when the dispute is lost: the chargeback stands', async () => {
    const { transactionId } = await subscribed();
    const dispute = await stripe.dispute(intentOf(transactionId));
    await lastAnswer('charge.dispute.created');
    await stripe.closeDispute(String(dispute.id), 'lost');
    expect((await lastAnswer('charge.dispute.closed')).answer).toMatchObject({
      kind: 'dispute_closed',
      outcome: 'ignored',
    });
    expect((await refundsOf(transactionId)).map((adjustment) => adjustment.action)).toEqual(['chargeback']);
  });

  it('records an early fraud warning as a chargeback warning that moves no money, once', async () => {
    const { transactionId } = await subscribed();
    const total = String(((await transactionOf(transactionId)).details as { totals: { total: string } }).totals.total);
    await stripe.earlyFraudWarning(intentOf(transactionId));
    const { eventId, answer } = await lastAnswer('radar.early_fraud_warning.created');
    expect(answer).toMatchObject({ kind: 'fraud_warning', outcome: 'applied' });
    const adjustments = await refundsOf(transactionId);
    expect(adjustments).toHaveLength(1);
    expect(adjustments[0]).toMatchObject({ action: 'chargeback_warning', type: 'full', status: 'approved' });
    expect(adjustments[0]?.totals?.total).toBe(total);
    expect(await adjustedTotal(transactionId)).toBe('0');
    expect(JSON.parse((await stripe.redeliver(eventId)).responseBody ?? '{}').data.outcome).toBe('duplicate');
    expect(await refundsOf(transactionId)).toHaveLength(1);
    // The warning does not use up the transaction: the dispute that follows charges back in full.
    await stripe.dispute(intentOf(transactionId));
    expect((await lastAnswer('charge.dispute.created')).answer.outcome).toBe('applied');
    expect(await adjustedTotal(transactionId)).toBe(total);
  });
});
