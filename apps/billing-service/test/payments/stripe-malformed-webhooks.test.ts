/**
 * A Stripe webhook whose signature verifies with the account's signing secret but whose body is
 * not a Stripe event (`[]`, no `data`, `data.object: null`, not JSON, …) is refused with 400
 * `provider_notification_malformed` and logged with the reason, never answered 500, and changes
 * nothing: the same event id sent afterwards in the right shape is read as new (ADR 1482). The
 * bodies are signed as Stripe signs them and posted to the real service's live webhook route.
 */
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryLog } from '../support/memory-log.js';
import { type FakeStripe, startFakeStripe, stripeSignature } from '../support/stripe/fake-stripe-server.js';
import { SECRET_KEY, WEBHOOK_SECRET } from '../support/stripe/live-stripe-account.js';

const MALFORMED: readonly (readonly [string, string])[] = [
  ['an array', '[]'],
  ['null', 'null'],
  ['a string', '"payment_intent.succeeded"'],
  ['text that is not JSON', 'payment_intent.succeeded pi_123'],
  [
    'an event without data',
    JSON.stringify({ id: 'evt_malformed0001', object: 'event', type: 'payment_intent.succeeded' }),
  ],
  [
    'an event whose data.object is null',
    JSON.stringify({
      id: 'evt_malformed0002',
      object: 'event',
      type: 'payment_intent.succeeded',
      data: { object: null },
    }),
  ],
  [
    'an event whose data.object is an array',
    JSON.stringify({ id: 'evt_malformed0003', object: 'event', type: 'charge.refunded', data: { object: [] } }),
  ],
  [
    'an event without an id',
    JSON.stringify({ object: 'event', type: 'charge.dispute.created', data: { object: { id: 'dp_1' } } }),
  ],
  [
    'a succeeded PaymentIntent without its payment_method',
    JSON.stringify({
      id: 'evt_malformed0005',
      object: 'event',
      type: 'payment_intent.succeeded',
      data: { object: { id: 'pi_1', object: 'payment_intent', metadata: {} } },
    }),
  ],
  [
    'a succeeded SetupIntent without an id',
    JSON.stringify({
      id: 'evt_malformed0006',
      object: 'event',
      type: 'setup_intent.succeeded',
      data: { object: { object: 'setup_intent', payment_method: null } },
    }),
  ],
  ['an event without a type', JSON.stringify({ id: 'evt_malformed0004', object: 'event', data: { object: {} } })],
];

describe.each(ENGINES)('%s: signed Stripe webhooks that are not Stripe events', (engine) => {
  const log = memoryLog();
  let harness: BillingHarness;
  let stripe: FakeStripe;
  let webhookUrl: string;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine, logger: log.logger });
    stripe = await startFakeStripe({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET });
    await harness.services.useCases.configurePaymentProvider(harness.accountId, {
      provider: 'stripe',
      secretKey: SECRET_KEY,
      webhookSecret: WEBHOOK_SECRET,
      apiBase: stripe.baseUrl,
    });
    webhookUrl = `${harness.liveUrl}/payment-providers/stripe/webhooks/${harness.accountId}`;
  });
  afterAll(async () => {
    await stripe?.close();
    await harness?.close();
  });

  const post = (body: string) =>
    fetch(webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': stripeSignature(body, WEBHOOK_SECRET) },
      body,
    });

  it.each(MALFORMED)('refuses %s with 400 provider_notification_malformed, and logs it', async (_name, body) => {
    const response = await post(body);
    const answer = (await response.json()) as { error: { code: string; type: string; detail: string } };
    expect({ status: response.status, code: answer.error.code }).toEqual({
      status: 400,
      code: 'provider_notification_malformed',
    });
    expect(answer.error.type).toBe('request_error');
    const requestId = response.headers.get('request-id');
    const notice = log.lines.find((line) => line.requestId === requestId && String(line.msg).includes('malformed'));
    expect(notice).toMatchObject({
      level: 'warn',
      accountId: harness.accountId,
      provider: 'stripe',
      reason: answer.error.detail,
    });
    // Nothing failed unexpectedly on the way.
    expect(log.lines.filter((line) => line.level === 'error')).toEqual([]);
  });

  it('changes nothing: the same event id in Stripe’s shape is read afterwards as new', async () => {
    const refused = await post(
      JSON.stringify({
        id: 'evt_malformedThenFine',
        object: 'event',
        type: 'customer.created',
        data: { object: null },
      }),
    );
    expect(refused.status).toBe(400);
    const fine = await post(
      JSON.stringify({
        id: 'evt_malformedThenFine',
        object: 'event',
        type: 'customer.created',
        data: { object: { id: 'cus_1', object: 'customer' } },
      }),
    );
    expect(fine.status).toBe(200);
    expect(((await fine.json()) as { data: unknown }).data).toMatchObject({ kind: 'ignored', outcome: 'ignored' });
  });

  it('still refuses a body signed with another secret as provider_notification_invalid', async () => {
    const body = '[]';
    const response = await fetch(webhookUrl, {
      method: 'POST',
      headers: { 'stripe-signature': stripeSignature(body, 'whsec_notTheAccountsSecret0001') },
      body,
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('provider_notification_invalid');
  });
});
