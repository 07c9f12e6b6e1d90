/**
 * The seed's "Effects of subscription changes on the balance", one test per row, and rule 8,
 * over real HTTP on both engines. Time moves with the sandbox clock; each test has an account
 * of its own so that moving its clock touches no other test.
 */
import { addCycles, BillingError } from '@drawdown/billing-core';
import { type BillingHarness, ENGINES } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/api-client.js';
import {
  advance,
  drained,
  eventsOfType,
  expectBalancesRecomputable,
  newPlan,
  newPrice,
  newTenant,
  postUsage,
  sandboxNow,
  startUsageHarness,
  subscribeTenant,
  subscriptionOf,
  type Tenant,
  totals,
  wireBalance,
} from './usage-fixtures.js';

const MONTH = { interval: 'month', frequency: 1 } as const;

describe.each(ENGINES)('%s: effects of subscription changes on the balance', (engine) => {
  let harness: BillingHarness;

  beforeAll(async () => {
    harness = await startUsageHarness(engine);
  });
  afterAll(() => harness.close());

  /** A tenant with one subscription to a price granting `amount` per period, and usage already drawn. */
  async function subscribed(options: { amount: string; used?: string; quantity?: number }) {
    const tenant = await newTenant(harness);
    const plan = await newPlan(tenant, { amount: options.amount });
    const subscriptionId = await subscribeTenant(tenant, plan.customerId, [
      { priceId: plan.priceId, quantity: options.quantity ?? 1 },
    ]);
    if (options.used)
      await postUsage(tenant.api, { customer_id: plan.customerId, action: plan.action, quantity: options.used });
    await drained(harness);
    return { tenant, subscriptionId, ...plan };
  }

  async function periodEnd(tenant: Tenant, subscriptionId: string): Promise<string> {
    const subscription = await subscriptionOf(tenant, subscriptionId);
    return String((subscription.current_billing_period as { ends_at: string }).ends_at);
  }

  it('Subscription renews: unused usage expires, the full allowance is granted again and overage is cleared', async () => {
    const { tenant, subscriptionId, unitId, customerId } = await subscribed({ amount: '10', used: '13' });
    expect(await totals(tenant, customerId, unitId)).toEqual({ used: '10', remaining: '0', overage: '3' });
    const end = await periodEnd(tenant, subscriptionId);

    const moved = await advance(tenant, { to: new Date(Date.parse(end) + 1_000).toISOString() });
    expect(moved.steps_run).toBe(1);
    expect(await totals(tenant, customerId, unitId)).toEqual({ used: '0', remaining: '10', overage: '0' });
    const balance = await wireBalance(tenant.api, customerId, unitId);
    expect(balance?.balance.overage.started_at).toBeNull();
    const subscription = await subscriptionOf(tenant, subscriptionId);
    expect(subscription.current_billing_period).toEqual({ starts_at: end, ends_at: addCycles(end, MONTH, 1) });
    await expectBalancesRecomputable(harness, tenant.scope, customerId);
  });

  it('renews over several periods in one advance, every renewal in order (3 months → 3 renewals)', async () => {
    const { tenant, subscriptionId, unitId, customerId } = await subscribed({ amount: '10', used: '4' });
    const subscription = await subscriptionOf(tenant, subscriptionId);
    const anchor = String((subscription.current_billing_period as { starts_at: string }).starts_at);
    const ends = [1, 2, 3].map((count) => addCycles(anchor, MONTH, count));

    const moved = await advance(tenant, { to: new Date(Date.parse(ends[2] ?? '') + 1_000).toISOString() });
    expect(moved.steps_run).toBe(3);
    const renewals = (await eventsOfType(tenant, 'subscription.updated')).filter(
      (event) => event.data.id === subscriptionId,
    );
    expect(renewals.map((event) => event.occurred_at)).toEqual(ends);
    expect(renewals.map((event) => (event.data.current_billing_period as { starts_at: string }).starts_at)).toEqual(
      ends,
    );
    expect(await totals(tenant, customerId, unitId)).toEqual({ used: '0', remaining: '10', overage: '0' });

    const [balance] = (
      await harness.services.store.usageBalances.list(tenant.scope, {
        filter: { customer_id: [{ op: 'in', values: [customerId] }] },
        perPage: 10,
        direction: 'asc',
      })
    ).items;
    const ledger = await harness.services.store.usageBalances.ledger(tenant.scope, balance?.id ?? '');
    expect(ledger.filter((entry) => entry.kind === 'grant').map((entry) => entry.at)).toEqual([
      expect.any(String),
      ...ends,
    ]);
    await expectBalancesRecomputable(harness, tenant.scope, customerId);
  });

  it('Upgrade (full_immediately): the old allowance expires and the new one is granted in full at once; overage carries over until renewal', async () => {
    const { tenant, subscriptionId, unitId, customerId } = await subscribed({ amount: '10', used: '12' });
    const bigger = await newPrice(tenant.api, [{ unitId, amount: '20' }]);
    const response = await tenant.api.patch(`/subscriptions/${subscriptionId}`, {
      items: [{ price_id: bigger, quantity: 1 }],
      proration_billing_mode: 'full_immediately',
    });
    expect(response.status, response.text).toBe(200);
    expect((response.entity.items as { price: { id: string } }[]).map((item) => item.price.id)).toEqual([bigger]);
    expect(await totals(tenant, customerId, unitId)).toEqual({ used: '0', remaining: '20', overage: '2' });

    await advance(tenant, { to: new Date(Date.parse(await periodEnd(tenant, subscriptionId)) + 1_000).toISOString() });
    expect(await totals(tenant, customerId, unitId)).toEqual({ used: '0', remaining: '20', overage: '0' });
    await expectBalancesRecomputable(harness, tenant.scope, customerId);
  });

  it('Upgrade to a yearly price (full_immediately, ADR 1008): the new allowance is granted at once and lasts the new yearly period', async () => {
    const { tenant, subscriptionId, unitId, customerId, action } = await subscribed({ amount: '10', used: '12' });
    const yearly = await newPrice(tenant.api, [{ unitId, amount: '120' }], { interval: 'year', frequency: 1 });
    const changedAt = await sandboxNow(tenant);
    const response = await tenant.api.patch(`/subscriptions/${subscriptionId}`, {
      items: [{ price_id: yearly, quantity: 1 }],
      proration_billing_mode: 'full_immediately',
    });
    expect(response.status, response.text).toBe(200);
    const period = response.entity.current_billing_period as { starts_at: string; ends_at: string };
    // The yearly period starts at the change (this harness's clock runs: between the two readings).
    expect(Date.parse(period.starts_at)).toBeGreaterThanOrEqual(changedAt);
    expect(Date.parse(period.starts_at)).toBeLessThanOrEqual(await sandboxNow(tenant));
    expect(period.ends_at).toBe(addCycles(period.starts_at, { interval: 'year', frequency: 1 }, 1));
    // The seed's upgrade row: old allowance expired, new one granted in full, overage carried over.
    expect(await totals(tenant, customerId, unitId)).toEqual({ used: '0', remaining: '120', overage: '2' });

    // The old monthly period end passes: nothing expires, nothing is granted.
    await postUsage(tenant.api, { customer_id: customerId, action, quantity: '5' });
    await advance(tenant, { seconds: 40 * 86_400 });
    expect(await totals(tenant, customerId, unitId)).toEqual({ used: '5', remaining: '115', overage: '2' });
    // The yearly renewal grants the allowance again and clears the overage.
    await advance(tenant, { to: new Date(Date.parse(period.ends_at) + 1_000).toISOString() });
    expect(await totals(tenant, customerId, unitId)).toEqual({ used: '0', remaining: '120', overage: '0' });
    await expectBalancesRecomputable(harness, tenant.scope, customerId);
  });

  it('Downgrade (full_next_billing_period) applies at once: the remaining current allowance is lost', async () => {
    const { tenant, subscriptionId, unitId, customerId, action } = await subscribed({ amount: '10', used: '3' });
    const smaller = await newPrice(tenant.api, [{ unitId, amount: '5' }]);
    const response = await tenant.api.patch(`/subscriptions/${subscriptionId}`, {
      items: [{ price_id: smaller, quantity: 1 }],
      proration_billing_mode: 'full_next_billing_period',
    });
    expect(response.status, response.text).toBe(200);
    expect((response.entity.items as { price: { id: string } }[]).map((item) => item.price.id)).toEqual([smaller]);
    expect(await totals(tenant, customerId, unitId)).toEqual({ used: '0', remaining: '5', overage: '0' });
    await postUsage(tenant.api, { customer_id: customerId, action, quantity: '6' });
    expect(await totals(tenant, customerId, unitId)).toEqual({ used: '5', remaining: '0', overage: '1' });
    await expectBalancesRecomputable(harness, tenant.scope, customerId);
  });

  it('a downgrade to a price without the unit expires that unit’s allowance, and further usage is overage', async () => {
    const { tenant, subscriptionId, unitId, customerId, action } = await subscribed({ amount: '10', used: '3' });
    const plain = await newPrice(tenant.api, []);
    const response = await tenant.api.patch(`/subscriptions/${subscriptionId}`, {
      items: [{ price_id: plain, quantity: 1 }],
      proration_billing_mode: 'full_next_billing_period',
    });
    expect(response.status, response.text).toBe(200);
    await postUsage(tenant.api, { customer_id: customerId, action, quantity: '2' });
    expect(await totals(tenant, customerId, unitId)).toEqual({ used: '0', remaining: '0', overage: '2' });
  });

  it('Quantity changes: the allowance is granted again for the new quantity', async () => {
    const { tenant, subscriptionId, unitId, customerId, priceId } = await subscribed({ amount: '10', used: '4' });
    const response = await tenant.api.patch(`/subscriptions/${subscriptionId}`, {
      items: [{ price_id: priceId, quantity: 3 }],
      proration_billing_mode: 'full_immediately',
    });
    expect(response.status, response.text).toBe(200);
    expect(await totals(tenant, customerId, unitId)).toEqual({ used: '0', remaining: '30', overage: '0' });
    await expectBalancesRecomputable(harness, tenant.scope, customerId);
  });

  it('an item change that leaves the allowance items as they are refills nothing (ADR 0152)', async () => {
    const tenant = await newTenant(harness);
    const { unitId, priceId, customerId, action } = await newPlan(tenant, { amount: '10' });
    const seats = await newPrice(tenant.api, []);
    const subscriptionId = await subscribeTenant(tenant, customerId, [
      { priceId, quantity: 1 },
      { priceId: seats, quantity: 2 },
    ]);
    await postUsage(tenant.api, { customer_id: customerId, action, quantity: '6' });
    await drained(harness);

    for (const items of [
      [
        { price_id: seats, quantity: 5 },
        { price_id: priceId, quantity: 1 },
      ],
      [{ price_id: priceId, quantity: 1 }],
    ]) {
      const response = await tenant.api.patch(`/subscriptions/${subscriptionId}`, {
        items,
        proration_billing_mode: 'full_immediately',
      });
      expect(response.status, response.text).toBe(200);
      expect(await totals(tenant, customerId, unitId)).toEqual({ used: '6', remaining: '4', overage: '0' });
    }
    await expectBalancesRecomputable(harness, tenant.scope, customerId);
  });

  describe('rule 8: prorated billing modes are refused for allowance prices', () => {
    it.each([
      'prorated_immediately',
      'prorated_next_billing_period',
    ])('refuses %s with subscription_prorated_billing_not_allowed_for_allowance and changes nothing', async (mode) => {
      const { tenant, subscriptionId, unitId, customerId } = await subscribed({ amount: '10', used: '4' });
      const bigger = await newPrice(tenant.api, [{ unitId, amount: '20' }]);
      const before = await subscriptionOf(tenant, subscriptionId);
      const eventsBefore = (await eventsOfType(tenant, 'subscription.updated')).length;

      const response = await tenant.api.patch(`/subscriptions/${subscriptionId}`, {
        items: [{ price_id: bigger, quantity: 1 }],
        proration_billing_mode: mode,
      });
      expectError(response, 400, 'subscription_prorated_billing_not_allowed_for_allowance');
      expect(await subscriptionOf(tenant, subscriptionId)).toEqual(before);
      expect(await totals(tenant, customerId, unitId)).toEqual({ used: '4', remaining: '6', overage: '0' });
      expect((await eventsOfType(tenant, 'subscription.updated')).length).toBe(eventsBefore);
    });

    it('refuses a prorated move from a price without allowances to one with them, and allows prorated modes without allowances', async () => {
      const tenant = await newTenant(harness);
      const { unitId, priceId, customerId } = await newPlan(tenant, { amount: '10' });
      const plain = await newPrice(tenant.api, []);
      const otherPlain = await newPrice(tenant.api, []);
      const subscriptionId = await subscribeTenant(tenant, customerId, [{ priceId: plain, quantity: 1 }]);
      expectError(
        await tenant.api.patch(`/subscriptions/${subscriptionId}`, {
          items: [{ price_id: priceId, quantity: 1 }],
          proration_billing_mode: 'prorated_immediately',
        }),
        400,
        'subscription_prorated_billing_not_allowed_for_allowance',
      );
      expect(await totals(tenant, customerId, unitId)).toBeUndefined();
      const allowed = await tenant.api.patch(`/subscriptions/${subscriptionId}`, {
        items: [{ price_id: otherPlain, quantity: 1 }],
        proration_billing_mode: 'prorated_immediately',
      });
      expect(allowed.status, allowed.text).toBe(200);
    });
  });

  describe('automatic collection is required for allowance prices', () => {
    it('refuses switching to manual collection with subscription_manual_collection_not_allowed_for_allowance', async () => {
      const { tenant, subscriptionId } = await subscribed({ amount: '10' });
      expectError(
        await tenant.api.patch(`/subscriptions/${subscriptionId}`, { collection_mode: 'manual' }),
        400,
        'subscription_manual_collection_not_allowed_for_allowance',
      );
      expect((await subscriptionOf(tenant, subscriptionId)).collection_mode).toBe('automatic');
    });

    it('refuses to start a manually collected subscription with an allowance price', async () => {
      const tenant = await newTenant(harness);
      const { unitId, priceId, customerId } = await newPlan(tenant);
      const started = subscribeTenant(tenant, customerId, [{ priceId, quantity: 1 }], 'manual');
      await expect(started).rejects.toBeInstanceOf(BillingError);
      await expect(started).rejects.toMatchObject({ code: 'subscription_manual_collection_not_allowed_for_allowance' });
      expect(await totals(tenant, customerId, unitId)).toBeUndefined();
      expect((await tenant.api.get(`/subscriptions?customer_id=${customerId}`)).list).toEqual([]);
    });
  });

  it('Subscription canceled immediately: its unused usage expires and further usage is overage', async () => {
    const { tenant, subscriptionId, unitId, customerId, action } = await subscribed({ amount: '10', used: '4' });
    const response = await tenant.api.post(`/subscriptions/${subscriptionId}/cancel`, {
      effective_from: 'immediately',
    });
    expect(response.status, response.text).toBe(200);
    expect(response.entity).toMatchObject({ status: 'canceled', current_billing_period: null, scheduled_change: null });
    expect(await totals(tenant, customerId, unitId)).toEqual({ used: '0', remaining: '0', overage: '0' });
    await postUsage(tenant.api, { customer_id: customerId, action, quantity: '3' });
    expect(await totals(tenant, customerId, unitId)).toEqual({ used: '0', remaining: '0', overage: '3' });
    await expectBalancesRecomputable(harness, tenant.scope, customerId);
  });

  it('cancelling one of two subscriptions expires only its own allowance', async () => {
    const tenant = await newTenant(harness);
    const { unitId, priceId, customerId, action } = await newPlan(tenant, { amount: '10' });
    const other = await newPrice(tenant.api, [{ unitId, amount: '7' }]);
    const first = await subscribeTenant(tenant, customerId, [{ priceId, quantity: 1 }]);
    await subscribeTenant(tenant, customerId, [{ priceId: other, quantity: 1 }]);
    await postUsage(tenant.api, { customer_id: customerId, action, quantity: '2' });
    await drained(harness);
    await tenant.api.post(`/subscriptions/${first}/cancel`, { effective_from: 'immediately' });
    // The first subscription's grant expires first, so it was drawn first; its expiry leaves the other whole.
    expect(await totals(tenant, customerId, unitId)).toEqual({ used: '0', remaining: '7', overage: '0' });
    await expectBalancesRecomputable(harness, tenant.scope, customerId);
  });

  it('Subscription canceled at period end: the balance stays until the period ends, then expires', async () => {
    const { tenant, subscriptionId, unitId, customerId, action } = await subscribed({ amount: '10', used: '4' });
    const response = await tenant.api.post(`/subscriptions/${subscriptionId}/cancel`, {});
    expect(response.status, response.text).toBe(200);
    const end = await periodEnd(tenant, subscriptionId);
    expect(response.entity).toMatchObject({
      status: 'active',
      scheduled_change: { action: 'cancel', effective_at: end, resume_at: null },
    });
    await postUsage(tenant.api, { customer_id: customerId, action, quantity: '1' });
    expect(await totals(tenant, customerId, unitId)).toEqual({ used: '5', remaining: '5', overage: '0' });

    await advance(tenant, { to: new Date(Date.parse(end) + 1_000).toISOString() });
    expect(await subscriptionOf(tenant, subscriptionId)).toMatchObject({ status: 'canceled', canceled_at: end });
    expect(await totals(tenant, customerId, unitId)).toEqual({ used: '0', remaining: '0', overage: '0' });
    await expectBalancesRecomputable(harness, tenant.scope, customerId);
  });

  it('Subscription paused: the balance is unchanged and usage is still recorded', async () => {
    const { tenant, subscriptionId, unitId, customerId, action } = await subscribed({ amount: '10', used: '4' });
    const response = await tenant.api.post(`/subscriptions/${subscriptionId}/pause`, { effective_from: 'immediately' });
    expect(response.status, response.text).toBe(200);
    expect(response.entity).toMatchObject({ status: 'paused', current_billing_period: null });
    expect(await totals(tenant, customerId, unitId)).toEqual({ used: '4', remaining: '6', overage: '0' });
    await postUsage(tenant.api, { customer_id: customerId, action, quantity: '2' });
    expect(await totals(tenant, customerId, unitId)).toEqual({ used: '6', remaining: '4', overage: '0' });

    // A paused subscription does not renew: months pass and the balance stays as it is.
    await advance(tenant, { seconds: 70 * 86_400 });
    expect(await totals(tenant, customerId, unitId)).toEqual({ used: '6', remaining: '4', overage: '0' });
    await expectBalancesRecomputable(harness, tenant.scope, customerId);
  });

  it('Subscription resumes with start_new_billing_period: the full allowance is granted', async () => {
    const { tenant, subscriptionId, unitId, customerId } = await subscribed({ amount: '10', used: '12' });
    await tenant.api.post(`/subscriptions/${subscriptionId}/pause`, { effective_from: 'immediately' });
    const resumed = await tenant.api.post(`/subscriptions/${subscriptionId}/resume`, {
      effective_from: 'immediately',
      on_resume: 'start_new_billing_period',
    });
    expect(resumed.status, resumed.text).toBe(200);
    const now = await sandboxNow(tenant);
    const period = resumed.entity.current_billing_period as { starts_at: string; ends_at: string };
    expect(resumed.entity.status).toBe('active');
    expect(Math.abs(Date.parse(period.starts_at) - now)).toBeLessThan(60_000);
    expect(period.ends_at).toBe(addCycles(period.starts_at, MONTH, 1));
    expect(await totals(tenant, customerId, unitId)).toEqual({ used: '0', remaining: '10', overage: '0' });
    await expectBalancesRecomputable(harness, tenant.scope, customerId);
  });

  it('Subscription resumes with continue_existing_billing_period: the balance is unchanged', async () => {
    const { tenant, subscriptionId, unitId, customerId } = await subscribed({ amount: '10', used: '4' });
    const before = await subscriptionOf(tenant, subscriptionId);
    await tenant.api.post(`/subscriptions/${subscriptionId}/pause`, {
      effective_from: 'immediately',
      on_resume: 'continue_existing_billing_period',
    });
    const resumed = await tenant.api.post(`/subscriptions/${subscriptionId}/resume`, {
      effective_from: 'immediately',
      on_resume: 'continue_existing_billing_period',
    });
    expect(resumed.status, resumed.text).toBe(200);
    expect(resumed.entity.current_billing_period).toEqual(before.current_billing_period);
    expect(await totals(tenant, customerId, unitId)).toEqual({ used: '4', remaining: '6', overage: '0' });
    await expectBalancesRecomputable(harness, tenant.scope, customerId);
  });

  it('a pause scheduled at period end, resuming at a set time with a new period, grants the full allowance then', async () => {
    const { tenant, subscriptionId, unitId, customerId, action } = await subscribed({ amount: '10', used: '3' });
    const end = await periodEnd(tenant, subscriptionId);
    const resumeAt = new Date(Date.parse(end) + 10 * 86_400_000).toISOString();
    const paused = await tenant.api.post(`/subscriptions/${subscriptionId}/pause`, { resume_at: resumeAt });
    expect(paused.entity).toMatchObject({ status: 'active', scheduled_change: { action: 'pause', effective_at: end } });

    await advance(tenant, { to: new Date(Date.parse(end) + 86_400_000).toISOString() });
    expect(await subscriptionOf(tenant, subscriptionId)).toMatchObject({
      status: 'paused',
      scheduled_change: { action: 'resume', effective_at: resumeAt },
    });
    // The pause took effect at the period end: nothing expired, nothing renewed.
    expect(await totals(tenant, customerId, unitId)).toEqual({ used: '3', remaining: '7', overage: '0' });
    await postUsage(tenant.api, {
      customer_id: customerId,
      action,
      quantity: '1',
      occurred_at: new Date(await sandboxNow(tenant)).toISOString(),
    });
    expect(await totals(tenant, customerId, unitId)).toEqual({ used: '4', remaining: '6', overage: '0' });

    await advance(tenant, { to: new Date(Date.parse(resumeAt) + 1_000).toISOString() });
    const resumed = await subscriptionOf(tenant, subscriptionId);
    expect(resumed).toMatchObject({ status: 'active', current_billing_period: { starts_at: resumeAt } });
    expect(await totals(tenant, customerId, unitId)).toEqual({ used: '0', remaining: '10', overage: '0' });
    await expectBalancesRecomputable(harness, tenant.scope, customerId);
  });
});
