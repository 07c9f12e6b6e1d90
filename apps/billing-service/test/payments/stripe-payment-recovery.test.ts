/**
 * Payment recovery (dunning, ADR 1460) in live, through Stripe: a real billing service whose
 * account is configured with Stripe pointed at the local Stripe-format server. A declined renewal
 * is retried by the scheduler on the documented schedule through the one off-session charge path,
 * each retry a new PaymentIntent keyed by its attempt (a retry whose answer is lost is sent again
 * under the same idempotency key and makes one intent; concurrent schedulers take it once); the
 * customer paying through the checkout stops the retries; a retry the card's issuer approves
 * pays the renewal and revives the subscription; the 30-day end waits while a retry's answer is
 * still missing, and Stripe's late answer then revives the subscription; a run that recovers
 * nothing cancels the subscription after 30 days. Both engines, read back through the official SDK.
 */
import { randomBytes } from 'node:crypto';
import { formatMinorUnits } from '@drawdown/billing-core';
import { type BillingHarness, ENGINES, expectEvery } from '@drawdown/testkit';
import type { Paddle } from '@paddle/paddle-node-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReceivedMail, type SmtpInbox, startSmtpInbox } from '../email/smtp-inbox.js';
import type { FakeStripe } from '../support/stripe/fake-stripe-server.js';
import { DAY_MS, eventually, useLiveStripeAccount } from '../support/stripe/live-stripe-account.js';

/** A real SMTP server on loopback: the customer is told of each declined attempt by email (ADR 1500). */
let inbox: SmtpInbox;
beforeAll(async () => {
  inbox = await startSmtpInbox();
});
afterAll(() => inbox?.close());

describe.each(ENGINES)('%s: payment recovery through Stripe', (engine) => {
  // One Stripe client retry (the default is two): still a repeat under the attempt's key for the
  // lost answers below, with one back-off to wait out instead of two.
  const account = useLiveStripeAccount(engine, { stripeNetworkRetries: 1, smtpUrl: () => inbox.url });
  const { clock, pay, transactionOf, subscriptionOf, subscribed, renew } = account;
  let harness: BillingHarness;
  let stripe: FakeStripe;
  let paddle: Paddle;

  beforeAll(() => {
    ({ harness, stripe, paddle } = account);
  });

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

  it('a retry the issuer approves pays the renewal, revives the subscription, and ends the schedule', async () => {
    const { subscriptionId, renewalId } = await declinedRenewal();
    const [declinedIntent] = intentsOf(renewalId);
    stripe.issuerApproves(String(declinedIntent?.payment_method));
    await retriesAfter(1, renewalId, 2);
    const renewal = await paddle.transactions.get(renewalId);
    expect(renewal.status).toBe('completed');
    expect(renewal.payments.map((payment) => payment.status)).toEqual(['error', 'captured']);
    const [, paidIntent] = intentsOf(renewalId);
    expect(paidIntent).toMatchObject({ status: 'succeeded', payment_method: declinedIntent?.payment_method });
    expect(String(paidIntent?.amount_received)).toBe(renewal.details?.totals?.grandTotal);
    expect((await paddle.subscriptions.get(subscriptionId)).status).toBe('active');
    // The run ended with the payment: the later steps of the schedule (3, 5 and 8 days) charge nothing.
    for (const days of [2, 2, 3]) await retriesAfter(days, renewalId, 2);
    expect(intentsOf(renewalId)).toHaveLength(2);
  });

  it('the 30-day end waits for a retry still in flight; when Stripe’s answer comes, the subscription lives', async () => {
    const { subscriptionId, renewalId } = await declinedRenewal();
    let payments = 1;
    for (const days of [1, 2, 2, 3, 4, 6]) {
      payments += 1;
      await retriesAfter(days, renewalId, payments);
    }
    // The last retry (25 days after the first decline) succeeds at Stripe, but no answer comes
    // back: neither to the request (nor to its repeats under the same key) nor as a webhook, and
    // Stripe's search cannot find it yet either (ADR 1466).
    const [first] = intentsOf(renewalId);
    stripe.issuerApproves(String(first?.payment_method));
    stripe.sendWebhooksTo(undefined);
    const clearSearch = stripe.fault('server_error', /^\/v1\/payment_intents\/search$/, 'GET');
    const clearFault = stripe.fault('lose_answer', /^\/v1\/payment_intents$/);
    try {
      clock.advance(7 * DAY_MS + 60_000);
      await harness.services.useCases.runDueWork('payment_retries');
      expect(intentsOf(renewalId)).toHaveLength(payments + 1);
      expect(intentsOf(renewalId).at(-1)?.status).toBe('succeeded');
      // The window ends (30 days after the first decline) with that retry still in flight; the
      // recovery step asks Stripe again and hears nothing. Nothing is canceled.
      clock.advance(6 * DAY_MS);
      await harness.services.useCases.runDueWork('payment_retries');
      await harness.services.useCases.runDueWork('payment_recovery');
      await harness.services.useCases.runDueWork('payment_retries');
      expect((await paddle.subscriptions.get(subscriptionId)).status).toBe('past_due');
      expect((await paddle.transactions.get(renewalId)).status).toBe('past_due');
    } finally {
      clearFault();
      // The search failed on every recovery run: reads fail too until now.
      expect(clearSearch()).toBeGreaterThan(0);
      stripe.sendWebhooksTo(account.webhookUrl);
    }
    // Stripe answers at last (the recovery step finds the retry by its metadata): the renewal is
    // paid and the subscription active, and the schedule's end cancels nothing afterwards.
    await harness.services.useCases.runDueWork('payment_recovery');
    await eventually(
      () => paddle.subscriptions.get(subscriptionId),
      (subscription) => subscription.status === 'active',
      'the subscription to be active again',
    );
    const renewal = await paddle.transactions.get(renewalId);
    expect(renewal.status).toBe('completed');
    expect(renewal.payments.at(-1)?.status).toBe('captured');
    await harness.services.useCases.runDueWork('payment_retries');
    expect((await paddle.subscriptions.get(subscriptionId)).status).toBe('active');
    expect(intentsOf(renewalId)).toHaveLength(payments + 1);
  });

  it(
    'cancels the subscription and its renewal 30 days after the first decline when no retry succeeded, the customer told by email at each attempt',
    { timeout: 60_000 },
    async () => {
      const { subscriptionId, renewalId, email } = await declinedRenewal();
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
      // The customer received, over SMTP, one failed-payment email per declined attempt (the first
      // decline and seven retries), each with the amount, the next try on the schedule counted from
      // the first decline (none after the last) and the link to pay with another card; then past due and canceled.
      const received = (subject: RegExp) =>
        inbox.to(email).filter((item) => subject.test(item.mail.subject ?? '')) as ReceivedMail[];
      // The last emails are written as the run ends: wait for them as the inbox does (15 s at most).
      const deadline = Date.now() + 15_000;
      while (received(/ canceled$/).length === 0 || received(/^Your payment to Test account failed$/).length < 8) {
        if (Date.now() > deadline) throw new Error('the failed-payment and canceled emails did not all arrive');
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      const failed = received(/^Your payment to Test account failed$/);
      expect(failed).toHaveLength(8);
      expect(new Set(failed.map((item) => item.mail.messageId)).size).toBe(8);
      const owed = formatMinorUnits(BigInt(renewal.details?.totals?.grandTotal ?? '0'), 'GBP', 'en');
      expectEvery(failed, (item) => String(item.mail.text).includes(`payment of ${owed}`), { atLeast: 8 });
      expectEvery(
        failed,
        // Without a configured portal the link is the renewal's own checkout, where the customer pays it (ADR 1503).
        (item) => String(item.mail.text).includes(`/checkout?_ptxn=${renewalId}`),
        { atLeast: 8 },
      );
      const jobs = (await account.live.get(`/emails?kind=payment_failed&customer_id=${renewal.customerId}&per_page=50`))
        .list;
      const startedAt = Math.min(...jobs.map((job) => Date.parse(String(job.created_at))));
      const longDate = (instant: number) =>
        new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(instant));
      const told = failed.map((item) => /We will try again on ([^.]+)\./.exec(String(item.mail.text))?.[1] ?? 'none');
      expect(told.sort()).toEqual(
        [...[1, 3, 5, 8, 12, 18, 25].map((days) => longDate(startedAt + days * DAY_MS)), 'none'].sort(),
      );
      expect(received(/ is past due$/)).toHaveLength(1);
      expect(received(/ canceled$/)).toHaveLength(1);
    },
  );
});
