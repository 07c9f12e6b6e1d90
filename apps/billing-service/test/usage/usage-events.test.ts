/**
 * Usage events over real HTTP on both engines: drawdown by meters, rules 1, 5, 6 and 7, the
 * time window, unknown customers and malformed fields. Each balance is checked against a
 * recomputation from its ledger and the recorded events.
 */
import { type BillingHarness, ENGINES } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectInvalidField } from '../support/api-client.js';
import {
  advance,
  drained,
  expectBalancesRecomputable,
  newCustomer,
  newMeter,
  newPlan,
  newPrice,
  newTenant,
  newUnit,
  postUsage,
  sandboxNow,
  startUsageHarness,
  subscribeTenant,
  type Tenant,
  totals,
  uniqueAction,
  usageEvent,
} from './usage-fixtures.js';

const DAY_MS = 86_400_000;

describe.each(ENGINES)('%s: usage events', (engine) => {
  let harness: BillingHarness;
  let tenant: Tenant;

  beforeAll(async () => {
    harness = await startUsageHarness(engine);
    tenant = await newTenant(harness);
  });
  afterAll(() => harness.close());

  async function recorded(customerId: string, scope = tenant.scope) {
    return harness.services.store.usageEvents.listByCustomer(scope, customerId);
  }

  /** Sum of the amounts the customer's recorded events resolved for the unit. */
  async function resolvedSum(customerId: string, unitId: string): Promise<number> {
    let sum = 0;
    for (const event of await recorded(customerId)) {
      for (const drawdown of event.drawdowns) {
        if (drawdown.usageBalanceUnitId === unitId) sum += Number(drawdown.amount);
      }
    }
    return sum;
  }

  describe('drawdown', () => {
    it('draws quantity × rate from the customer’s balance shortly after acceptance', async () => {
      const { unitId, action, priceId, customerId } = await newPlan(tenant, { rate: '2.5', amount: '100' });
      await subscribeTenant(tenant, customerId, [{ priceId, quantity: 1 }]);
      const result = await postUsage(tenant.api, { customer_id: customerId, action, quantity: '3' });
      expect(result).toEqual({ event_key: expect.any(String), status: 'accepted' });
      expect(await totals(tenant, customerId, unitId)).toEqual({ used: '7.5', remaining: '92.5', overage: '0' });
      await expectBalancesRecomputable(harness, tenant.scope, customerId);
    });

    it('keeps exact decimals: ten events of 0.1 draw exactly 1', async () => {
      const { unitId, action, priceId, customerId } = await newPlan(tenant, { amount: '1.5' });
      await subscribeTenant(tenant, customerId, [{ priceId, quantity: 1 }]);
      for (let index = 0; index < 10; index += 1) {
        await postUsage(tenant.api, { customer_id: customerId, action, quantity: '0.1' });
      }
      expect(await totals(tenant, customerId, unitId)).toEqual({ used: '1', remaining: '0.5', overage: '0' });
    });

    it('several meters on one unit each draw at their own rate', async () => {
      const { unitId, action, priceId, customerId } = await newPlan(tenant, { rate: '1', amount: '100' });
      const other = uniqueAction('upload');
      await newMeter(tenant.api, unitId, other, '10');
      await subscribeTenant(tenant, customerId, [{ priceId, quantity: 1 }]);
      await postUsage(tenant.api, { customer_id: customerId, action, quantity: '2' });
      await postUsage(tenant.api, { customer_id: customerId, action: other, quantity: '3' });
      expect(await totals(tenant, customerId, unitId)).toEqual({ used: '32', remaining: '68', overage: '0' });
      await expectBalancesRecomputable(harness, tenant.scope, customerId);
    });

    it('an action matching meters on two units draws both', async () => {
      const calls = await newUnit(tenant.api);
      const credits = await newUnit(tenant.api);
      const action = uniqueAction('search');
      await newMeter(tenant.api, calls, action, '1');
      await newMeter(tenant.api, credits, action, '0.25');
      const priceId = await newPrice(tenant.api, [
        { unitId: calls, amount: '10' },
        { unitId: credits, amount: '10' },
      ]);
      const customerId = await newCustomer(tenant.api);
      await subscribeTenant(tenant, customerId, [{ priceId, quantity: 1 }]);
      await postUsage(tenant.api, { customer_id: customerId, action, quantity: '4' });
      expect(await totals(tenant, customerId, calls)).toEqual({ used: '4', remaining: '6', overage: '0' });
      expect(await totals(tenant, customerId, credits)).toEqual({ used: '1', remaining: '9', overage: '0' });
      await expectBalancesRecomputable(harness, tenant.scope, customerId);
    });

    it('accepts an event for an action that matches no meter and draws nothing, with no error', async () => {
      const { unitId, priceId, customerId } = await newPlan(tenant);
      await subscribeTenant(tenant, customerId, [{ priceId, quantity: 1 }]);
      const result = await postUsage(tenant.api, { customer_id: customerId, action: uniqueAction('nothing') });
      expect(result).toEqual({ event_key: expect.any(String), status: 'accepted' });
      expect(await totals(tenant, customerId, unitId)).toEqual({ used: '0', remaining: '10', overage: '0' });
      const [event] = await recorded(customerId);
      expect(event?.drawdowns).toEqual([]);
    });

    it('never takes remaining below 0: the excess becomes overage with overage.started_at, and used excludes it', async () => {
      const { unitId, action, priceId, customerId } = await newPlan(tenant, { amount: '5' });
      await subscribeTenant(tenant, customerId, [{ priceId, quantity: 1 }]);
      await postUsage(tenant.api, { customer_id: customerId, action, quantity: '3' });
      await drained(harness);
      const before = Date.now();
      await postUsage(tenant.api, { customer_id: customerId, action, quantity: '4' });
      await postUsage(tenant.api, { customer_id: customerId, action, quantity: '1.5' });
      expect(await totals(tenant, customerId, unitId)).toEqual({ used: '5', remaining: '0', overage: '3.5' });
      const response = await tenant.api.get(`/customers/${customerId}/usage-balances`);
      const overage = (response.list[0]?.balance as { overage: { started_at: string | null } }).overage;
      expect(Date.parse(String(overage.started_at))).toBeGreaterThanOrEqual(before - 1_000);
      // The allowance is still used + remaining; overage is on top.
      expect(await resolvedSum(customerId, unitId)).toBe(5 + 3.5);
      await expectBalancesRecomputable(harness, tenant.scope, customerId);
    });
  });

  describe('rule 1: rate and action changes affect only new usage', () => {
    it('a rate change does not re-rate recorded usage', async () => {
      const { unitId, meterId, action, priceId, customerId } = await newPlan(tenant, { rate: '1', amount: '100' });
      await subscribeTenant(tenant, customerId, [{ priceId, quantity: 1 }]);
      await postUsage(tenant.api, { customer_id: customerId, action, quantity: '2' });
      await drained(harness);
      const patched = await tenant.api.patch(`/meters/${meterId}`, { rate: '5' });
      expect(patched.status, patched.text).toBe(200);
      await postUsage(tenant.api, { customer_id: customerId, action, quantity: '2' });
      expect(await totals(tenant, customerId, unitId)).toEqual({ used: '12', remaining: '88', overage: '0' });
      expect((await recorded(customerId)).map((event) => event.drawdowns[0]?.amount)).toEqual(['2', '10']);
      await expectBalancesRecomputable(harness, tenant.scope, customerId);
    });

    it('after an action change, events with the old action no longer draw the meter’s unit; the new one does', async () => {
      const { unitId, meterId, action, priceId, customerId } = await newPlan(tenant, { amount: '100' });
      await subscribeTenant(tenant, customerId, [{ priceId, quantity: 1 }]);
      await postUsage(tenant.api, { customer_id: customerId, action, quantity: '1' });
      await drained(harness);
      const renamed = uniqueAction('renamed');
      expect((await tenant.api.patch(`/meters/${meterId}`, { action: renamed })).status).toBe(200);
      expect((await postUsage(tenant.api, { customer_id: customerId, action, quantity: '7' })).status).toBe('accepted');
      await postUsage(tenant.api, { customer_id: customerId, action: renamed, quantity: '2' });
      expect(await totals(tenant, customerId, unitId)).toEqual({ used: '3', remaining: '97', overage: '0' });
      await expectBalancesRecomputable(harness, tenant.scope, customerId);
    });

    it('archived meters still draw down balances', async () => {
      const { unitId, meterId, action, priceId, customerId } = await newPlan(tenant, { rate: '3' });
      await subscribeTenant(tenant, customerId, [{ priceId, quantity: 1 }]);
      const archived = await tenant.api.patch(`/meters/${meterId}`, { status: 'archived' });
      expect(archived.entity.status).toBe('archived');
      await postUsage(tenant.api, { customer_id: customerId, action, quantity: '2' });
      expect(await totals(tenant, customerId, unitId)).toEqual({ used: '6', remaining: '4', overage: '0' });
    });
  });

  describe('rule 6: an event counts once per customer, action, event_key and occurred_at', () => {
    it('a resend with the same event_key and occurred_at changes nothing and is answered accepted', async () => {
      const { unitId, action, priceId, customerId } = await newPlan(tenant, { amount: '100' });
      await subscribeTenant(tenant, customerId, [{ priceId, quantity: 1 }]);
      const event = usageEvent({ customer_id: customerId, action, quantity: '4' });
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const response = await tenant.api.post('/usage-events', { events: [event] });
        expect(response.status).toBe(202);
        expect(response.entity.events).toEqual([{ event_key: event.event_key, status: 'accepted' }]);
      }
      expect(await totals(tenant, customerId, unitId)).toEqual({ used: '4', remaining: '96', overage: '0' });
      expect(await recorded(customerId)).toHaveLength(1);
    });

    it('treats Z and +00:00, and trailing fraction zeros, as one occurred_at', async () => {
      const { unitId, action, priceId, customerId } = await newPlan(tenant, { amount: '100' });
      await subscribeTenant(tenant, customerId, [{ priceId, quantity: 1 }]);
      const instant = new Date(Date.now() - 60_000).toISOString().slice(0, 19);
      for (const occurred of [`${instant}.5Z`, `${instant}.500+00:00`, `${instant}.500000000Z`]) {
        const result = await postUsage(tenant.api, {
          customer_id: customerId,
          action,
          event_key: 'same',
          quantity: '1',
          occurred_at: occurred,
        });
        expect(result.status).toBe('accepted');
      }
      expect(await totals(tenant, customerId, unitId)).toEqual({ used: '1', remaining: '99', overage: '0' });
      expect((await recorded(customerId)).map((event) => event.occurredAt)).toEqual([`${instant}.5Z`]);
    });

    it('concurrent copies of one event count once and are all answered accepted', async () => {
      const { unitId, action, priceId, customerId } = await newPlan(tenant, { amount: '100' });
      await subscribeTenant(tenant, customerId, [{ priceId, quantity: 1 }]);
      const event = usageEvent({ customer_id: customerId, action, quantity: '2' });
      const responses = await Promise.all(
        Array.from({ length: 20 }, () => tenant.api.post('/usage-events', { events: [event] })),
      );
      for (const response of responses) {
        expect(response.entity.events).toEqual([{ event_key: event.event_key, status: 'accepted' }]);
      }
      expect(await totals(tenant, customerId, unitId)).toEqual({ used: '2', remaining: '98', overage: '0' });
      await expectBalancesRecomputable(harness, tenant.scope, customerId);
    });

    it('a resend with a different occurred_at counts as new usage', async () => {
      const { unitId, action, priceId, customerId } = await newPlan(tenant, { amount: '100' });
      await subscribeTenant(tenant, customerId, [{ priceId, quantity: 1 }]);
      const first = new Date(Date.now() - 2_000).toISOString();
      const second = new Date(Date.now() - 1_000).toISOString();
      for (const occurred of [first, second, first]) {
        await postUsage(tenant.api, {
          customer_id: customerId,
          action,
          event_key: 'k',
          quantity: '3',
          occurred_at: occurred,
        });
      }
      expect(await totals(tenant, customerId, unitId)).toEqual({ used: '6', remaining: '94', overage: '0' });
    });

    it('the same event_key and occurred_at for another customer or another action counts separately', async () => {
      const { unitId, action, priceId, customerId } = await newPlan(tenant, { amount: '100' });
      const other = await newCustomer(tenant.api);
      const secondAction = uniqueAction('other');
      await newMeter(tenant.api, unitId, secondAction, '1');
      await subscribeTenant(tenant, customerId, [{ priceId, quantity: 1 }]);
      await subscribeTenant(tenant, other, [{ priceId, quantity: 1 }]);
      const fields = { event_key: 'shared', occurred_at: new Date(Date.now() - 1_000).toISOString(), quantity: '5' };
      await postUsage(tenant.api, { ...fields, customer_id: customerId, action });
      await postUsage(tenant.api, { ...fields, customer_id: customerId, action: secondAction });
      await postUsage(tenant.api, { ...fields, customer_id: other, action });
      expect(await totals(tenant, customerId, unitId)).toEqual({ used: '10', remaining: '90', overage: '0' });
      expect(await totals(tenant, other, unitId)).toEqual({ used: '5', remaining: '95', overage: '0' });
    });
  });

  describe('rule 7 and malformed requests', () => {
    it('refuses two events in one request with 400 usage_events_limit_exceeded and stores neither', async () => {
      const { action, customerId } = await newPlan(tenant);
      const response = await tenant.api.post('/usage-events', {
        events: [usageEvent({ customer_id: customerId, action }), usageEvent({ customer_id: customerId, action })],
      });
      expectError(response, 400, 'usage_events_limit_exceeded');
      expect(await recorded(customerId)).toEqual([]);
    });

    it('refuses a request without events with 400 invalid_field', async () => {
      expectInvalidField(await tenant.api.post('/usage-events', { events: [] }), 'events');
      expectInvalidField(await tenant.api.post('/usage-events', {}), 'events');
    });

    let shared: Awaited<ReturnType<typeof newPlan>> | undefined;
    /** One subscribed customer for every refusal: a refused request stores nothing, so they cannot interfere. */
    async function subscribedPlan() {
      if (!shared) {
        shared = await newPlan(tenant);
        await subscribeTenant(tenant, shared.customerId, [{ priceId: shared.priceId, quantity: 1 }]);
      }
      return shared;
    }

    const malformed: [string, Record<string, unknown>][] = [
      ['events[0].quantity', { quantity: '0.30000000000000004' }],
      ['events[0].quantity', { quantity: '01' }],
      ['events[0].quantity', { quantity: '-1' }],
      ['events[0].quantity', { quantity: '1e3' }],
      ['events[0].quantity', { quantity: '0' }],
      ['events[0].quantity', { quantity: '0.0' }],
      ['events[0].quantity', { quantity: '1'.repeat(36) }],
      ['events[0].quantity', { quantity: '1.1234567891' }],
      ['events[0].quantity', { quantity: 1 }],
      ['events[0].action', { action: 'A_call' }],
      ['events[0].action', { action: 'a' }],
      ['events[0].action', { action: 'x'.repeat(65) }],
      ['events[0].action', { action: '9lives' }],
      ['events[0].event_key', { event_key: '' }],
      ['events[0].event_key', { event_key: 'k'.repeat(257) }],
      ['events[0].occurred_at', { occurred_at: '2026-02-30T00:00:00Z' }],
      ['events[0].occurred_at', { occurred_at: '2026-03-01T12:00:00+01:00' }],
      ['events[0].occurred_at', { occurred_at: '2026-03-01 12:00:00' }],
      ['events[0].occurred_at', { occurred_at: 1_772_366_400 }],
      ['events[0].customer_id', { customer_id: 'cus_123' }],
      ['events[0].surprise', { surprise: true }],
    ];

    it.each(
      malformed,
    )('refuses a malformed field with 400 invalid_field naming %s, and stores nothing', async (field, patch) => {
      const { unitId, action, customerId } = await subscribedPlan();
      const event = { ...usageEvent({ customer_id: customerId, action }), ...patch };
      expectInvalidField(await tenant.api.post('/usage-events', { events: [event] }), field);
      expect(await recorded(customerId)).toEqual([]);
      expect(await totals(tenant, customerId, unitId)).toEqual({ used: '0', remaining: '10', overage: '0' });
    });

    it('refuses an event missing a field with 400 invalid_field', async () => {
      const { action, customerId } = await newPlan(tenant);
      const { occurred_at: _dropped, ...event } = usageEvent({ customer_id: customerId, action });
      expectInvalidField(await tenant.api.post('/usage-events', { events: [event] }), 'events[0].occurred_at');
    });
  });

  describe('per-event rejections', () => {
    it('rejects an event more than 60 days old with usage_event_timestamp_too_old and one more than 24 hours ahead with usage_event_future_timestamp', async () => {
      const { unitId, action, priceId, customerId } = await newPlan(tenant);
      await subscribeTenant(tenant, customerId, [{ priceId, quantity: 1 }]);
      const old = await postUsage(tenant.api, {
        customer_id: customerId,
        action,
        occurred_at: new Date(Date.now() - 61 * DAY_MS).toISOString(),
      });
      expect(old).toMatchObject({ status: 'rejected', error: { code: 'usage_event_timestamp_too_old' } });
      const future = await postUsage(tenant.api, {
        customer_id: customerId,
        action,
        occurred_at: new Date(Date.now() + 25 * 3_600_000).toISOString(),
      });
      expect(future).toMatchObject({ status: 'rejected', error: { code: 'usage_event_future_timestamp' } });
      const inside = await postUsage(tenant.api, {
        customer_id: customerId,
        action,
        occurred_at: new Date(Date.now() - 59 * DAY_MS).toISOString(),
      });
      expect(inside.status).toBe('accepted');
      expect(await totals(tenant, customerId, unitId)).toEqual({ used: '1', remaining: '9', overage: '0' });
      expect(await recorded(customerId)).toHaveLength(1);
    });

    it('judges the window by the environment’s clock: a moved sandbox clock moves the window', async () => {
      const own = await newTenant(harness);
      const { unitId, action, priceId, customerId } = await newPlan(own, { amount: '100' });
      await subscribeTenant(own, customerId, [{ priceId, quantity: 1 }]);
      await advance(own, { seconds: 90 * 86_400 });
      const now = await sandboxNow(own);

      const wallNow = await postUsage(own.api, {
        customer_id: customerId,
        action,
        occurred_at: new Date().toISOString(),
      });
      expect(wallNow).toMatchObject({ status: 'rejected', error: { code: 'usage_event_timestamp_too_old' } });
      const sandboxTime = await postUsage(own.api, {
        customer_id: customerId,
        action,
        occurred_at: new Date(now + 3_600_000).toISOString(),
      });
      expect(sandboxTime.status).toBe('accepted');
      const ahead = await postUsage(own.api, {
        customer_id: customerId,
        action,
        occurred_at: new Date(now + 2 * DAY_MS).toISOString(),
      });
      expect(ahead).toMatchObject({ status: 'rejected', error: { code: 'usage_event_future_timestamp' } });
      expect(await totals(own, customerId, unitId)).toEqual({ used: '1', remaining: '99', overage: '0' });
    });

    it('a retry outside the 60-day window is rejected, yet the earlier accepted attempt still counts once', async () => {
      const own = await newTenant(harness);
      const { unitId, action, priceId, customerId } = await newPlan(own, { amount: '100' });
      await subscribeTenant(own, customerId, [{ priceId, quantity: 1 }]);
      const event = usageEvent({
        customer_id: customerId,
        action,
        quantity: '7',
        occurred_at: new Date(Date.now() - 59 * DAY_MS).toISOString(),
      });
      expect((await own.api.post('/usage-events', { events: [event] })).entity.events).toEqual([
        { event_key: event.event_key, status: 'accepted' },
      ]);
      await drained(harness);
      await advance(own, { seconds: 2 * 86_400 });
      const retry = await own.api.post('/usage-events', { events: [event] });
      expect(retry.entity.events).toMatchObject([
        { status: 'rejected', error: { code: 'usage_event_timestamp_too_old' } },
      ]);
      expect(await totals(own, customerId, unitId)).toEqual({ used: '7', remaining: '93', overage: '0' });
    });

    it('rejects an unknown customer per event with customer_not_found, and a customer of another account the same way', async () => {
      const { action } = await newPlan(tenant);
      const unknown = await postUsage(tenant.api, { customer_id: 'ctm_01h00000000000000000000000', action });
      expect(unknown).toMatchObject({ status: 'rejected', error: { code: 'customer_not_found' } });

      const other = await newTenant(harness);
      const foreign = await newPlan(other);
      await subscribeTenant(other, foreign.customerId, [{ priceId: foreign.priceId, quantity: 1 }]);
      const stolen = await postUsage(tenant.api, { customer_id: foreign.customerId, action: foreign.action });
      expect(stolen).toMatchObject({ status: 'rejected', error: { code: 'customer_not_found' } });
      expect(await recorded(foreign.customerId, other.scope)).toEqual([]);
      expect(await totals(other, foreign.customerId, foreign.unitId)).toEqual({
        used: '0',
        remaining: '10',
        overage: '0',
      });
    });

    it('rejects a sandbox customer on the live address with customer_not_found', async () => {
      const { action, customerId } = await newPlan(tenant);
      const result = await postUsage(tenant.live, { customer_id: customerId, action });
      expect(result).toMatchObject({ status: 'rejected', error: { code: 'customer_not_found' } });
    });
  });
});
