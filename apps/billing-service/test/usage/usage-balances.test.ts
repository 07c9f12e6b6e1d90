/**
 * Usage balances over real HTTP on both engines: the seed's state table (a balance appears when
 * a subscription with an allowance activates), rule 3, combining subscriptions, and reads.
 */
import { type BillingHarness, ENGINES } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/api-client.js';
import {
  eventsOfType,
  expectBalancesRecomputable,
  newCustomer,
  newMeter,
  newPlan,
  newPrice,
  newTenant,
  newUnit,
  postUsage,
  startUsageHarness,
  subscribeTenant,
  type Tenant,
  totals,
  uniqueAction,
  wireBalance,
} from './usage-fixtures.js';

describe.each(ENGINES)('%s: usage balances', (engine) => {
  let harness: BillingHarness;
  let tenant: Tenant;

  beforeAll(async () => {
    harness = await startUsageHarness(engine);
    tenant = await newTenant(harness);
  });
  afterAll(() => harness.close());

  it('creates a balance when a subscription with an allowance activates: remaining = amount × quantity, used 0', async () => {
    const { unitId, priceId, customerId } = await newPlan(tenant, { amount: '12.5' });
    expect(await wireBalance(tenant.api, customerId, unitId)).toBeUndefined();
    const subscriptionId = await subscribeTenant(tenant, customerId, [{ priceId, quantity: 3 }]);

    const balance = await wireBalance(tenant.api, customerId, unitId);
    expect(balance).toMatchObject({
      customer_id: customerId,
      usage_balance_unit_id: unitId,
      balance: {
        used: { total: '0', breakdown: { subscription: '0' } },
        remaining: { total: '37.5', breakdown: { subscription: '37.5' } },
        overage: { total: '0', started_at: null, breakdown: { subscription: '0' } },
      },
    });
    expect(balance?.id).toMatch(/^ubl_[a-z\d]{26}$/);
    const created = (await eventsOfType(tenant, 'subscription.created')).find(
      (event) => event.data.id === subscriptionId,
    );
    expect(created?.data.status).toBe('active');
    await expectBalancesRecomputable(harness, tenant.scope, customerId);
  });

  it('rule 3: a price without allowances never creates a balance, even when usage arrives', async () => {
    const unitId = await newUnit(tenant.api);
    const action = uniqueAction();
    await newMeter(tenant.api, unitId, action);
    const priceId = await newPrice(tenant.api, []);
    const customerId = await newCustomer(tenant.api);
    await subscribeTenant(tenant, customerId, [{ priceId, quantity: 2 }]);
    expect((await postUsage(tenant.api, { customer_id: customerId, action, quantity: '4' })).status).toBe('accepted');

    expect(await totals(tenant, customerId, unitId)).toBeUndefined();
    const response = await tenant.api.get(`/customers/${customerId}/usage-balances`);
    expect(response.status).toBe(200);
    expect(response.list).toEqual([]);
  });

  it('combines the allowances of two subscriptions for one unit in one balance', async () => {
    const { unitId, priceId, customerId, action } = await newPlan(tenant, { amount: '10' });
    const second = await newPrice(tenant.api, [{ unitId, amount: '5' }]);
    await subscribeTenant(tenant, customerId, [{ priceId, quantity: 1 }]);
    await subscribeTenant(tenant, customerId, [{ priceId: second, quantity: 2 }]);

    const response = await tenant.api.get(`/customers/${customerId}/usage-balances`);
    expect(response.list).toHaveLength(1);
    expect(await totals(tenant, customerId, unitId)).toEqual({ used: '0', remaining: '20', overage: '0' });

    await postUsage(tenant.api, { customer_id: customerId, action, quantity: '14' });
    expect(await totals(tenant, customerId, unitId)).toEqual({ used: '14', remaining: '6', overage: '0' });
    await expectBalancesRecomputable(harness, tenant.scope, customerId);
  });

  it('gives one balance per unit when a price grants several units', async () => {
    const calls = await newUnit(tenant.api);
    const storage = await newUnit(tenant.api);
    const priceId = await newPrice(tenant.api, [
      { unitId: calls, amount: '100' },
      { unitId: storage, amount: '0.5' },
    ]);
    const customerId = await newCustomer(tenant.api);
    await subscribeTenant(tenant, customerId, [{ priceId, quantity: 2 }]);

    const response = await tenant.api.get(`/customers/${customerId}/usage-balances`);
    expect(response.list.map((balance) => balance.usage_balance_unit_id).sort()).toEqual([calls, storage].sort());
    expect(await totals(tenant, customerId, calls)).toEqual({ used: '0', remaining: '200', overage: '0' });
    expect(await totals(tenant, customerId, storage)).toEqual({ used: '0', remaining: '1', overage: '0' });

    const filtered = await tenant.api.get(`/customers/${customerId}/usage-balances?usage_balance_unit_id=${storage}`);
    expect(filtered.list.map((balance) => balance.usage_balance_unit_id)).toEqual([storage]);
  });

  it('an allowance of 0 gives an empty balance, so all usage is overage', async () => {
    const { unitId, priceId, customerId, action } = await newPlan(tenant, { amount: '0' });
    await subscribeTenant(tenant, customerId, [{ priceId, quantity: 5 }]);
    expect(await totals(tenant, customerId, unitId)).toEqual({ used: '0', remaining: '0', overage: '0' });

    await postUsage(tenant.api, { customer_id: customerId, action, quantity: '3' });
    expect(await totals(tenant, customerId, unitId)).toEqual({ used: '0', remaining: '0', overage: '3' });
    const depleted = await eventsOfType(tenant, 'usage_balance.depleted');
    expect(depleted.filter((event) => event.data.customer_id === customerId)).toEqual([]);
  });

  it('gets one balance by id, the same as in the list', async () => {
    const { unitId, priceId, customerId } = await newPlan(tenant);
    await subscribeTenant(tenant, customerId, [{ priceId, quantity: 1 }]);
    const listed = await wireBalance(tenant.api, customerId, unitId);
    const single = await tenant.api.get(`/customers/${customerId}/usage-balances/${listed?.id}`);
    expect(single.status).toBe(200);
    expect(single.entity).toEqual(listed);
  });

  it('answers 404 not_found for the balances of an unknown customer', async () => {
    expectError(await tenant.api.get('/customers/ctm_01h00000000000000000000000/usage-balances'), 404, 'not_found');
  });

  it('answers 404 not_found for the balances of another account’s customer', async () => {
    const other = await newTenant(harness);
    const { priceId, customerId } = await newPlan(other);
    await subscribeTenant(other, customerId, [{ priceId, quantity: 1 }]);
    expectError(await tenant.api.get(`/customers/${customerId}/usage-balances`), 404, 'not_found');
  });

  it('answers 404 not_found for a balance asked for under another customer', async () => {
    const { unitId, priceId, customerId } = await newPlan(tenant);
    await subscribeTenant(tenant, customerId, [{ priceId, quantity: 1 }]);
    const balance = await wireBalance(tenant.api, customerId, unitId);
    const stranger = await newCustomer(tenant.api);
    expectError(await tenant.api.get(`/customers/${stranger}/usage-balances/${balance?.id}`), 404, 'not_found');
    expectError(
      await tenant.api.get(`/customers/${customerId}/usage-balances/ubl_01h00000000000000000000000`),
      404,
      'not_found',
    );
  });

  it('refuses a malformed balance or customer id in the path with 400 bad_request', async () => {
    expectError(await tenant.api.get('/customers/not-an-id/usage-balances'), 400, 'bad_request');
    const customerId = await newCustomer(tenant.api);
    expectError(await tenant.api.get(`/customers/${customerId}/usage-balances/ubl_x`), 400, 'bad_request');
  });

  it('keeps sandbox balances out of the live environment', async () => {
    const { priceId, customerId } = await newPlan(tenant);
    await subscribeTenant(tenant, customerId, [{ priceId, quantity: 1 }]);
    expectError(await tenant.live.get(`/customers/${customerId}/usage-balances`), 404, 'not_found');
  });
});
