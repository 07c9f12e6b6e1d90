/**
 * `usage_balance.depleted` over real HTTP on both engines: an edge, not a level. Emitted when a
 * drawdown takes remaining from above 0 to 0, never on expiry, and again only after more
 * allowance was granted and ran out.
 */
import { type BillingHarness, ENGINES } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  advance,
  drained,
  eventsOfType,
  expectBalancesRecomputable,
  newPlan,
  newPrice,
  newTenant,
  postUsage,
  startUsageHarness,
  subscribeTenant,
  type Tenant,
  totals,
  wireBalance,
} from './usage-fixtures.js';

describe.each(ENGINES)('%s: usage_balance.depleted', (engine) => {
  let harness: BillingHarness;

  beforeAll(async () => {
    harness = await startUsageHarness(engine);
  });
  afterAll(() => harness.close());

  async function depletions(tenant: Tenant) {
    await drained(harness);
    return eventsOfType(tenant, 'usage_balance.depleted');
  }

  it('is emitted exactly once when remaining reaches 0, carrying the balance', async () => {
    const tenant = await newTenant(harness);
    const { unitId, action, priceId, customerId } = await newPlan(tenant, { amount: '10', rate: '2' });
    await subscribeTenant(tenant, customerId, [{ priceId, quantity: 1 }]);
    await postUsage(tenant.api, { customer_id: customerId, action, quantity: '3' });
    expect(await depletions(tenant)).toEqual([]);
    await postUsage(tenant.api, { customer_id: customerId, action, quantity: '2' });

    const events = await depletions(tenant);
    expect(events).toHaveLength(1);
    const balance = await wireBalance(tenant.api, customerId, unitId);
    expect(events[0]).toMatchObject({
      event_id: expect.stringMatching(/^evt_[a-z\d]{26}$/),
      event_type: 'usage_balance.depleted',
      data: {
        id: balance?.id,
        customer_id: customerId,
        usage_balance_unit_id: unitId,
        balance: { remaining: { total: '0' }, used: { total: '10' }, overage: { total: '0' } },
      },
    });
    expect(events[0]?.data).not.toHaveProperty('subscription_id');
    await expectBalancesRecomputable(harness, tenant.scope, customerId);
  });

  it('is emitted once when one drawdown overshoots 0, and not again on further overage', async () => {
    const tenant = await newTenant(harness);
    const { unitId, action, priceId, customerId } = await newPlan(tenant, { amount: '10' });
    await subscribeTenant(tenant, customerId, [{ priceId, quantity: 1 }]);
    await postUsage(tenant.api, { customer_id: customerId, action, quantity: '15' });
    await drained(harness);
    await postUsage(tenant.api, { customer_id: customerId, action, quantity: '1' });
    await postUsage(tenant.api, { customer_id: customerId, action, quantity: '2' });

    const events = await depletions(tenant);
    expect(events).toHaveLength(1);
    expect(events[0]?.data.balance).toMatchObject({ remaining: { total: '0' }, overage: { total: '5' } });
    expect(await totals(tenant, customerId, unitId)).toEqual({ used: '10', remaining: '0', overage: '8' });
  });

  it('is not emitted when unused allowance expires: not on cancellation, not on renewal', async () => {
    const tenant = await newTenant(harness);
    const { unitId, action, priceId, customerId } = await newPlan(tenant, { amount: '10' });
    const canceled = await subscribeTenant(tenant, customerId, [{ priceId, quantity: 1 }]);
    await postUsage(tenant.api, { customer_id: customerId, action, quantity: '4' });
    await drained(harness);
    const cancel = await tenant.api.post(`/subscriptions/${canceled}/cancel`, { effective_from: 'immediately' });
    expect(cancel.status, cancel.text).toBe(200);
    expect(await totals(tenant, customerId, unitId)).toEqual({ used: '0', remaining: '0', overage: '0' });

    const renewing = await newPlan(tenant, { amount: '10' });
    await subscribeTenant(tenant, renewing.customerId, [{ priceId: renewing.priceId, quantity: 1 }]);
    await postUsage(tenant.api, { customer_id: renewing.customerId, action: renewing.action, quantity: '9' });
    await drained(harness);
    expect((await advance(tenant, { seconds: 32 * 86_400 })).steps_run).toBeGreaterThanOrEqual(1);

    expect(await depletions(tenant)).toEqual([]);
  });

  it('is emitted again after a renewal grants more and the customer runs out again', async () => {
    const tenant = await newTenant(harness);
    const { action, priceId, customerId } = await newPlan(tenant, { amount: '5' });
    await subscribeTenant(tenant, customerId, [{ priceId, quantity: 1 }]);
    await postUsage(tenant.api, { customer_id: customerId, action, quantity: '6' });
    await drained(harness);
    expect(await depletions(tenant)).toHaveLength(1);

    await advance(tenant, { seconds: 32 * 86_400 });
    expect(await depletions(tenant)).toHaveLength(1);
    const occurredAt = new Date(Date.now() + 32 * 86_400_000).toISOString();
    await postUsage(tenant.api, { customer_id: customerId, action, quantity: '5', occurred_at: occurredAt });

    const events = await depletions(tenant);
    expect(events).toHaveLength(2);
    expect(new Set(events.map((event) => event.event_id)).size).toBe(2);
    expect(events[1]?.data.balance).toMatchObject({ remaining: { total: '0' }, overage: { total: '0' } });
    await expectBalancesRecomputable(harness, tenant.scope, customerId);
  });

  it('is emitted again after a plan change grants more and the customer runs out again', async () => {
    const tenant = await newTenant(harness);
    const { unitId, action, priceId, customerId } = await newPlan(tenant, { amount: '5' });
    const bigger = await newPrice(tenant.api, [{ unitId, amount: '8' }]);
    const subscriptionId = await subscribeTenant(tenant, customerId, [{ priceId, quantity: 1 }]);
    await postUsage(tenant.api, { customer_id: customerId, action, quantity: '5' });
    expect(await depletions(tenant)).toHaveLength(1);

    const upgrade = await tenant.api.patch(`/subscriptions/${subscriptionId}`, {
      items: [{ price_id: bigger, quantity: 1 }],
      proration_billing_mode: 'full_immediately',
    });
    expect(upgrade.status, upgrade.text).toBe(200);
    await postUsage(tenant.api, { customer_id: customerId, action, quantity: '9' });

    expect(await depletions(tenant)).toHaveLength(2);
    expect(await totals(tenant, customerId, unitId)).toEqual({ used: '8', remaining: '0', overage: '1' });
  });

  it('is emitted only when the combined balance runs out, not when one subscription’s grant does', async () => {
    const tenant = await newTenant(harness);
    const { unitId, action, priceId, customerId } = await newPlan(tenant, { amount: '5' });
    const second = await newPrice(tenant.api, [{ unitId, amount: '5' }]);
    await subscribeTenant(tenant, customerId, [{ priceId, quantity: 1 }]);
    await subscribeTenant(tenant, customerId, [{ priceId: second, quantity: 1 }]);
    await postUsage(tenant.api, { customer_id: customerId, action, quantity: '5' });
    expect(await depletions(tenant)).toEqual([]);
    await postUsage(tenant.api, { customer_id: customerId, action, quantity: '5' });
    expect(await depletions(tenant)).toHaveLength(1);
    expect(await totals(tenant, customerId, unitId)).toEqual({ used: '10', remaining: '0', overage: '0' });
  });
});
