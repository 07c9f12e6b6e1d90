/**
 * Sandbox time control over real HTTP on both engines: the clock only moves forward, moving it
 * runs what fell due, usage accepted before a jump stays in its period, and the live address
 * has no clock at all.
 */
import { type BillingHarness, ENGINES } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/api-client.js';
import {
  advance,
  newPlan,
  newPrice,
  newTenant,
  postUsage,
  sandboxNow,
  startUsageHarness,
  subscribeTenant,
  subscriptionOf,
  totals,
} from './usage-fixtures.js';

describe.each(ENGINES)('%s: sandbox clock', (engine) => {
  let harness: BillingHarness;

  beforeAll(async () => {
    harness = await startUsageHarness(engine);
  });
  afterAll(() => harness.close());

  it('reads the account’s clock, which runs on the wall clock until moved', async () => {
    const tenant = await newTenant(harness);
    const before = Date.now();
    const reading = await tenant.api.get('/sandbox-clock');
    expect(reading.status, reading.text).toBe(200);
    expect(reading.entity.offset_seconds).toBe(0);
    expect(Date.parse(String(reading.entity.now))).toBeGreaterThanOrEqual(before);
  });

  it('moves forward by seconds or to a time, and every later reading keeps the offset', async () => {
    const tenant = await newTenant(harness);
    const bySeconds = await advance(tenant, { seconds: 3_600 });
    expect(bySeconds.offset_seconds).toBe(3_600);
    const target = new Date(Date.parse(bySeconds.now) + 2 * 86_400_000).toISOString();
    const toTime = await advance(tenant, { to: target });
    expect(toTime.now).toBe(target);
    expect(toTime.steps_run).toBe(0);
    expect((await sandboxNow(tenant)) - Date.now()).toBeGreaterThan(2 * 86_400_000);
    // Another account's clock has not moved.
    expect((await (await newTenant(harness)).api.get('/sandbox-clock')).entity.offset_seconds).toBe(0);
  });

  it('cannot go back: refuses an earlier time with 400 sandbox_clock_cannot_go_back and keeps the clock', async () => {
    const tenant = await newTenant(harness);
    await advance(tenant, { seconds: 86_400 });
    const before = await tenant.api.get('/sandbox-clock');
    const response = await tenant.api.post('/sandbox-clock/advance', { to: new Date().toISOString() });
    expectError(response, 400, 'sandbox_clock_cannot_go_back');
    const after = await tenant.api.get('/sandbox-clock');
    expect(after.entity.offset_seconds).toBe(before.entity.offset_seconds);
    expect((await advance(tenant, { seconds: 0 })).offset_seconds).toBe(before.entity.offset_seconds);
  });

  it('refuses malformed advances with invalid_field', async () => {
    const tenant = await newTenant(harness);
    for (const body of [{ seconds: -5 }, { seconds: 1.5 }, { to: 'next tuesday' }, { seconds: 5, to: null }, {}]) {
      expectError(await tenant.api.post('/sandbox-clock/advance', body), 400, 'invalid_field');
    }
    expect((await tenant.api.get('/sandbox-clock')).entity.offset_seconds).toBe(0);
  });

  it('does not exist on the live address', async () => {
    const tenant = await newTenant(harness);
    expectError(await tenant.live.get('/sandbox-clock'), 404, 'not_found');
    expectError(await tenant.live.post('/sandbox-clock/advance', { seconds: 60 }), 404, 'not_found');
  });

  it('draws usage accepted before a jump in the period it was accepted in', async () => {
    const tenant = await newTenant(harness);
    const { unitId, action, priceId, customerId } = await newPlan(tenant, { amount: '10' });
    const subscriptionId = await subscribeTenant(tenant, customerId, [{ priceId, quantity: 1 }]);
    const end = String(
      ((await subscriptionOf(tenant, subscriptionId)).current_billing_period as { ends_at: string }).ends_at,
    );
    for (let index = 0; index < 5; index += 1) {
      await postUsage(tenant.api, { customer_id: customerId, action, quantity: '3' });
    }
    // No wait for the worker: the jump itself must apply them before the renewal expires the period.
    const moved = await advance(tenant, { to: new Date(Date.parse(end) + 1_000).toISOString() });
    expect(moved.steps_run).toBe(1);
    expect(await totals(tenant, customerId, unitId)).toEqual({ used: '0', remaining: '10', overage: '0' });
  });

  it('runs the usage request right after a jump at the moved clock, though the offset was cached (ADR 0729)', async () => {
    const tenant = await newTenant(harness);
    const { action, priceId, customerId } = await newPlan(tenant, { amount: '10' });
    await subscribeTenant(tenant, customerId, [{ priceId, quantity: 1 }]);
    // The first request keeps the account's offset in the process for a second.
    expect((await postUsage(tenant.api, { customer_id: customerId, action })).status).toBe('accepted');
    const moved = await advance(tenant, { seconds: 10 * 86_400 });
    // Ten days ahead of the wall clock: refused as in the future at the old time, accepted at the moved one.
    const occurredAt = new Date(Date.parse(moved.now) - 60_000).toISOString();
    const result = await postUsage(tenant.api, { customer_id: customerId, action, occurred_at: occurredAt });
    expect(result.error).toBeUndefined();
    expect(result.status).toBe('accepted');
  });

  it('a renewal that fell due while the service ran is applied by the scheduler without a jump', async () => {
    const tenant = await newTenant(harness);
    const { unitId, action, customerId } = await newPlan(tenant, { amount: '10' });
    const daily = await newPrice(tenant.api, [{ unitId, amount: '10' }], { interval: 'day', frequency: 1 });
    const subscriptionId = await subscribeTenant(tenant, customerId, [{ priceId: daily, quantity: 1 }]);
    await postUsage(tenant.api, { customer_id: customerId, action, quantity: '4' });
    expect(await totals(tenant, customerId, unitId)).toEqual({ used: '4', remaining: '6', overage: '0' });
    // Moving the offset directly (as another process would) leaves the renewal to the background scheduler.
    await harness.services.store.sandboxClocks.setOffset(tenant.accountId, 86_400_000 + 60_000);
    // Bounded at 20 s, far beyond the scheduler's interval, so that a loaded machine cannot fail it.
    for (let attempt = 0; attempt < 400; attempt += 1) {
      const subscription = await subscriptionOf(tenant, subscriptionId);
      if ((subscription.current_billing_period as { starts_at: string }).starts_at !== subscription.started_at) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await totals(tenant, customerId, unitId)).toEqual({ used: '0', remaining: '10', overage: '0' });
  });
});
