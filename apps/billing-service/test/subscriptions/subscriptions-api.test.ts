/**
 * The subscription resource over real HTTP on both engines: get, list filters, and the status
 * rules of pause, resume and cancel with their codes. Refusals change nothing.
 */
import { type BillingHarness, ENGINES } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectInvalidField } from '../support/api-client.js';
import {
  eventsOfType,
  newPlan,
  newPrice,
  newTenant,
  startUsageHarness,
  subscribeTenant,
  subscriptionOf,
  type Tenant,
} from '../usage/usage-fixtures.js';

describe.each(ENGINES)('%s: subscriptions API', (engine) => {
  let harness: BillingHarness;

  beforeAll(async () => {
    harness = await startUsageHarness(engine);
  });
  afterAll(() => harness.close());

  async function oneSubscription(tenant?: Tenant) {
    const own = tenant ?? (await newTenant(harness));
    const plan = await newPlan(own);
    const subscriptionId = await subscribeTenant(own, plan.customerId, [{ priceId: plan.priceId, quantity: 2 }]);
    return { tenant: own, subscriptionId, ...plan };
  }

  it('gets a subscription in the reference wire shape', async () => {
    const { tenant, subscriptionId, customerId, priceId } = await oneSubscription();
    const subscription = await subscriptionOf(tenant, subscriptionId);
    expect(subscription).toMatchObject({
      id: subscriptionId,
      status: 'active',
      customer_id: customerId,
      collection_mode: 'automatic',
      currency_code: 'USD',
      billing_cycle: { interval: 'month', frequency: 1 },
      scheduled_change: null,
      paused_at: null,
      canceled_at: null,
      discount: null,
      items: [{ status: 'active', quantity: 2, recurring: true, price: { id: priceId }, product: expect.any(Object) }],
    });
    expect(subscription.id).toMatch(/^sub_[a-z\d]{26}$/);
    const period = subscription.current_billing_period as { starts_at: string; ends_at: string };
    expect(subscription.next_billed_at).toBe(period.ends_at);
    expect(subscription.started_at).toBe(period.starts_at);
    expect(subscription).not.toHaveProperty('internal');
  });

  it('answers 404 not_found for an unknown subscription or one of another account, and 400 for a malformed id', async () => {
    const { subscriptionId } = await oneSubscription();
    const stranger = await newTenant(harness);
    expectError(await stranger.api.get(`/subscriptions/${subscriptionId}`), 404, 'not_found');
    expectError(await stranger.api.get('/subscriptions/sub_01h00000000000000000000000'), 404, 'not_found');
    expectError(await stranger.api.post(`/subscriptions/${subscriptionId}/cancel`, {}), 404, 'not_found');
    expectError(await stranger.api.get('/subscriptions/nope'), 400, 'bad_request');
  });

  it('lists subscriptions filtered by id, customer_id, status, collection_mode and scheduled_change_action', async () => {
    const tenant = await newTenant(harness);
    const first = await oneSubscription(tenant);
    const second = await oneSubscription(tenant);
    const third = await oneSubscription(tenant);
    await tenant.api.post(`/subscriptions/${second.subscriptionId}/pause`, { effective_from: 'immediately' });
    await tenant.api.post(`/subscriptions/${third.subscriptionId}/cancel`, {});

    const ids = async (query: string) =>
      (await tenant.api.get(`/subscriptions${query}`)).list.map((subscription) => subscription.id).sort();
    const all = [first.subscriptionId, second.subscriptionId, third.subscriptionId].sort();
    expect(await ids('')).toEqual(all);
    expect(await ids(`?id=${first.subscriptionId},${third.subscriptionId}`)).toEqual(
      [first.subscriptionId, third.subscriptionId].sort(),
    );
    expect(await ids(`?customer_id=${second.customerId}`)).toEqual([second.subscriptionId]);
    expect(await ids('?status=paused')).toEqual([second.subscriptionId]);
    expect(await ids('?status=active')).toEqual([first.subscriptionId, third.subscriptionId].sort());
    expect(await ids('?collection_mode=automatic')).toEqual(all);
    expect(await ids('?collection_mode=manual')).toEqual([]);
    expect(await ids('?scheduled_change_action=cancel')).toEqual([third.subscriptionId]);
    expectInvalidField(await tenant.api.get('/subscriptions?status=sleeping'), 'status');
  });

  it('filters by price_id (any item, whole ids only) and next_billed_at with its comparison forms', async () => {
    const tenant = await newTenant(harness);
    const first = await oneSubscription(tenant);
    const second = await oneSubscription(tenant);
    // A second item on the first subscription: it matches by either price.
    const extra = await newPrice(tenant.api, []);
    const added = await tenant.api.patch(`/subscriptions/${first.subscriptionId}`, {
      items: [
        { price_id: first.priceId, quantity: 2 },
        { price_id: extra, quantity: 1 },
      ],
      proration_billing_mode: 'do_not_bill',
    });
    expect(added.status, added.text).toBe(200);
    const ids = async (query: string) =>
      (await tenant.api.get(`/subscriptions${query}`)).list.map((subscription) => subscription.id).sort();
    expect(await ids(`?price_id=${extra}`)).toEqual([first.subscriptionId]);
    expect(await ids(`?price_id=${second.priceId}`)).toEqual([second.subscriptionId]);
    expect(await ids(`?price_id=${first.priceId},${second.priceId}`)).toEqual(
      [first.subscriptionId, second.subscriptionId].sort(),
    );
    expect(await ids('?price_id=pri_01h00000000000000000000000')).toEqual([]);
    // Combined with another filter, both hold.
    expect(await ids(`?price_id=${first.priceId},${second.priceId}&customer_id=${second.customerId}`)).toEqual([
      second.subscriptionId,
    ]);
    const firstNext = String((await subscriptionOf(tenant, first.subscriptionId)).next_billed_at);
    await tenant.api.post(`/subscriptions/${second.subscriptionId}/pause`, { effective_from: 'immediately' });
    expect(await ids(`?next_billed_at=${firstNext}`)).toEqual([first.subscriptionId]);
    expect(await ids(`?next_billed_at[LTE]=${firstNext}`)).toEqual([first.subscriptionId]);
    expect(await ids(`?next_billed_at[GT]=${firstNext}`)).toEqual([]);
    expectInvalidField(await tenant.api.get('/subscriptions?price_id=prx_1'), 'price_id');
    expectInvalidField(await tenant.api.get('/subscriptions?next_billed_at[LT]=yesterday'), 'next_billed_at[LT]');
  });

  it('pages through subscriptions with per_page and after', async () => {
    const tenant = await newTenant(harness);
    for (let index = 0; index < 3; index += 1) await oneSubscription(tenant);
    const first = await tenant.api.get('/subscriptions?per_page=2');
    expect(first.list).toHaveLength(2);
    expect(first.body.meta?.pagination?.has_more).toBe(true);
    const next = await tenant.api.get(`/subscriptions?per_page=2&after=${first.list[1]?.id}`);
    expect(next.list).toHaveLength(1);
    expect(next.body.meta?.pagination?.has_more).toBe(false);
  });

  describe('status rules', () => {
    it('pauses at period end by default: stays active with a scheduled pause', async () => {
      const { tenant, subscriptionId } = await oneSubscription();
      const response = await tenant.api.post(`/subscriptions/${subscriptionId}/pause`, {});
      expect(response.status, response.text).toBe(200);
      const period = response.entity.current_billing_period as { ends_at: string };
      expect(response.entity).toMatchObject({
        status: 'active',
        scheduled_change: { action: 'pause', effective_at: period.ends_at, resume_at: null },
      });
    });

    it('pauses immediately: paused, with paused_at and no billing period, emitting subscription.paused', async () => {
      const { tenant, subscriptionId } = await oneSubscription();
      const response = await tenant.api.post(`/subscriptions/${subscriptionId}/pause`, {
        effective_from: 'immediately',
      });
      expect(response.entity).toMatchObject({
        status: 'paused',
        current_billing_period: null,
        next_billed_at: null,
        paused_at: expect.any(String),
      });
      const paused = await eventsOfType(tenant, 'subscription.paused');
      expect(paused.map((event) => event.data.id)).toEqual([subscriptionId]);
    });

    it('refuses to pause a paused subscription with 409 subscription_already_paused', async () => {
      const { tenant, subscriptionId } = await oneSubscription();
      await tenant.api.post(`/subscriptions/${subscriptionId}/pause`, { effective_from: 'immediately' });
      expectError(
        await tenant.api.post(`/subscriptions/${subscriptionId}/pause`, { effective_from: 'immediately' }),
        409,
        'subscription_already_paused',
      );
    });

    it('refuses to pause with a scheduled cancel pending, with 409 subscription_scheduled_change_pending', async () => {
      const { tenant, subscriptionId } = await oneSubscription();
      await tenant.api.post(`/subscriptions/${subscriptionId}/cancel`, {});
      const before = await subscriptionOf(tenant, subscriptionId);
      expectError(
        await tenant.api.post(`/subscriptions/${subscriptionId}/pause`, {}),
        409,
        'subscription_scheduled_change_pending',
      );
      expect(await subscriptionOf(tenant, subscriptionId)).toEqual(before);
    });

    it('refuses a resume_at that is not after the pause takes effect, with invalid_field', async () => {
      const { tenant, subscriptionId } = await oneSubscription();
      expectInvalidField(
        await tenant.api.post(`/subscriptions/${subscriptionId}/pause`, {
          effective_from: 'immediately',
          resume_at: '2020-01-01T00:00:00Z',
        }),
        'resume_at',
      );
      expect((await subscriptionOf(tenant, subscriptionId)).status).toBe('active');
    });

    it('refuses to resume an active subscription without a scheduled pause, with 409 subscription_not_paused', async () => {
      const { tenant, subscriptionId } = await oneSubscription();
      expectError(await tenant.api.post(`/subscriptions/${subscriptionId}/resume`, {}), 409, 'subscription_not_paused');
    });

    it('resuming an active subscription with a scheduled pause removes the pause', async () => {
      const { tenant, subscriptionId } = await oneSubscription();
      await tenant.api.post(`/subscriptions/${subscriptionId}/pause`, {});
      const response = await tenant.api.post(`/subscriptions/${subscriptionId}/resume`, {});
      expect(response.status, response.text).toBe(200);
      expect(response.entity).toMatchObject({ status: 'active', scheduled_change: null });
    });

    it('resumes a paused subscription now, emitting subscription.resumed', async () => {
      const { tenant, subscriptionId } = await oneSubscription();
      await tenant.api.post(`/subscriptions/${subscriptionId}/pause`, { effective_from: 'immediately' });
      const response = await tenant.api.post(`/subscriptions/${subscriptionId}/resume`, null);
      expect(response.status, response.text).toBe(200);
      expect(response.entity).toMatchObject({ status: 'active', paused_at: null, scheduled_change: null });
      expect((await eventsOfType(tenant, 'subscription.resumed')).map((event) => event.data.id)).toEqual([
        subscriptionId,
      ]);
    });

    it('schedules a resume at a later time for a paused subscription', async () => {
      const { tenant, subscriptionId } = await oneSubscription();
      await tenant.api.post(`/subscriptions/${subscriptionId}/pause`, { effective_from: 'immediately' });
      const at = new Date(Date.now() + 5 * 86_400_000).toISOString();
      const response = await tenant.api.post(`/subscriptions/${subscriptionId}/resume`, { effective_from: at });
      expect(response.entity).toMatchObject({
        status: 'paused',
        scheduled_change: { action: 'resume', effective_at: at, resume_at: at },
      });
    });

    it('cancels at period end by default, and asking again changes nothing', async () => {
      const { tenant, subscriptionId } = await oneSubscription();
      const first = await tenant.api.post(`/subscriptions/${subscriptionId}/cancel`, {});
      expect(first.entity).toMatchObject({ status: 'active', scheduled_change: { action: 'cancel' } });
      const second = await tenant.api.post(`/subscriptions/${subscriptionId}/cancel`, {});
      expect(second.status).toBe(200);
      expect(second.entity).toEqual(first.entity);
    });

    it('keeps the reason a cancellation gives (ADR 0806), refuses a malformed one changing nothing, and drops it when the cancel is taken back', async () => {
      const { tenant, subscriptionId } = await oneSubscription();
      const path = `/subscriptions/${subscriptionId}/cancellation-reason`;
      expect((await tenant.api.get(path)).entity).toEqual({
        subscription_id: subscriptionId,
        reason: null,
        comment: null,
        recorded_at: null,
      });
      const cancel = (body: unknown) => tenant.api.post(`/subscriptions/${subscriptionId}/cancel`, body);
      expectInvalidField(await cancel({ cancellation_reason: { reason: 'bored' } }), 'cancellation_reason.reason');
      expectInvalidField(
        await cancel({ cancellation_reason: { reason: 'other', comment: 'x'.repeat(501) } }),
        'cancellation_reason.comment',
      );
      expect((await subscriptionOf(tenant, subscriptionId)).scheduled_change).toBeNull();

      const canceled = await cancel({ cancellation_reason: { reason: 'unused', comment: '  Not this quarter  ' } });
      expect(canceled.entity).toMatchObject({ scheduled_change: { action: 'cancel' } });
      expect(canceled.entity).not.toHaveProperty('cancellation_reason');
      const stored = (await tenant.api.get(path)).entity;
      expect(stored).toMatchObject({ reason: 'unused', comment: 'Not this quarter', recorded_at: expect.any(String) });
      // Asked again with another reason: the reason is replaced, nothing else changes.
      await cancel({ cancellation_reason: { reason: 'too_expensive' } });
      expect((await tenant.api.get(path)).entity).toMatchObject({ reason: 'too_expensive', comment: null });
      await tenant.api.patch(`/subscriptions/${subscriptionId}`, { scheduled_change: null });
      expect((await tenant.api.get(path)).entity).toMatchObject({ reason: null, comment: null, recorded_at: null });
    });

    it('removes a scheduled cancel with PATCH scheduled_change null', async () => {
      const { tenant, subscriptionId } = await oneSubscription();
      await tenant.api.post(`/subscriptions/${subscriptionId}/cancel`, {});
      const response = await tenant.api.patch(`/subscriptions/${subscriptionId}`, { scheduled_change: null });
      expect(response.status, response.text).toBe(200);
      expect(response.entity.scheduled_change).toBeNull();
    });

    it('cancels a paused subscription at once, emitting subscription.canceled', async () => {
      const { tenant, subscriptionId } = await oneSubscription();
      await tenant.api.post(`/subscriptions/${subscriptionId}/pause`, { effective_from: 'immediately' });
      const response = await tenant.api.post(`/subscriptions/${subscriptionId}/cancel`, {});
      expect(response.entity).toMatchObject({ status: 'canceled', canceled_at: expect.any(String) });
      expect((await eventsOfType(tenant, 'subscription.canceled')).map((event) => event.data.id)).toEqual([
        subscriptionId,
      ]);
    });

    it('refuses every change to a canceled subscription with 409 subscription_canceled', async () => {
      const { tenant, subscriptionId, priceId } = await oneSubscription();
      await tenant.api.post(`/subscriptions/${subscriptionId}/cancel`, { effective_from: 'immediately' });
      const before = await subscriptionOf(tenant, subscriptionId);
      for (const response of [
        await tenant.api.post(`/subscriptions/${subscriptionId}/cancel`, { effective_from: 'immediately' }),
        await tenant.api.post(`/subscriptions/${subscriptionId}/pause`, { effective_from: 'immediately' }),
        await tenant.api.post(`/subscriptions/${subscriptionId}/resume`, {}),
        await tenant.api.patch(`/subscriptions/${subscriptionId}`, {
          items: [{ price_id: priceId, quantity: 3 }],
          proration_billing_mode: 'full_immediately',
        }),
      ]) {
        expectError(response, 409, 'subscription_canceled');
      }
      expect(await subscriptionOf(tenant, subscriptionId)).toEqual(before);
    });
  });

  describe('updates', () => {
    it('requires proration_billing_mode when items change', async () => {
      const { tenant, subscriptionId, priceId } = await oneSubscription();
      expectError(
        await tenant.api.patch(`/subscriptions/${subscriptionId}`, { items: [{ price_id: priceId, quantity: 3 }] }),
        400,
        'subscription_items_update_missing_proration_billing_mode',
      );
    });

    it('refuses items of two billing cycles, a one-off price, an unknown price and a quantity out of range', async () => {
      const { tenant, subscriptionId, unitId, priceId } = await oneSubscription();
      const yearly = await newPrice(tenant.api, [{ unitId, amount: '1' }], { interval: 'year', frequency: 1 });
      const patch = (items: unknown) =>
        tenant.api.patch(`/subscriptions/${subscriptionId}`, { items, proration_billing_mode: 'full_immediately' });
      expectError(
        await patch([
          { price_id: priceId, quantity: 1 },
          { price_id: yearly, quantity: 1 },
        ]),
        400,
        'subscription_billing_cycle_mismatch',
      );
      expectError(await patch([{ price_id: 'pri_01h00000000000000000000000', quantity: 1 }]), 400, 'price_not_found');
      const productId = (await tenant.api.post('/products', { name: 'One-off', tax_category: 'saas' })).id;
      const oneOff = (
        await tenant.api.post('/prices', {
          product_id: productId,
          description: 'Setup fee',
          unit_price: { amount: '500', currency_code: 'USD' },
        })
      ).id;
      expectError(await patch([{ price_id: oneOff, quantity: 1 }]), 400, 'subscription_price_not_recurring');
      const monthly = await newPrice(tenant.api, []);
      expectError(await patch([{ price_id: monthly, quantity: 1000 }]), 400, 'subscription_quantity_out_of_range');
      expect((await subscriptionOf(tenant, subscriptionId)).items).toHaveLength(1);
    });

    it('updates custom_data without touching items', async () => {
      const { tenant, subscriptionId } = await oneSubscription();
      const response = await tenant.api.patch(`/subscriptions/${subscriptionId}`, { custom_data: { plan: 'gold' } });
      expect(response.entity.custom_data).toEqual({ plan: 'gold' });
      expect((response.entity.items as unknown[]).length).toBe(1);
    });

    it('refuses unknown fields with invalid_field', async () => {
      const { tenant, subscriptionId } = await oneSubscription();
      expectInvalidField(await tenant.api.patch(`/subscriptions/${subscriptionId}`, { colour: 'red' }), 'colour');
    });
  });
});
