/**
 * Two service instances on one database, each with its own connections, HTTP servers and
 * workers, as two processes would run them. The same events reach both, many times over and all
 * at once: each counts once, remaining never goes below 0, and each depletion is announced once.
 * Renewals run by both at once happen once per period.
 */
import { applyEntry, balanceTotals, Decimal, EMPTY_BALANCE, type LedgerEntry, nextDueAt } from '@drawdown/billing-core';
import {
  type CoreServices,
  composeServices,
  type RunningService,
  resolveServiceConfig,
  startService,
} from '@drawdown/billing-service';
import { type BillingHarness, ENGINES } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, apiClient } from '../support/api-client.js';
import {
  drained,
  eventsOfType,
  expectBalancesRecomputable,
  newPlan,
  newPrice,
  newTenant,
  startUsageHarness,
  subscribeTenant,
  type Tenant,
  totals,
  type UsageEventBody,
  usageEvent,
} from './usage-fixtures.js';

/** Runs `work` over `items` with at most `limit` in flight. */
async function inParallel<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const position = next;
        next += 1;
        results[position] = await work(items[position] as T);
      }
    }),
  );
  return results;
}

/** A fixed shuffle, so a failure replays the same way. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const copy = [...items];
  let state = seed;
  for (let index = copy.length - 1; index > 0; index -= 1) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    const other = state % (index + 1);
    [copy[index], copy[other]] = [copy[other] as T, copy[index] as T];
  }
  return copy;
}

describe.each(ENGINES)('%s: two service instances on one database', (engine) => {
  let harness: BillingHarness;
  let second: { services: CoreServices; service: RunningService };

  beforeAll(async () => {
    harness = await startUsageHarness(engine);
    const config = resolveServiceConfig(
      {
        'data-dir': harness.dataDir,
        'live-port': '0',
        'sandbox-port': '0',
        'rate-limit': 'off',
        ...(harness.databaseUrl ? { 'database-url': harness.databaseUrl } : {}),
      },
      { DRAWDOWN_SCHEDULER_POLL_MS: '20', DRAWDOWN_DRAWDOWN_POLL_MS: '10' },
    );
    const services = await composeServices(config);
    second = { services, service: await startService(services, config) };
  });
  afterAll(async () => {
    await second?.service.close();
    await harness.close();
  });

  /** The tenant's sandbox API on the second instance. */
  async function onSecond(tenant: Tenant): Promise<ApiClient> {
    const key = await harness.createKey({ environment: 'sandbox', permissions: ['all'], accountId: tenant.accountId });
    return apiClient(second.service.sandboxUrl, key);
  }

  /** Sends every event `copies` times to each instance, shuffled, many at once; all must be accepted. */
  async function flood(apis: readonly ApiClient[], events: readonly UsageEventBody[], copies: number) {
    const sends = shuffled(
      events.flatMap((event) => apis.flatMap((api) => Array.from({ length: copies }, () => ({ api, event })))),
      events.length,
    );
    const results = await inParallel(sends, 24, async ({ api, event }) => {
      const response = await api.post('/usage-events', { events: [event] });
      return `${response.status} ${JSON.stringify(response.entity.events)}`;
    });
    const refused = results.filter((result) => !result.startsWith('202') || !result.includes('"accepted"'));
    expect(refused).toEqual([]);
  }

  /** Replays the ledger entry by entry: remaining never below 0, and the depletions it flags. */
  async function depletionsInLedger(tenant: Tenant, customerId: string): Promise<number> {
    const [balance] = (
      await harness.services.store.usageBalances.list(tenant.scope, {
        filter: { customer_id: [{ op: 'in', values: [customerId] }] },
        perPage: 10,
        direction: 'asc',
      })
    ).items;
    const ledger: readonly LedgerEntry[] = await harness.services.store.usageBalances.ledger(
      tenant.scope,
      balance?.id ?? '',
    );
    let state = EMPTY_BALANCE;
    let depletions = 0;
    for (const entry of ledger) {
      const outcome = applyEntry(state, entry);
      state = outcome.state;
      if (outcome.depleted) depletions += 1;
      expect(Decimal.parse(balanceTotals(state).remaining).isNegative()).toBe(false);
    }
    return depletions;
  }

  it('counts each event once and announces each depletion once when both instances take the same events', async () => {
    const tenant = await newTenant(harness);
    const apis = [tenant.api, await onSecond(tenant)];
    const { unitId, action, priceId } = await newPlan(tenant, { amount: '20' });
    const customers: { customerId: string; subscriptionId: string }[] = [];
    for (let index = 0; index < 3; index += 1) {
      const customerId = (await tenant.api.post('/customers', { email: `both-${index}-${Date.now()}@example.com` })).id;
      customers.push({
        customerId,
        subscriptionId: await subscribeTenant(tenant, customerId, [{ priceId, quantity: 1 }]),
      });
    }
    const round = (count: number, stem: string) =>
      customers.flatMap(({ customerId }) =>
        Array.from({ length: count }, (_, index) =>
          usageEvent({ customer_id: customerId, action, quantity: '1', event_key: `${stem}-${index}` }),
        ),
      );

    await flood(apis, round(30, 'first'), 2);
    await drained(harness);
    for (const { customerId } of customers) {
      expect(await totals(tenant, customerId, unitId)).toEqual({ used: '20', remaining: '0', overage: '10' });
      expect(await harness.services.store.usageEvents.listByCustomer(tenant.scope, customerId)).toHaveLength(30);
      expect(await depletionsInLedger(tenant, customerId)).toBe(1);
      await expectBalancesRecomputable(harness, tenant.scope, customerId);
    }
    const depleted = await eventsOfType(tenant, 'usage_balance.depleted');
    expect(depleted.map((event) => event.data.customer_id).sort()).toEqual(customers.map((c) => c.customerId).sort());

    // A plan change grants more; running out again is a second depletion, announced once.
    const bigger = await newPrice(tenant.api, [{ unitId, amount: '15' }]);
    for (const { subscriptionId } of customers) {
      const response = await apis[1]?.patch(`/subscriptions/${subscriptionId}`, {
        items: [{ price_id: bigger, quantity: 1 }],
        proration_billing_mode: 'full_immediately',
      });
      expect(response?.status).toBe(200);
    }
    await flood(apis, round(20, 'second'), 2);
    await drained(harness);
    for (const { customerId } of customers) {
      expect(await totals(tenant, customerId, unitId)).toEqual({ used: '15', remaining: '0', overage: '15' });
      expect(await depletionsInLedger(tenant, customerId)).toBe(2);
      await expectBalancesRecomputable(harness, tenant.scope, customerId);
    }
    expect(await eventsOfType(tenant, 'usage_balance.depleted')).toHaveLength(2 * customers.length);
  });

  it('runs each renewal once when both instances move the clock and renew at the same time', async () => {
    const tenant = await newTenant(harness);
    const apis = [tenant.api, await onSecond(tenant)];
    const { unitId, priceId } = await newPlan(tenant, { amount: '10' });
    const subscriptions: string[] = [];
    const customers: string[] = [];
    for (let index = 0; index < 6; index += 1) {
      const customerId = (await tenant.api.post('/customers', { email: `renew-${index}-${Date.now()}@example.com` }))
        .id;
      customers.push(customerId);
      subscriptions.push(await subscribeTenant(tenant, customerId, [{ priceId, quantity: 1 }]));
    }
    // Past the end of the third period of every subscription.
    const target = new Date(Date.now() + 95 * 86_400_000).toISOString();
    const moves = await Promise.all(apis.map((api) => api.post('/sandbox-clock/advance', { to: target })));
    for (const move of moves) {
      // The later mover may find the clock already past its target.
      if (move.status !== 200) expect(move.body.error?.code).toBe('sandbox_clock_cannot_go_back');
    }
    const stepsRun = moves.reduce((sum, move) => sum + (move.status === 200 ? Number(move.entity.steps_run) : 0), 0);
    expect(stepsRun).toBe(3 * subscriptions.length);

    const updates = await eventsOfType(tenant, 'subscription.updated');
    for (const subscriptionId of subscriptions) {
      const renewals = updates.filter((event) => event.data.id === subscriptionId).map((event) => event.occurred_at);
      expect(renewals).toHaveLength(3);
      expect(new Set(renewals).size).toBe(3);
    }
    await drained(harness);
    for (const customerId of customers) {
      expect(await totals(tenant, customerId, unitId)).toEqual({ used: '0', remaining: '10', overage: '0' });
      const [balance] = (
        await harness.services.store.usageBalances.list(tenant.scope, {
          filter: { customer_id: [{ op: 'in', values: [customerId] }] },
          perPage: 10,
          direction: 'asc',
        })
      ).items;
      const ledger = await harness.services.store.usageBalances.ledger(tenant.scope, balance?.id ?? '');
      expect(ledger.filter((entry) => entry.kind === 'grant')).toHaveLength(4);
    }
  });

  it('runs each renewal once when both background schedulers find it due', async () => {
    const tenant = await newTenant(harness);
    const { priceId } = await newPlan(tenant, { amount: '10' });
    const subscriptions: string[] = [];
    for (let index = 0; index < 6; index += 1) {
      const customerId = (await tenant.api.post('/customers', { email: `sched-${index}-${Date.now()}@example.com` }))
        .id;
      subscriptions.push(await subscribeTenant(tenant, customerId, [{ priceId, quantity: 1 }]));
    }
    // Moving the stored offset, as an operator or a third process would, leaves the work to the schedulers.
    await harness.services.store.sandboxClocks.setOffset(tenant.accountId, 64 * 86_400_000);
    const renewalsOf = async () => {
      const updates = await eventsOfType(tenant, 'subscription.updated');
      return subscriptions.map((id) => updates.filter((event) => event.data.id === id).length);
    };
    // Wait until nothing is due any more: from then on no scheduler has a step left to run.
    const quiet = async () => {
      const now = new Date(Date.now() + 64 * 86_400_000).toISOString();
      for (const id of subscriptions) {
        const subscription = await harness.services.store.subscriptions.findById(tenant.scope, id);
        const due = subscription ? nextDueAt(subscription) : null;
        if (due === null || due <= now) return false;
      }
      return true;
    };
    for (let attempt = 0; attempt < 400 && !(await quiet()); attempt += 1) {
      await new Promise((done) => setTimeout(done, 25));
    }
    expect(await quiet()).toBe(true);
    expect(await renewalsOf()).toEqual(subscriptions.map(() => 2));
    for (const id of subscriptions) {
      const subscription = await harness.services.store.subscriptions.findById(tenant.scope, id);
      expect(subscription?.internal.periodIndex).toBe(2);
    }
  });
});
