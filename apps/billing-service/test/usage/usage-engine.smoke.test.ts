import { type BillingHarness, ENGINES } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  balanceOf,
  createAllowancePrice,
  createCustomer,
  createUnitAndMeter,
  drained,
  sandboxApi,
  sendUsage,
  startUsageHarness,
  subscribe,
} from './usage-fixtures.js';

describe.each(ENGINES)('%s: usage engine end to end', (engine) => {
  let harness: BillingHarness;
  beforeAll(async () => {
    harness = await startUsageHarness(engine);
  });
  afterAll(() => harness.close());

  it('grants, draws down, depletes, renews', async () => {
    const api = sandboxApi(harness);
    const { unitId } = await createUnitAndMeter(api, 'api_call', '2');
    const priceId = await createAllowancePrice(api, [{ unitId, amount: '10' }]);
    const customerId = await createCustomer(api);
    await subscribe(harness, customerId, [{ priceId, quantity: 1 }]);
    expect(await balanceOf(api, customerId, unitId)).toMatchObject({
      used: { total: '0' },
      remaining: { total: '10' },
    });

    const accepted = await sendUsage(api, { customerId, action: 'api_call', quantity: '3' });
    expect(accepted.status).toBe(202);
    expect(accepted.body.data).toEqual({ events: [{ event_key: expect.any(String), status: 'accepted' }] });
    await drained(harness);
    expect(await balanceOf(api, customerId, unitId)).toMatchObject({ used: { total: '6' }, remaining: { total: '4' } });

    await sendUsage(api, { customerId, action: 'api_call', quantity: '2.5' });
    await drained(harness);
    expect(await balanceOf(api, customerId, unitId)).toMatchObject({
      used: { total: '10' },
      remaining: { total: '0' },
      overage: { total: '1' },
    });
    const events = await api.data<{ event_type: string }[]>('GET', '/events?event_type=usage_balance.depleted');
    expect(events).toHaveLength(1);

    const advanced = await api.data<{ steps_run: number }>('POST', '/sandbox-clock/advance', { seconds: 32 * 86_400 });
    expect(advanced.steps_run).toBeGreaterThanOrEqual(1);
    expect(await balanceOf(api, customerId, unitId)).toMatchObject({
      used: { total: '0' },
      remaining: { total: '10' },
      overage: { total: '0' },
    });
  });
});
