/**
 * A subscription discount from now (ADR 1013), and the subscription's discount on immediate
 * change charges, through the official SDK on both engines, on a frozen wall clock so every
 * amount is computed by hand.
 *
 * A monthly price A = 3000 USD bought on 1 March 2026 (period 1 March → 1 April, 31 days); the
 * changes are made on 16 March, with 16 of 31 days left. A prorated line takes 16/31 of its
 * whole-period amount and 16/31 of its whole-period discount, each rounded once, half to even:
 * 16/31 of 3000 is 1548.387… → 1548; of 750 (25 %), 387.09… → 387; of 300 (10 %), 154.83… → 155;
 * of 500 (flat), 258.06… → 258. The buyer is in the US with no tax set up, so tax is 0.
 */
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, type WireObject } from '../support/api-client.js';
import { createProduct } from '../support/catalogue-fixtures.js';
import { type ChangeWorld, DAY_SECONDS, frozenClock, newChangeWorld, roundHalfEven } from './change-fixtures.js';

const CHANGE_AT = '2026-03-16T00:00:00.000Z';
const MONTH_END = 16 * DAY_SECONDS + 60;

function totals(transaction: WireObject | undefined): Record<string, string> {
  return (transaction?.details as { totals: Record<string, string> }).totals;
}

function lines(transaction: WireObject | undefined): [unknown, unknown, unknown, unknown][] {
  return (transaction?.details as { line_items: WireObject[] }).line_items.map((line) => [
    line.price_id,
    line.quantity,
    (line.totals as WireObject).discount,
    (line.totals as WireObject).total,
  ]);
}

/** The events in `after` that `before` did not hold (a multiset difference: the list's order does not matter). */
function added(before: readonly string[], after: readonly string[]): string[] {
  const left = [...before];
  return after.filter((type) => {
    const index = left.indexOf(type);
    if (index === -1) return true;
    left.splice(index, 1);
    return false;
  });
}

const instant = (value: unknown) => new Date(Date.parse(String(value))).toISOString();

/** The amounts of a transaction that a payment does not move. */
const amounts = ({ balance: _b, fee: _f, earnings: _e, ...rest }: Record<string, string>) => rest;

describe.each(ENGINES)('%s: subscription discounts from now, and on immediate charges', (engine) => {
  let harness: BillingHarness;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine, clock: frozenClock });
  });
  afterAll(() => harness.close());

  async function world(body: WireObject = {}): Promise<ChangeWorld & { monthly: string; subscriptionId: string }> {
    const base = await newChangeWorld(harness);
    const monthly = await base.price('3000');
    const subscriptionId = await base.subscribe([{ priceId: monthly, quantity: 1 }], body);
    await base.advance(15 * DAY_SECONDS);
    return { ...base, monthly, subscriptionId };
  }

  const subscription = async (w: ChangeWorld, id: string) => (await w.api.get(`/subscriptions/${id}`)).entity;
  const eventTypes = async (w: ChangeWorld) =>
    (await w.api.get('/events?per_page=200')).list.map((event) => String(event.event_type));

  it('hand-checks the arithmetic the tests rely on', () => {
    expect(roundHalfEven(3000n * 16n, 31n)).toBe(1548n);
    expect(roundHalfEven(750n * 16n, 31n)).toBe(387n);
    expect(roundHalfEven(300n * 16n, 31n)).toBe(155n);
    expect(roundHalfEven(500n * 16n, 31n)).toBe(258n);
  });

  it('immediately with a prorated upgrade: the change’s charge takes it, the current period is its first interval', async () => {
    const w = await world();
    const discount = await w.paddle.discounts.create({
      description: 'Two periods at 25% off',
      type: 'percentage',
      amount: '25',
      recur: true,
      maximumRecurringIntervals: 2,
    });
    const request = {
      items: [{ priceId: w.monthly, quantity: 2 }],
      prorationBillingMode: 'prorated_immediately' as const,
      discount: { id: discount.id, effectiveFrom: 'immediately' as const },
    };
    const before = await subscription(w, w.subscriptionId);
    const eventsBefore = await eventTypes(w);

    const preview = await w.paddle.subscriptions.previewUpdate(w.subscriptionId, request);
    // +1 × 3000 × 16/31 = 1548, less 25 % of the whole period's 3000 × 16/31 = 387.
    expect(preview.immediateTransaction?.details.totals).toMatchObject({
      subtotal: '1548',
      discount: '387',
      total: '1161',
    });
    expect(preview.discount?.id).toBe(discount.id);
    // The 1 April renewal is the discount's second and last interval: 2 × 3000 less 25 %.
    expect(preview.nextTransaction?.details.totals).toMatchObject({
      subtotal: '6000',
      discount: '1500',
      total: '4500',
    });
    expect(preview.recurringTransactionDetails?.totals).toMatchObject({ discount: '1500', total: '4500' });
    // The preview wrote nothing: no redemption, no event, the subscription as it was.
    expect(await subscription(w, w.subscriptionId)).toEqual(before);
    expect((await w.paddle.discounts.get(discount.id)).timesUsed).toBe(0);
    expect(await eventTypes(w)).toEqual(eventsBefore);

    const wirePreview = await w.api.patch(`/subscriptions/${w.subscriptionId}/preview`, {
      items: [{ price_id: w.monthly, quantity: 2 }],
      proration_billing_mode: 'prorated_immediately',
      discount: { id: discount.id, effective_from: 'immediately' },
    });
    expect(wirePreview.status, wirePreview.text).toBe(200);
    const previewed = wirePreview.entity.immediate_transaction as WireObject;

    const updated = await w.paddle.subscriptions.update(w.subscriptionId, request);
    expect(updated.discount?.id).toBe(discount.id);
    expect(instant(updated.discount?.startsAt)).toBe(CHANGE_AT);
    expect((await w.paddle.discounts.get(discount.id)).timesUsed).toBe(1);
    const [change, ...others] = await w.transactionsOf(w.subscriptionId, 'subscription_update');
    expect(others).toHaveLength(0);
    expect(change).toMatchObject({ status: 'completed', discount_id: discount.id });
    expect(lines(change)).toEqual([[w.monthly, 2 - 1, '387', '1161']]);
    expect(amounts(totals(change))).toEqual(amounts(totals(previewed)));
    const withoutIds = (items: WireObject[]) => items.map(({ id: _id, ...line }) => line);
    expect(withoutIds((change?.details as { line_items: WireObject[] }).line_items)).toEqual(
      withoutIds((previewed.details as { line_items: WireObject[] }).line_items),
    );
    const events = added(eventsBefore, await eventTypes(w));
    expect(events).toEqual(
      expect.arrayContaining([
        'discount.updated',
        'subscription.updated',
        'transaction.created',
        'transaction.completed',
      ]),
    );

    // 1 April: the second interval, as the preview said; then the discount is used up.
    await w.advance(MONTH_END);
    const [first] = await w.transactionsOf(w.subscriptionId, 'subscription_recurring');
    expect(totals(first)).toMatchObject({ discount: '1500', total: '4500' });
    expect((await subscription(w, w.subscriptionId)).discount).toBeNull();
    await w.advance(31 * DAY_SECONDS);
    const [, second] = await w.transactionsOf(w.subscriptionId, 'subscription_recurring');
    expect(totals(second)).toMatchObject({ discount: '0', total: '6000' });
  });

  it('a checkout discount takes its share of a billing-cycle change’s charge and credit (ADR 1008)', async () => {
    const base = await newChangeWorld(harness);
    const discount = await base.paddle.discounts.create({
      description: '10% off for good',
      type: 'percentage',
      amount: '10',
      recur: true,
    });
    const monthly = await base.price('3000');
    const yearly = await base.price('30000', { billing_cycle: { interval: 'year', frequency: 1 } });
    const subscriptionId = await base.subscribe([{ priceId: monthly, quantity: 1 }], { discount_id: discount.id });
    await base.advance(15 * DAY_SECONDS);
    const request = {
      items: [{ priceId: yearly, quantity: 1 }],
      prorationBillingMode: 'prorated_immediately' as const,
    };

    const preview = await base.paddle.subscriptions.previewUpdate(subscriptionId, request);
    await base.paddle.subscriptions.update(subscriptionId, request);
    const [change] = await base.transactionsOf(subscriptionId, 'subscription_update');
    // The unused 16/31 of the month paid at 2700 comes back at the discounted rate: −1548 + 155;
    // the year is charged at 30000 less 3000.
    expect(lines(change)).toEqual([
      [monthly, -1, '-155', '-1393'],
      [yearly, 1, '3000', '27000'],
    ]);
    expect(totals(change)).toMatchObject({ subtotal: '28452', discount: '2845', total: '25607' });
    expect(change?.discount_id).toBe(discount.id);
    // The preview showed exactly this charge.
    expect(preview.immediateTransaction?.details.totals).toMatchObject({
      subtotal: '28452',
      discount: '2845',
      total: '25607',
    });
    expect(preview.immediateTransaction?.details.lineItems.map((line) => line.totals.discount)).toEqual([
      '-155',
      '3000',
    ]);
    // A change's charge is not a redemption: the checkout's stays the only one.
    expect((await base.paddle.discounts.get(discount.id)).timesUsed).toBe(1);
  });

  it('a next-period change’s prorated line takes its share of the renewal’s discount, as its preview shows', async () => {
    const base = await newChangeWorld(harness);
    const discount = await base.paddle.discounts.create({
      description: '10% off for good',
      type: 'percentage',
      amount: '10',
      recur: true,
    });
    const monthly = await base.price('3000');
    const subscriptionId = await base.subscribe([{ priceId: monthly, quantity: 1 }], { discount_id: discount.id });
    await base.advance(15 * DAY_SECONDS);
    const request = {
      items: [{ priceId: monthly, quantity: 2 }],
      prorationBillingMode: 'prorated_next_billing_period' as const,
    };
    const preview = await base.paddle.subscriptions.previewUpdate(subscriptionId, request);
    // 1 April: 2 × 3000 less 600, and the +1 line's 1548 less 16/31 of 300 = 155.
    expect(preview.nextTransaction?.details.totals).toMatchObject({
      subtotal: '7548',
      discount: '755',
      total: '6793',
    });
    expect(preview.recurringTransactionDetails?.totals).toMatchObject({ discount: '600', total: '5400' });
    await base.paddle.subscriptions.update(subscriptionId, request);
    expect(await base.transactionsOf(subscriptionId, 'subscription_update')).toEqual([]);
    await base.advance(MONTH_END);
    const [renewal] = await base.transactionsOf(subscriptionId, 'subscription_recurring');
    expect(lines(renewal)).toEqual([
      [monthly, 2, '600', '5400'],
      [monthly, 1, '155', '1393'],
    ]);
    expect(totals(renewal)).toMatchObject({ subtotal: '7548', discount: '755', total: '6793' });
  });

  it('a one-time charge billed now takes the subscription’s discount, as its preview shows', async () => {
    const base = await newChangeWorld(harness);
    const discount = await base.paddle.discounts.create({
      description: '10% off for good',
      type: 'percentage',
      amount: '10',
      recur: true,
    });
    const monthly = await base.price('3000');
    const setup = await base.api.post('/prices', {
      product_id: await createProduct(base.api, { name: 'Onboarding' }),
      description: 'Onboarding session',
      unit_price: { amount: '1500', currency_code: 'USD' },
    });
    expect(setup.status, setup.text).toBe(201);
    const subscriptionId = await base.subscribe([{ priceId: monthly, quantity: 1 }], { discount_id: discount.id });
    const request = { effectiveFrom: 'immediately' as const, items: [{ priceId: setup.id, quantity: 2 }] };
    const preview = await base.paddle.subscriptions.previewOneTimeCharge(subscriptionId, request);
    // 2 × 1500 less 10 %: one-off lines are not prorated.
    expect(preview.immediateTransaction?.details.totals).toMatchObject({
      subtotal: '3000',
      discount: '300',
      total: '2700',
    });
    await base.paddle.subscriptions.createOneTimeCharge(subscriptionId, request);
    const [charge] = await base.transactionsOf(subscriptionId, 'subscription_charge');
    expect(charge).toMatchObject({ status: 'completed', discount_id: discount.id });
    expect(totals(charge)).toMatchObject({ subtotal: '3000', discount: '300', total: '2700' });
    expect((await base.paddle.discounts.get(discount.id)).timesUsed).toBe(1);
  });

  it('immediately with no immediate charge: the period still counts, and a later change in it takes the discount', async () => {
    const w = await world();
    const discount = await w.paddle.discounts.create({
      description: 'Five off for two periods',
      type: 'flat',
      amount: '500',
      currencyCode: 'USD',
      recur: true,
      maximumRecurringIntervals: 2,
    });
    const alone = { discount: { id: discount.id, effectiveFrom: 'immediately' as const } };
    const preview = await w.paddle.subscriptions.previewUpdate(w.subscriptionId, alone);
    expect(preview.immediateTransaction).toBeNull();
    expect(preview.nextTransaction?.details.totals).toMatchObject({ discount: '500', total: '2500' });
    await w.paddle.subscriptions.update(w.subscriptionId, alone);
    expect(await w.transactionsOf(w.subscriptionId, 'subscription_update')).toEqual([]);

    // do_not_bill bills nothing, discount or not.
    await w.paddle.subscriptions.update(w.subscriptionId, {
      items: [{ priceId: w.monthly, quantity: 2 }],
      prorationBillingMode: 'do_not_bill',
    });
    expect(await w.transactionsOf(w.subscriptionId, 'subscription_update')).toEqual([]);
    // A prorated change in the same period: +1 × 1548, less 16/31 of the period's 500 = 258.
    await w.paddle.subscriptions.update(w.subscriptionId, {
      items: [{ priceId: w.monthly, quantity: 3 }],
      prorationBillingMode: 'prorated_immediately',
    });
    const [change] = await w.transactionsOf(w.subscriptionId, 'subscription_update');
    expect(totals(change)).toMatchObject({ subtotal: '1548', discount: '258', total: '1290' });

    // 1 April is the second interval: 3 × 3000 − 500; then it is used up.
    await w.advance(MONTH_END);
    await w.advance(31 * DAY_SECONDS);
    const renewals = await w.transactionsOf(w.subscriptionId, 'subscription_recurring');
    expect(renewals.map((renewal) => [totals(renewal).discount, totals(renewal).total])).toEqual([
      ['500', '8500'],
      ['0', '9000'],
    ]);
  });

  it('next_billing_period: a discount not yet started does not touch a change’s charge; immediately starts it', async () => {
    const w = await world();
    const discount = await w.paddle.discounts.create({
      description: '25% off',
      type: 'percentage',
      amount: '25',
      recur: true,
    });
    await w.paddle.subscriptions.update(w.subscriptionId, {
      discount: { id: discount.id, effectiveFrom: 'next_billing_period' },
    });
    await w.paddle.subscriptions.update(w.subscriptionId, {
      items: [{ priceId: w.monthly, quantity: 2 }],
      prorationBillingMode: 'prorated_immediately',
    });
    const [undiscounted] = await w.transactionsOf(w.subscriptionId, 'subscription_update');
    expect(totals(undiscounted)).toMatchObject({ discount: '0', total: '1548' });

    // The same discount, now from now: no second redemption, and the next change takes it.
    const started = await w.paddle.subscriptions.update(w.subscriptionId, {
      discount: { id: discount.id, effectiveFrom: 'immediately' },
      items: [{ priceId: w.monthly, quantity: 3 }],
      prorationBillingMode: 'prorated_immediately',
    });
    expect(instant(started.discount?.startsAt)).toBe(CHANGE_AT);
    expect((await w.paddle.discounts.get(discount.id)).timesUsed).toBe(1);
    const [, discounted] = await w.transactionsOf(w.subscriptionId, 'subscription_update');
    expect(totals(discounted)).toMatchObject({ discount: '387', total: '1161' });
  });

  it('refuses a discount it cannot apply, with a specific code, and changes nothing', async () => {
    const base = await newChangeWorld(harness);
    const expired = await base.paddle.discounts.create({
      description: 'Ends on 2 March',
      type: 'percentage',
      amount: '5',
      recur: true,
      expiresAt: '2026-03-02T00:00:00Z',
    });
    const monthly = await base.price('3000');
    const w = { ...base, monthly, subscriptionId: await base.subscribe([{ priceId: monthly, quantity: 1 }]) };
    await w.advance(15 * DAY_SECONDS);
    const other = await newChangeWorld(harness);
    const foreign = await other.paddle.discounts.create({
      description: 'Theirs',
      type: 'percentage',
      amount: '5',
      recur: true,
    });
    const euros = await w.paddle.discounts.create({
      description: 'Euros off',
      type: 'flat',
      amount: '500',
      currencyCode: 'EUR',
      recur: true,
    });
    const elsewhere = await w.paddle.discounts.create({
      description: 'For another product',
      type: 'percentage',
      amount: '5',
      recur: true,
      restrictTo: [await createProduct(w.api, { name: 'Other plan' })],
    });
    const once = await w.paddle.discounts.create({
      description: 'One use',
      type: 'percentage',
      amount: '5',
      recur: true,
      usageLimit: 1,
    });
    const archived = await w.paddle.discounts.create({
      description: 'Withdrawn',
      type: 'percentage',
      amount: '5',
      recur: true,
    });
    expect((await w.api.patch(`/discounts/${archived.id}`, { status: 'archived' })).status).toBe(200);
    const first = await w.subscribe([{ priceId: w.monthly, quantity: 1 }]);
    await w.paddle.subscriptions.update(first, { discount: { id: once.id, effectiveFrom: 'next_billing_period' } });

    const before = await subscription(w, w.subscriptionId);
    const eventsBefore = await eventTypes(w);
    const cases: [string, string, number][] = [
      [foreign.id, 'transaction_discount_not_found', 400],
      [expired.id, 'discount_expired', 400],
      [archived.id, 'entity_archived', 400],
      [euros.id, 'subscription_invalid_discount_currency', 400],
      [elsewhere.id, 'subscription_discount_not_valid_for_items', 400],
      [once.id, 'discount_usage_limit_exceeded', 400],
    ];
    for (const [id, code, status] of cases) {
      for (const path of [`/subscriptions/${w.subscriptionId}`, `/subscriptions/${w.subscriptionId}/preview`]) {
        expectError(
          await w.api.patch(path, {
            items: [{ price_id: w.monthly, quantity: 2 }],
            proration_billing_mode: 'prorated_immediately',
            discount: { id, effective_from: 'immediately' },
          }),
          status,
          code,
        );
      }
    }
    expect(await subscription(w, w.subscriptionId)).toEqual(before);
    expect(await w.transactionsOf(w.subscriptionId, 'subscription_update')).toEqual([]);
    expect(await eventTypes(w)).toEqual(eventsBefore);
    expect((await w.paddle.discounts.get(once.id)).timesUsed).toBe(1);
    expect((await w.paddle.discounts.get(euros.id)).timesUsed).toBe(0);
    expect((await w.paddle.discounts.get(elsewhere.id)).timesUsed).toBe(0);
  });

  it('refuses immediately on a trialing subscription, as the public API does', async () => {
    const w = await newChangeWorld(harness);
    const trial = await w.price('3000', { trial_period: { interval: 'day', frequency: 7 } });
    const subscriptionId = await w.subscribe([{ priceId: trial, quantity: 1 }]);
    expect((await subscription(w, subscriptionId)).status).toBe('trialing');
    const discount = await w.paddle.discounts.create({
      description: 'Off',
      type: 'percentage',
      amount: '5',
      recur: true,
    });
    const before = await subscription(w, subscriptionId);
    expectError(
      await w.api.patch(`/subscriptions/${subscriptionId}`, {
        discount: { id: discount.id, effective_from: 'immediately' },
      }),
      400,
      'subscription_trialing_discount_update_invalid_options',
    );
    expect(await subscription(w, subscriptionId)).toEqual(before);
    expect((await w.paddle.discounts.get(discount.id)).timesUsed).toBe(0);
  });

  it('a resume that starts a new period bills it with the discount, counting one interval', async () => {
    const w = await newChangeWorld(harness);
    const monthly = await w.price('3000');
    const discount = await w.paddle.discounts.create({
      description: '10% off three months',
      type: 'percentage',
      amount: '10',
      recur: true,
      maximumRecurringIntervals: 3,
    });
    // The checkout is the first interval.
    const subscriptionId = await w.subscribe([{ priceId: monthly, quantity: 1 }], { discount_id: discount.id });
    expect((await w.api.post(`/subscriptions/${subscriptionId}/pause`, { effective_from: 'immediately' })).status).toBe(
      200,
    );
    await w.advance(5 * DAY_SECONDS);
    const resumed = await w.api.post(`/subscriptions/${subscriptionId}/resume`, {
      effective_from: 'immediately',
      on_resume: 'start_new_billing_period',
    });
    expect(resumed.status, resumed.text).toBe(200);
    const [newPeriod] = await w.transactionsOf(subscriptionId, 'subscription_recurring');
    // 10% of 3000 is 300: the new period is the second interval.
    expect(totals(newPeriod)).toMatchObject({ subtotal: '3000', discount: '300', total: '2700' });
    // The next renewal is the third and last; the one after is billed in full.
    await w.advance(31 * DAY_SECONDS);
    const [, third] = await w.transactionsOf(subscriptionId, 'subscription_recurring');
    expect(totals(third)).toMatchObject({ discount: '300', total: '2700' });
    expect((await subscription(w, subscriptionId)).discount).toBeNull();
  });

  it('activate bills the first period with the discount set for it, counting one interval', async () => {
    const w = await newChangeWorld(harness);
    const trial = await w.price('3000', { trial_period: { interval: 'day', frequency: 7 } });
    const subscriptionId = await w.subscribe([{ priceId: trial, quantity: 1 }]);
    const discount = await w.paddle.discounts.create({
      description: 'Two months at 5% off',
      type: 'percentage',
      amount: '5',
      recur: true,
      maximumRecurringIntervals: 2,
    });
    await w.paddle.subscriptions.update(subscriptionId, {
      discount: { id: discount.id, effectiveFrom: 'next_billing_period' },
    });
    await w.paddle.subscriptions.activate(subscriptionId);
    const [first] = await w.transactionsOf(subscriptionId, 'subscription_recurring');
    // 5% of 3000 is 150: the activation is the discount's first interval, as the trial's end would be.
    expect(totals(first)).toMatchObject({ subtotal: '3000', discount: '150', total: '2850' });
    expect((await subscription(w, subscriptionId)).discount).toMatchObject({ id: discount.id });
    // The next renewal is the second and last interval; the one after is billed in full.
    await w.advance(31 * DAY_SECONDS);
    const [, second] = await w.transactionsOf(subscriptionId, 'subscription_recurring');
    expect(totals(second)).toMatchObject({ discount: '150', total: '2850' });
    expect((await subscription(w, subscriptionId)).discount).toBeNull();
  });
});
