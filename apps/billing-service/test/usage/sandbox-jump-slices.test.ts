/**
 * A long sandbox jump never holds the service (ADR 0900): the due steps run in slices of
 * `DUE_STEPS_PER_SLICE`, each step its own database transaction, and between slices the jump
 * yields to the rest of the process; another account's live request is served in the middle
 * of the jump. The jump is bounded like `seconds`: `to` at most 3660 days ahead.
 */
import {
  advanceSandboxClock,
  DEFAULT_SANDBOX_JUMP_QUOTAS,
  DUE_STEPS_PER_SLICE,
  MAX_SANDBOX_ADVANCE_MS,
} from '@drawdown/billing-core';
import { type BillingHarness, ENGINES } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectInvalidField } from '../support/api-client.js';
import { newPlan, newTenant, sandboxNow, startUsageHarness, subscribeTenant } from './usage-fixtures.js';

const SUBSCRIPTIONS = 3;
const MONTHS = 12;

describe.each(ENGINES)('%s: sandbox jumps in slices', (engine) => {
  let harness: BillingHarness;

  beforeAll(async () => {
    harness = await startUsageHarness(engine);
  });
  afterAll(() => harness.close());

  it('yields between slices of due steps, and serves another account’s live request mid-jump', async () => {
    const tenant = await newTenant(harness);
    const plan = await newPlan(tenant);
    for (let index = 0; index < SUBSCRIPTIONS; index += 1) {
      const customerId =
        index === 0
          ? plan.customerId
          : String((await tenant.api.post('/customers', { email: `j${index}-${Date.now()}@example.com` })).id);
      await subscribeTenant(tenant, customerId, [{ priceId: plan.priceId, quantity: 1 }]);
    }
    const other = await newTenant(harness);
    const account = await harness.services.store.accounts.findById(tenant.accountId);
    if (!account) throw new Error('tenant account missing');

    const served: number[] = [];
    let yields = 0;
    const target = (await sandboxNow(tenant)) + MONTHS * 31 * 86_400_000;
    const result = await advanceSandboxClock(
      {
        store: harness.services.store,
        ids: harness.services.ids,
        wallClock: harness.services.clock,
        account,
        taxIds: undefined,
        // The jump is measured on its renewals alone: no payment recovery steps.
        recoveries: { nextDueAt: async () => undefined, run: async () => 0 },
        quotas: DEFAULT_SANDBOX_JUMP_QUOTAS,
        stepsPerTransaction: 1,
        pause: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
        yieldToOthers: async () => {
          yields += 1;
          // The rest of the process runs here: the live API answers another account at once.
          if (yields === 2) served.push((await other.live.get('/products')).status);
        },
      },
      target,
      'success',
    );
    expect(result.stepsRun).toBe(SUBSCRIPTIONS * MONTHS);
    expect(yields).toBeGreaterThanOrEqual(Math.floor(result.stepsRun / DUE_STEPS_PER_SLICE) - 1);
    expect(served).toEqual([200]);
  });

  it('refuses a jump further than 3660 days, by `to` or by `seconds`, and keeps the clock', async () => {
    const tenant = await newTenant(harness);
    const now = await sandboxNow(tenant);
    const tooFar = new Date(now + MAX_SANDBOX_ADVANCE_MS + 86_400_000).toISOString();
    expectInvalidField(await tenant.api.post('/sandbox-clock/advance', { to: tooFar }), 'to');
    expectInvalidField(await tenant.api.post('/sandbox-clock/advance', { to: '2999-01-01T00:00:00Z' }), 'to');
    expectInvalidField(await tenant.api.post('/sandbox-clock/advance', { seconds: 10 * 366 * 86_400 + 1 }), 'seconds');
    expect((await tenant.api.get('/sandbox-clock')).entity.offset_seconds).toBe(0);
    const nearlyTenYears = new Date(now + MAX_SANDBOX_ADVANCE_MS - 86_400_000).toISOString();
    expect((await tenant.api.post('/sandbox-clock/advance', { to: nearlyTenYears })).status).toBe(200);
  });
});
