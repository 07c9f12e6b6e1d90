/**
 * Moving a subscription's billing date (`next_billed_at`; ADR 1006), through the official SDK on
 * both engines, on a frozen wall clock so every amount is computed by hand. A monthly price A =
 * 3000 USD (no tax) bought on 1 March 2026: its period is 1 March → 1 April (31 days), and the
 * period after it 1 April → 1 May (30 days). Changes are made on 16 March.
 *
 * - Later by 10 days (to 11 April): 10/30 of 3000 = 1000 exactly, charged.
 * - Sooner by 6 days (to 26 March): 6/31 of 3000 = 580.645… → 581 (half to even), credited.
 */
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, type WireObject } from '../support/api-client.js';
import { type ChangeWorld, DAY_SECONDS, frozenClock, newChangeWorld, roundHalfEven } from './change-fixtures.js';

const PERIOD_START = '2026-03-01T00:00:00.000Z';
const OLD_DATE = '2026-04-01T00:00:00.000Z';
const LATER = '2026-04-11T00:00:00.000Z';
const SOONER = '2026-03-26T00:00:00.000Z';

function totals(transaction: WireObject | undefined): Record<string, string> {
  return (transaction?.details as { totals: Record<string, string> }).totals;
}

function lineItems(transaction: WireObject | undefined): WireObject[] {
  return (transaction?.details as { line_items: WireObject[] }).line_items;
}

const instant = (value: unknown) => new Date(Date.parse(String(value))).toISOString();

describe.each(ENGINES)('%s: moving the billing date', (engine) => {
  let harness: BillingHarness;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine, clock: frozenClock });
  });
  afterAll(() => harness.close());

  async function world(): Promise<ChangeWorld & { priceA: string; subscriptionId: string }> {
    const base = await newChangeWorld(harness);
    const priceA = await base.price('3000');
    const subscriptionId = await base.subscribe([{ priceId: priceA, quantity: 1 }]);
    await base.advance(15 * DAY_SECONDS);
    return { ...base, priceA, subscriptionId };
  }

  it('hand-checks the arithmetic the tests rely on', () => {
    expect(roundHalfEven(3000n * 10n, 30n)).toBe(1000n);
    expect(roundHalfEven(3000n * 6n, 31n)).toBe(581n);
  });

  it('prorated_immediately, later: charges the added time now; the subscription then renews on the new day', async () => {
    const w = await world();
    const updated = await w.paddle.subscriptions.update(w.subscriptionId, {
      nextBilledAt: LATER,
      prorationBillingMode: 'prorated_immediately',
    });
    expect(instant(updated.nextBilledAt)).toBe(LATER);
    expect(instant(updated.currentBillingPeriod?.startsAt)).toBe(PERIOD_START);
    expect(instant(updated.currentBillingPeriod?.endsAt)).toBe(LATER);
    expect(instant(updated.items[0]?.nextBilledAt)).toBe(LATER);

    const [charge, ...rest] = await w.transactionsOf(w.subscriptionId, 'subscription_update');
    expect(rest).toHaveLength(0);
    expect(charge).toMatchObject({ status: 'completed', origin: 'subscription_update' });
    expect(totals(charge)).toMatchObject({ subtotal: '1000', total: '1000', grand_total: '1000' });
    const [line] = lineItems(charge);
    expect(line).toMatchObject({ price_id: w.priceA, quantity: 1, totals: { total: '1000' } });
    const proration = line?.proration as { rate: string; billing_period: { starts_at: string; ends_at: string } };
    expect(proration.rate).toBe('0.333333');
    expect(instant(proration.billing_period.starts_at)).toBe(OLD_DATE);
    expect(instant(proration.billing_period.ends_at)).toBe(LATER);

    // The old date passes without a renewal; the new one renews for a whole month from it.
    await w.advance(16 * DAY_SECONDS + 60);
    expect(await w.transactionsOf(w.subscriptionId, 'subscription_recurring')).toHaveLength(0);
    await w.advance(10 * DAY_SECONDS);
    const [renewal] = await w.transactionsOf(w.subscriptionId, 'subscription_recurring');
    expect(totals(renewal)).toMatchObject({ total: '3000' });
    const period = renewal?.billing_period as { starts_at: string; ends_at: string };
    expect([instant(period.starts_at), instant(period.ends_at)]).toEqual([LATER, '2026-05-11T00:00:00.000Z']);
    const renewed = await w.paddle.subscriptions.get(w.subscriptionId);
    expect(instant(renewed.nextBilledAt)).toBe('2026-05-11T00:00:00.000Z');
  });

  it('prorated_immediately, sooner: credits the removed time to the customer’s balance, which the renewal uses', async () => {
    const w = await world();
    await w.paddle.subscriptions.update(w.subscriptionId, {
      nextBilledAt: SOONER,
      prorationBillingMode: 'prorated_immediately',
    });
    const [credit] = await w.transactionsOf(w.subscriptionId, 'subscription_update');
    expect(lineItems(credit).map((line) => [line.quantity, (line.totals as WireObject).total])).toEqual([[-1, '-581']]);
    expect(totals(credit)).toMatchObject({ total: '-581', credit_to_balance: '581', grand_total: '0' });
    const [balance] = await w.paddle.customers.getCreditBalance(w.buyer.customerId);
    expect(balance?.balance).toEqual({ available: '581', reserved: '0', used: '0' });

    await w.advance(10 * DAY_SECONDS + 60);
    const [renewal] = await w.transactionsOf(w.subscriptionId, 'subscription_recurring');
    expect(totals(renewal)).toMatchObject({ total: '3000', credit: '581', grand_total: '2419' });
    const period = renewal?.billing_period as { starts_at: string; ends_at: string };
    expect([instant(period.starts_at), instant(period.ends_at)]).toEqual([SOONER, '2026-04-26T00:00:00.000Z']);
  });

  it('prorated_next_billing_period: bills the added time with the renewal on the new date', async () => {
    const w = await world();
    const preview = await w.api.patch(`/subscriptions/${w.subscriptionId}/preview`, {
      next_billed_at: LATER,
      proration_billing_mode: 'prorated_next_billing_period',
    });
    expect(preview.status, preview.text).toBe(200);
    expect(preview.entity.immediate_transaction).toBeNull();
    await w.paddle.subscriptions.update(w.subscriptionId, {
      nextBilledAt: LATER,
      prorationBillingMode: 'prorated_next_billing_period',
    });
    expect(await w.transactionsOf(w.subscriptionId, 'subscription_update')).toHaveLength(0);
    await w.advance(26 * DAY_SECONDS + 60);
    const [renewal] = await w.transactionsOf(w.subscriptionId, 'subscription_recurring');
    expect(lineItems(renewal).map((line) => (line.totals as WireObject).total)).toEqual(['3000', '1000']);
    expect(totals(renewal)).toMatchObject({ total: '4000' });
    const next = (preview.entity.next_transaction as { details: { totals: Record<string, string> } }).details.totals;
    expect(next.total).toBe('4000');
  });

  it('do_not_bill moves the date without a charge or a credit', async () => {
    const w = await world();
    const updated = await w.paddle.subscriptions.update(w.subscriptionId, {
      nextBilledAt: SOONER,
      prorationBillingMode: 'do_not_bill',
    });
    expect(instant(updated.nextBilledAt)).toBe(SOONER);
    expect(await w.transactionsOf(w.subscriptionId, 'subscription_update')).toHaveLength(0);
    expect(await w.paddle.customers.getCreditBalance(w.buyer.customerId)).toEqual([]);
  });

  it('a preview shows the charge the move would make and writes nothing', async () => {
    const w = await world();
    const before = (await w.api.get(`/subscriptions/${w.subscriptionId}`)).entity;
    const preview = await w.api.patch(`/subscriptions/${w.subscriptionId}/preview`, {
      next_billed_at: LATER,
      proration_billing_mode: 'prorated_immediately',
    });
    expect(preview.status, preview.text).toBe(200);
    expect(instant(preview.entity.next_billed_at)).toBe(LATER);
    const immediate = preview.entity.immediate_transaction as { details: { totals: Record<string, string> } };
    expect(immediate.details.totals.total).toBe('1000');
    expect((await w.api.get(`/subscriptions/${w.subscriptionId}`)).entity).toEqual(before);
    expect(await w.transactionsOf(w.subscriptionId, 'subscription_update')).toHaveLength(0);
  });

  it('refuses a date in the past, too far out, a full mode, no mode, or a move beside an item change; nothing changes', async () => {
    const w = await world();
    const path = `/subscriptions/${w.subscriptionId}`;
    const before = (await w.api.get(path)).entity;
    const cases: [WireObject, number, string][] = [
      [
        { next_billed_at: '2026-03-10T00:00:00Z', proration_billing_mode: 'do_not_bill' },
        400,
        'subscription_next_billed_at_not_future',
      ],
      [
        { next_billed_at: '2026-05-01T00:00:01Z', proration_billing_mode: 'do_not_bill' },
        400,
        'subscription_next_billed_at_too_far',
      ],
      [{ next_billed_at: LATER, proration_billing_mode: 'full_immediately' }, 400, 'invalid_field'],
      [{ next_billed_at: LATER }, 400, 'invalid_field'],
      [
        {
          next_billed_at: LATER,
          proration_billing_mode: 'do_not_bill',
          items: [{ price_id: w.priceA, quantity: 2 }],
        },
        400,
        'invalid_field',
      ],
      [{ next_billed_at: 'next tuesday', proration_billing_mode: 'do_not_bill' }, 400, 'invalid_field'],
    ];
    for (const [body, status, code] of cases) expectError(await w.api.patch(path, body), status, code);
    // The furthest allowed date, the end of the period after the current one, is accepted.
    const furthest = await w.api.patch(`${path}/preview`, {
      next_billed_at: '2026-05-01T00:00:00Z',
      proration_billing_mode: 'do_not_bill',
    });
    expect(furthest.status, furthest.text).toBe(200);
    expect((await w.api.get(path)).entity).toEqual(before);
    expect(await w.transactionsOf(w.subscriptionId, 'subscription_update')).toHaveLength(0);
  });

  it('refuses a move while a change is scheduled, until it is removed', async () => {
    const w = await world();
    const path = `/subscriptions/${w.subscriptionId}`;
    expect((await w.api.post(`${path}/cancel`, { effective_from: 'next_billing_period' })).status).toBe(200);
    expectError(
      await w.api.patch(path, { next_billed_at: LATER, proration_billing_mode: 'do_not_bill' }),
      409,
      'subscription_scheduled_change_pending',
    );
    expect((await w.api.patch(path, { scheduled_change: null })).status).toBe(200);
    expect((await w.api.patch(path, { next_billed_at: LATER, proration_billing_mode: 'do_not_bill' })).status).toBe(
      200,
    );
  });

  it('a trialing subscription moves its trial end with do_not_bill only, and is charged at the new end', async () => {
    const w = await world();
    const trialPrice = await w.price('2500', { trial_period: { interval: 'day', frequency: 7 } });
    const subscriptionId = await w.subscribe([{ priceId: trialPrice, quantity: 1 }]);
    const trial = await w.paddle.subscriptions.get(subscriptionId);
    expect(trial.status).toBe('trialing');
    const trialEnd = Date.parse(String(trial.nextBilledAt));
    const extended = new Date(trialEnd + 3 * DAY_SECONDS * 1000).toISOString();
    expectError(
      await w.api.patch(`/subscriptions/${subscriptionId}`, {
        next_billed_at: extended,
        proration_billing_mode: 'prorated_immediately',
      }),
      400,
      'invalid_field',
    );
    const moved = await w.paddle.subscriptions.update(subscriptionId, {
      nextBilledAt: extended,
      prorationBillingMode: 'do_not_bill',
    });
    expect(moved.status).toBe('trialing');
    expect(instant(moved.items[0]?.trialDates?.endsAt)).toBe(extended);
    expect(await w.transactionsOf(subscriptionId, 'subscription_update')).toHaveLength(0);

    await w.advance(7 * DAY_SECONDS + 60);
    expect((await w.paddle.subscriptions.get(subscriptionId)).status).toBe('trialing');
    await w.advance(3 * DAY_SECONDS);
    const activated = await w.paddle.subscriptions.get(subscriptionId);
    expect(activated.status).toBe('active');
    const [first] = await w.transactionsOf(subscriptionId, 'subscription_recurring');
    expect(totals(first)).toMatchObject({ total: '2500' });
    const period = first?.billing_period as { starts_at: string };
    expect(instant(period.starts_at)).toBe(extended);
  });
});
