/**
 * `GET /customers/{id}/usage-balances/{id}/periods` (ADR 1442) over real HTTP on both engines:
 * each billing period's allowance, everything used in it and the part past the allowance, newest
 * first, replayed from the ledger; a period stays as it was after a renewal; another customer's
 * balance is not found.
 */
import { type BillingHarness, ENGINES } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/api-client.js';
import {
  advance,
  drained,
  newCustomer,
  newPlan,
  newTenant,
  postUsage,
  startUsageHarness,
  subscribeTenant,
  subscriptionOf,
  wireBalance,
} from './usage-fixtures.js';

describe.each(ENGINES)('%s: usage per billing period', (engine) => {
  let harness: BillingHarness;

  beforeAll(async () => {
    harness = await startUsageHarness(engine);
  });
  afterAll(() => harness.close());

  it('answers each period’s allowance, usage and overage, newest first, across a renewal', async () => {
    const tenant = await newTenant(harness);
    const { unitId, action, priceId, customerId } = await newPlan(tenant, { amount: '100' });
    const subscriptionId = await subscribeTenant(tenant, customerId, [{ priceId, quantity: 1 }]);
    // First period: 100 allowed, 118 used (18 over).
    await postUsage(tenant.api, { customer_id: customerId, action, quantity: '60' });
    await postUsage(tenant.api, { customer_id: customerId, action, quantity: '58' });
    await drained(harness);
    const balance = await wireBalance(tenant.api, customerId, unitId);
    const path = `/customers/${customerId}/usage-balances/${balance?.id}/periods`;
    const first = await tenant.api.get(path);
    expect(first.status, first.text).toBe(200);
    expect(first.body.data).toEqual([
      { starts_at: expect.any(String), ends_at: null, allowance: '100', used: '118', overage: '18' },
    ]);

    // Renew, then use 40.5 in the second period.
    const end = String(
      ((await subscriptionOf(tenant, subscriptionId)).current_billing_period as { ends_at: string }).ends_at,
    );
    await advance(tenant, { to: new Date(Date.parse(end) + 1_000).toISOString() });
    await postUsage(tenant.api, { customer_id: customerId, action, quantity: '40.5' });
    await drained(harness);
    const both = await tenant.api.get(path);
    const periods = both.body.data as { starts_at: string; ends_at: string | null }[];
    expect(periods).toMatchObject([
      { ends_at: null, allowance: '100', used: '40.5', overage: '0' },
      { allowance: '100', used: '118', overage: '18' },
    ]);
    expect(periods[1]?.ends_at).toBe(periods[0]?.starts_at);
  });

  it('refuses another customer’s balance and malformed ids', async () => {
    const tenant = await newTenant(harness);
    const { unitId, action, priceId, customerId } = await newPlan(tenant, { amount: '10' });
    await subscribeTenant(tenant, customerId, [{ priceId, quantity: 1 }]);
    await postUsage(tenant.api, { customer_id: customerId, action, quantity: '1' });
    await drained(harness);
    const balance = await wireBalance(tenant.api, customerId, unitId);
    const stranger = await newCustomer(tenant.api);
    expectError(await tenant.api.get(`/customers/${stranger}/usage-balances/${balance?.id}/periods`), 404, 'not_found');
    expectError(await tenant.api.get(`/customers/${customerId}/usage-balances/nope/periods`), 400, 'bad_request');
    const other = await newTenant(harness);
    expectError(
      await other.api.get(`/customers/${customerId}/usage-balances/${balance?.id}/periods`),
      404,
      'not_found',
    );
  });
});
