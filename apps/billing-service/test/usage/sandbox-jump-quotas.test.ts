/**
 * Sandbox jumps have quotas (ADR 1487): a jump is planned before anything changes, and one that
 * would run more renewals, scheduled changes and payment retries than one jump may
 * (`--sandbox-jump-steps`), or than are left of the account's day (`--sandbox-daily-steps`), is
 * refused with its code while the clock, the subscriptions, the transactions and the events stay
 * as they were. On SQLite the WAL file a long jump grew is emptied after it (ADR 1488); on
 * PostgreSQL the jump's steps share their commits (ADR 1488).
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import {
  advanceSandboxClock,
  DEFAULT_SANDBOX_JUMP_QUOTAS,
  planSandboxJump,
  type Store,
  toTimestamp,
} from '@drawdown/billing-core';
import { type BillingHarness, ENGINES } from '@drawdown/testkit';
import Sqlite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dueStepsPerTransaction } from '../../src/compose-services.js';
import { expectError } from '../support/api-client.js';
import {
  newCustomer,
  newPlan,
  newTenant,
  sandboxNow,
  startUsageHarness,
  subscribeTenant,
  type Tenant,
} from './usage-fixtures.js';

const DAY_SECONDS = 86_400;
/** N × 31 days holds exactly N monthly renewals (N months last 28N to 31N days) for N up to 6. */
const months = (count: number) => count * 31 * DAY_SECONDS;

/** A tenant with `count` monthly subscriptions; their ids. */
async function subscribed(tenant: Tenant, count: number): Promise<string[]> {
  const plan = await newPlan(tenant);
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const customerId = index === 0 ? plan.customerId : await newCustomer(tenant.api);
    ids.push(await subscribeTenant(tenant, customerId, [{ priceId: plan.priceId, quantity: 1 }]));
  }
  return ids;
}

/** What a refused jump must leave as it was: the clock, the subscriptions, transactions and events. */
async function snapshot(tenant: Tenant, subscriptionIds: readonly string[]) {
  const clock = (await tenant.api.get('/sandbox-clock')).entity;
  const subscriptions = await Promise.all(
    subscriptionIds.map(async (id) => {
      const entity = (await tenant.api.get(`/subscriptions/${id}`)).entity;
      return [entity.status, entity.next_billed_at, entity.updated_at];
    }),
  );
  const transactions = (await tenant.api.get('/transactions?per_page=200')).list.map((item) => item.id);
  const events = (await tenant.api.get('/events?per_page=200')).list.map((item) => item.event_id);
  return { offset: clock.offset_seconds, subscriptions, transactions, events };
}

describe.each(ENGINES)('%s: sandbox jump quotas', (engine) => {
  let harness: BillingHarness;

  beforeAll(async () => {
    harness = await startUsageHarness(engine, { sandboxJumpSteps: 10, sandboxDailySteps: 25 });
  });
  afterAll(() => harness.close());

  it('refuses a jump of more steps than one jump may run, by `seconds` or `to`, and changes nothing', async () => {
    const tenant = await newTenant(harness);
    const ids = await subscribed(tenant, 2);
    const before = await snapshot(tenant, ids);

    // Six months of two subscriptions: twelve renewals, over the ten one jump may run.
    const bySeconds = expectError(
      await tenant.api.post('/sandbox-clock/advance', { seconds: months(6) }),
      400,
      'sandbox_jump_too_large',
    );
    expect(bySeconds.detail).toContain('more than 10');
    const to = new Date((await sandboxNow(tenant)) + months(6) * 1000).toISOString();
    expectError(await tenant.api.post('/sandbox-clock/advance', { to }), 400, 'sandbox_jump_too_large');
    expect(await snapshot(tenant, ids)).toEqual(before);

    // Exactly ten fits: the plan is the jump's own count.
    const fits = await tenant.api.post('/sandbox-clock/advance', { seconds: months(5) });
    expect(fits.status, fits.text).toBe(200);
    expect(fits.entity.steps_run).toBe(10);
  });

  it('refuses a jump that does not fit in what is left of the account’s day, and changes nothing', async () => {
    const tenant = await newTenant(harness);
    const ids = await subscribed(tenant, 2);
    for (const expected of [10, 10]) {
      const jump = await tenant.api.post('/sandbox-clock/advance', { seconds: months(5) });
      expect(jump.status, jump.text).toBe(200);
      expect(jump.entity.steps_run).toBe(expected);
    }
    const before = await snapshot(tenant, ids);
    // Three more months are six renewals: 26 of the day's 25.
    const refused = expectError(
      await tenant.api.post('/sandbox-clock/advance', { seconds: months(3) }),
      429,
      'sandbox_daily_quota_exceeded',
    );
    expect(refused.detail).toContain('5 are left');
    expect(await snapshot(tenant, ids)).toEqual(before);
    // Another account's day is its own.
    const other = await newTenant(harness);
    await subscribed(other, 2);
    expect((await other.api.post('/sandbox-clock/advance', { seconds: months(5) })).status).toBe(200);
    // What is left still runs, and a jump with nothing due always does.
    const rest = await tenant.api.post('/sandbox-clock/advance', { seconds: months(2) });
    expect(rest.status, rest.text).toBe(200);
    expect(rest.entity.steps_run).toBe(4);
    expect((await tenant.api.post('/sandbox-clock/advance', { seconds: 3_600 })).status).toBe(200);
    expectError(
      await tenant.api.post('/sandbox-clock/advance', { seconds: months(1) }),
      429,
      'sandbox_daily_quota_exceeded',
    );
  });

  it('plans scheduled pauses, resumes and cancellations as the jump runs them', async () => {
    const tenant = await newTenant(harness);
    const [paused, canceled, renewed] = await subscribed(tenant, 3);
    const now = await sandboxNow(tenant);
    // Paused at the end of its period, resumed two and a half months later into a new period.
    const pause = await tenant.api.post(`/subscriptions/${paused}/pause`, {
      effective_from: 'next_billing_period',
      resume_at: new Date(now + 75 * DAY_SECONDS * 1000).toISOString(),
    });
    expect(pause.status, pause.text).toBe(200);
    const cancel = await tenant.api.post(`/subscriptions/${canceled}/cancel`, {
      effective_from: 'next_billing_period',
    });
    expect(cancel.status, cancel.text).toBe(200);
    expect(renewed).toBeDefined();
    const target = now + months(3) * 1000;
    const planned = await planSandboxJump(
      harness.services.store,
      tenant.scope,
      toTimestamp(target),
      'success',
      Number.MAX_SAFE_INTEGER,
    );
    const jump = await tenant.api.post('/sandbox-clock/advance', { to: new Date(target).toISOString() });
    expect(jump.status, jump.text).toBe(200);
    // The pause and the resume (its new period ends after the jump); the cancellation; three renewals.
    expect(jump.entity.steps_run).toBe(6);
    expect(planned).toBe(jump.entity.steps_run);
  });

  it('counts the payment retries a failing renewal may start in the plan', async () => {
    // A declined automatic renewal may start payment recovery: retries 1, 3, 5, 8 and 12 days
    // after it fall in a month and a half, so one subscription plans at most six steps.
    const once = await newTenant(harness);
    await subscribed(once, 1);
    const declined = await once.api.post('/sandbox-clock/advance', {
      seconds: 45 * DAY_SECONDS,
      renewal_payments: 'failure',
    });
    expect(declined.status, declined.text).toBe(200);
    expect(declined.entity.steps_run).toBeGreaterThanOrEqual(1);
    expect(declined.entity.steps_run).toBeLessThanOrEqual(6);
    // Two subscriptions failing that way plan twelve, over the ten, and are refused before they
    // start; paid, the same jump is two renewals.
    const twice = await newTenant(harness);
    await subscribed(twice, 2);
    expectError(
      await twice.api.post('/sandbox-clock/advance', { seconds: 45 * DAY_SECONDS, renewal_payments: 'failure' }),
      400,
      'sandbox_jump_too_large',
    );
    const paid = await twice.api.post('/sandbox-clock/advance', { seconds: 45 * DAY_SECONDS });
    expect(paid.status, paid.text).toBe(200);
    expect(paid.entity.steps_run).toBe(2);
  });
});

describe.each(ENGINES)('%s: a long sandbox jump’s writes', (engine) => {
  let harness: BillingHarness;

  beforeAll(async () => {
    harness = await startUsageHarness(engine, { sqliteWalLimitMb: 1 });
  });
  afterAll(() => harness.close());

  it.runIf(engine === 'sqlite')(
    'leaves the WAL file under its limit after the jump',
    async () => {
      const limit = 1024 * 1024;
      const tenant = await newTenant(harness);
      await subscribed(tenant, 6);
      const file = join(harness.dataDir, 'drawdown.sqlite');
      const walSize = () => statSync(`${file}-wal`).size;
      // A reader holding its snapshot through the jump keeps every frame of it in the WAL, as
      // other requests reading during a long jump do.
      const reader = new Sqlite(file, { readonly: true });
      reader.exec('begin');
      reader.prepare('select count(*) from subscriptions').get();
      const jump = await tenant.api.post('/sandbox-clock/advance', { seconds: 366 * DAY_SECONDS });
      expect(jump.status, jump.text).toBe(200);
      expect(jump.entity.steps_run).toBe(72);
      expect(walSize()).toBeGreaterThan(limit);
      reader.exec('commit');
      reader.close();
      // Polled, not timed: the checkpoint thread empties the file on one of its next turns.
      for (let attempt = 0; attempt < 1_500 && walSize() > limit; attempt += 1) {
        await new Promise((done) => setTimeout(done, 20));
      }
      expect(walSize()).toBeLessThanOrEqual(limit);
    },
    120_000,
  );

  it.runIf(engine === 'postgres')('runs the jump’s steps several to a commit, in the same order', async () => {
    const tenant = await newTenant(harness);
    await subscribed(tenant, 3);
    const account = await harness.services.store.accounts.findById(tenant.accountId);
    if (!account) throw new Error('tenant account missing');
    // The service's own store, with its transactions counted.
    const store = harness.services.store;
    let transactions = 0;
    const counted: Store = {
      ...store,
      transaction: (work) => {
        transactions += 1;
        return store.transaction(work);
      },
    };
    const jump = (seconds: number) =>
      advanceSandboxClock(
        {
          store: counted,
          ids: harness.services.ids,
          wallClock: harness.services.clock,
          account,
          pause: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
          yieldToOthers: async () => {},
          taxIds: undefined,
          // Counted on its renewals alone: no payment recovery steps.
          recoveries: { nextDueAt: async () => undefined, run: async () => 0 },
          quotas: DEFAULT_SANDBOX_JUMP_QUOTAS,
          stepsPerTransaction: dueStepsPerTransaction({ databaseUrl: harness.databaseUrl }),
        },
        { by: seconds * 1000 },
        'success',
      );
    // What a jump with nothing due commits (its drain and overdue invoices), to count apart.
    expect((await jump(60)).stepsRun).toBe(0);
    const idle = transactions;
    transactions = 0;
    const result = await jump(months(6));
    expect(result.stepsRun).toBe(18);
    // Eighteen steps, ten to a commit: two commits, not eighteen.
    expect(transactions - idle).toBe(2);
    // Each subscription renewed six times, its transactions in time order.
    const renewals = (await tenant.api.get('/transactions?origin=subscription_recurring&per_page=200')).list;
    expect(renewals).toHaveLength(18);
  });
});
