/**
 * One-time charges through the official SDK, on both engines: a one-off price (1500 USD) charged
 * now in a `subscription_charge` transaction or with the next renewal, its preview computed by
 * the same code and written nowhere, and `on_payment_failure` as for item changes.
 */
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, type WireObject } from '../support/api-client.js';
import { createProduct } from '../support/catalogue-fixtures.js';
import { sdkRefusal } from '../support/official-sdk.js';
import { type ChangeWorld, DAY_SECONDS, frozenClock, newChangeWorld } from './change-fixtures.js';

function totals(transaction: WireObject | undefined): Record<string, string> {
  return (transaction?.details as { totals: Record<string, string> }).totals;
}

describe.each(ENGINES)('%s: one-time charges', (engine) => {
  let harness: BillingHarness;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine, clock: frozenClock });
  });
  afterAll(() => harness.close());

  async function world(): Promise<ChangeWorld & { plan: string; setup: string; subscriptionId: string }> {
    const base = await newChangeWorld(harness);
    const plan = await base.price('3000');
    const productId = await createProduct(base.api, { name: 'Onboarding' });
    const setup = await base.api.post('/prices', {
      product_id: productId,
      description: 'Onboarding session',
      unit_price: { amount: '1500', currency_code: 'USD' },
    });
    expect(setup.status, setup.text).toBe(201);
    const subscriptionId = await base.subscribe([{ priceId: plan, quantity: 1 }]);
    return { ...base, plan, setup: setup.id, subscriptionId };
  }

  it('charges one-off prices now, and its preview showed exactly that without writing anything', async () => {
    const w = await world();
    const request = { effectiveFrom: 'immediately' as const, items: [{ priceId: w.setup, quantity: 2 }] };
    const preview = await w.paddle.subscriptions.previewOneTimeCharge(w.subscriptionId, request);
    expect(preview.immediateTransaction?.details.totals).toMatchObject({ total: '3000', grandTotal: '3000' });
    expect(preview.updateSummary?.result).toMatchObject({ action: 'charge', amount: '3000' });
    expect(await w.transactionsOf(w.subscriptionId, 'subscription_charge')).toEqual([]);

    const subscription = await w.paddle.subscriptions.createOneTimeCharge(w.subscriptionId, request);
    expect(subscription.status).toBe('active');
    expect(subscription.items.map((item) => item.price.id)).toEqual([w.plan]);
    const [charge, ...more] = await w.transactionsOf(w.subscriptionId, 'subscription_charge');
    expect(more).toEqual([]);
    expect(charge).toMatchObject({ status: 'completed', origin: 'subscription_charge' });
    expect(totals(charge)).toMatchObject({ total: '3000', grand_total: '3000' });
    expect((charge?.details as { line_items: WireObject[] }).line_items).toEqual([
      expect.objectContaining({ price_id: w.setup, quantity: 2, proration: null }),
    ]);
  });

  it('effective_from next_billing_period adds the charge to the next renewal, once', async () => {
    const w = await world();
    await w.paddle.subscriptions.createOneTimeCharge(w.subscriptionId, {
      effectiveFrom: 'next_billing_period',
      items: [{ priceId: w.setup, quantity: 1 }],
    });
    expect(await w.transactionsOf(w.subscriptionId, 'subscription_charge')).toEqual([]);
    await w.advance(31 * DAY_SECONDS);
    const renewals = await w.transactionsOf(w.subscriptionId, 'subscription_recurring');
    expect(renewals.map((renewal) => totals(renewal).total)).toEqual(['4500']);
    await w.advance(30 * DAY_SECONDS);
    expect(
      (await w.transactionsOf(w.subscriptionId, 'subscription_recurring')).map((renewal) => totals(renewal).total),
    ).toEqual(['4500', '3000']);
  });

  it('refuses recurring and non-catalog prices; a declined charge with prevent_change writes nothing', async () => {
    const w = await world();
    expectError(
      await w.api.post(`/subscriptions/${w.subscriptionId}/charge`, {
        effective_from: 'immediately',
        items: [{ price_id: w.plan, quantity: 1 }],
      }),
      400,
      'subscription_charge_price_not_one_off',
    );
    // The public API's code for a charge naming a price twice (issue 36); nothing is charged or scheduled.
    const unchanged = (await w.api.get(`/subscriptions/${w.subscriptionId}`)).entity;
    for (const effectiveFrom of ['immediately', 'next_billing_period'] as const) {
      expect(
        await sdkRefusal(
          w.paddle.subscriptions.createOneTimeCharge(w.subscriptionId, {
            effectiveFrom,
            items: [
              { priceId: w.setup, quantity: 1 },
              { priceId: w.setup, quantity: 2 },
            ],
          }),
        ),
      ).toBe('subscription_charge_duplicate_price_ids');
    }
    expect((await w.api.get(`/subscriptions/${w.subscriptionId}`)).entity).toEqual(unchanged);
    expectError(
      await w.api.post(`/subscriptions/${w.subscriptionId}/charge`, {
        effective_from: 'immediately',
        items: [{ price: { description: 'x', unit_price: { amount: '1', currency_code: 'USD' } }, quantity: 1 }],
      }),
      400,
      'field_not_supported',
    );
    await w.api.request('PUT', '/sandbox-payment-outcome', { body: { outcome: 'failure' } });
    const before = (await w.api.get(`/subscriptions/${w.subscriptionId}`)).entity;
    expectError(
      await w.api.post(`/subscriptions/${w.subscriptionId}/charge`, {
        effective_from: 'immediately',
        items: [{ price_id: w.setup, quantity: 1 }],
      }),
      409,
      'subscription_payment_declined',
    );
    expect((await w.api.get(`/subscriptions/${w.subscriptionId}`)).entity).toEqual(before);
    expect(await w.transactionsOf(w.subscriptionId, 'subscription_charge')).toEqual([]);

    const applied = await w.paddle.subscriptions.createOneTimeCharge(w.subscriptionId, {
      effectiveFrom: 'immediately',
      items: [{ priceId: w.setup, quantity: 1 }],
      onPaymentFailure: 'apply_change',
    });
    expect(applied.status).toBe('past_due');
    const [charge] = await w.transactionsOf(w.subscriptionId, 'subscription_charge');
    expect(charge?.status).toBe('past_due');
  });
});
