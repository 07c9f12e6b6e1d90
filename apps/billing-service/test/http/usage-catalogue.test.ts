/**
 * Usage balance units and meters, one test per rule of the seed, over real HTTP on both
 * storage engines. Every refusal carries its code and leaves no entity and no event behind.
 */
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiClient,
  type ApiResponse,
  apiClient,
  eventCount,
  expectError,
  expectInvalidField,
  harnessClients,
} from '../support/api-client.js';
import { createMeter, createUnit, meterBody, unique } from '../support/catalogue-fixtures.js';

describe.each(ENGINES)('%s: usage balance units and meters', (engine) => {
  let harness: BillingHarness;
  let api: ApiClient;
  let unitId: string;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine });
    api = harnessClients(harness).sandbox;
    unitId = await createUnit(api);
  });
  afterAll(() => harness.close());

  /** Runs a refused request and checks it added no entity and no event. */
  async function refused(request: () => Promise<ApiResponse>): Promise<ApiResponse> {
    const eventsBefore = await eventCount(harness);
    const metersBefore = (await api.get('/meters?status=active,archived')).body.meta?.pagination?.estimated_total;
    const response = await request();
    expect(response.status, response.text).toBeGreaterThanOrEqual(400);
    expect(await eventCount(harness)).toBe(eventsBefore);
    expect((await api.get('/meters?status=active,archived')).body.meta?.pagination?.estimated_total).toBe(metersBefore);
    return response;
  }

  describe('usage balance units', () => {
    it('creates a unit with name and unit_name, answering 201 with a ubu_ id', async () => {
      const response = await api.post('/usage-balance-units', { name: 'API credits', unit_name: 'credits' });
      expect(response.status).toBe(201);
      expect(response.entity).toMatchObject({ name: 'API credits', unit_name: 'credits', status: 'active' });
      expect(response.id).toMatch(/^ubu_[a-z\d]{26}$/);
      expect((await api.get(`/usage-balance-units/${response.id}`)).entity).toEqual(response.entity);
    });

    it('refuses a unit without name or unit_name with invalid_field naming each', async () => {
      expectInvalidField(await api.post('/usage-balance-units', { unit_name: 'credits' }), 'name');
      expectInvalidField(await api.post('/usage-balance-units', { name: 'Credits' }), 'unit_name');
      expectInvalidField(await api.post('/usage-balance-units', { name: '   ', unit_name: 'credits' }), 'name');
      expectInvalidField(await api.post('/usage-balance-units', { name: 7, unit_name: 'credits' }), 'name');
    });

    it('archives a unit by update and lists only active units by default', async () => {
      const id = await createUnit(api, { name: 'To archive' });
      const archived = await api.patch(`/usage-balance-units/${id}`, { status: 'archived' });
      expect(archived.entity.status).toBe('archived');
      const active = await api.get('/usage-balance-units?per_page=200');
      expect(active.list.map((unit) => unit.id)).not.toContain(id);
      const listed = await api.get('/usage-balance-units?status=archived');
      expect(listed.list.map((unit) => unit.id)).toContain(id);
    });

    it('answers not_found for an unknown unit and bad_request for a malformed id', async () => {
      expectError(await api.get('/usage-balance-units/ubu_00000000000000000000000000'), 404, 'not_found');
      expectError(await api.get('/usage-balance-units/not-an-id'), 400, 'bad_request');
      expectError(await api.get('/usage-balance-units/mtr_00000000000000000000000000'), 400, 'bad_request');
    });
  });

  describe('meters', () => {
    it('creates a meter with sum as the default aggregation, answering 201 with a mtr_ id', async () => {
      const body = meterBody(unitId, { rate: '2.5', description: 'Calls to /v1/search' });
      const response = await api.post('/meters', body);
      expect(response.status, response.text).toBe(201);
      expect(response.id).toMatch(/^mtr_[a-z\d]{26}$/);
      expect(response.entity).toMatchObject({
        usage_balance_unit_id: unitId,
        name: 'API calls',
        action: body.action,
        unit_name: 'call',
        rate: '2.5',
        aggregation: 'sum',
        status: 'active',
        description: 'Calls to /v1/search',
      });
      expect((await api.get(`/meters/${response.id}`)).entity).toEqual(response.entity);
    });

    it('records meter.created in the outbox', async () => {
      const before = await eventCount(harness);
      await createMeter(api, unitId);
      expect(await eventCount(harness)).toBe(before + 1);
      const events = await api.get('/events?event_type=meter.created&per_page=1');
      expect(events.list[0]).toMatchObject({ event_type: 'meter.created' });
    });

    it.each([
      ['a capital letter', 'Api_call'],
      ['a leading digit', '1call'],
      ['a leading underscore', '_call'],
      ['a hyphen', 'api-call'],
      ['a blank', 'api call'],
      ['a dot', 'api.call'],
      ['a non-ASCII letter', 'café'],
      ['one character', 'a'],
      ['65 characters', `a${'b'.repeat(64)}`],
      ['an empty string', ''],
    ])('refuses an action with %s with invalid_field on action', async (_label, action) => {
      expectInvalidField(await refused(() => api.post('/meters', meterBody(unitId, { action }))), 'action');
    });

    it.each([
      ['two characters', 'ab'],
      ['64 characters', `a${'b'.repeat(63)}`],
      ['digits and underscores', 'a1_b2__c'],
    ])('accepts an action of %s', async (_label, action) => {
      expect((await createMeter(api, await createUnit(api), { action })).action).toBe(action);
    });

    it.each([
      ['zero', '0'],
      ['zero with decimals', '0.000'],
      ['a negative', '-1'],
      ['an exponent', '1e3'],
      ['a leading zero', '01'],
      ['10 decimal places', '0.0000000001'],
      ['a float artefact', '0.30000000000000004'],
      ['text', 'fast'],
      ['an empty string', ''],
    ])('refuses a rate of %s with invalid_field on rate', async (_label, rate) => {
      expectInvalidField(await refused(() => api.post('/meters', meterBody(unitId, { rate }))), 'rate');
    });

    it('refuses a rate sent as a JSON number, since decimals travel as strings', async () => {
      expectInvalidField(await refused(() => api.post('/meters', meterBody(unitId, { rate: 1 }))), 'rate');
    });

    it.each([
      ['the smallest rate', '0.000000001'],
      ['a fractional rate', '0.25'],
      ['a 35-digit rate', '9'.repeat(35)],
    ])('accepts %s', async (_label, rate) => {
      expect((await createMeter(api, unitId, { rate })).rate).toBe(rate);
    });

    it('accepts aggregation sum and refuses any other aggregation', async () => {
      expect((await createMeter(api, unitId, { aggregation: 'sum' })).aggregation).toBe('sum');
      for (const aggregation of ['max', 'count', 'SUM', '']) {
        expectInvalidField(await refused(() => api.post('/meters', meterBody(unitId, { aggregation }))), 'aggregation');
      }
    });

    it('refuses an unknown unit with usage_balance_unit_not_found and an archived one with entity_archived', async () => {
      expectError(
        await refused(() => api.post('/meters', meterBody('ubu_00000000000000000000000000'))),
        400,
        'usage_balance_unit_not_found',
      );
      const archivedUnit = await createUnit(api);
      await api.patch(`/usage-balance-units/${archivedUnit}`, { status: 'archived' });
      expectError(await refused(() => api.post('/meters', meterBody(archivedUnit))), 400, 'entity_archived');
    });

    it('refuses a unit of another account as not found', async () => {
      const otherAccount = await harness.createAccount({ earlyAccess: true });
      const other = apiClient(
        harness.sandboxUrl,
        await harness.createKey({ environment: 'sandbox', permissions: ['all'], accountId: otherAccount }),
      );
      expectError(await refused(() => other.post('/meters', meterBody(unitId))), 400, 'usage_balance_unit_not_found');
    });

    it('refuses a second meter with the same action and unit', async () => {
      const first = await createMeter(api, unitId);
      expectError(
        await refused(() => api.post('/meters', meterBody(unitId, { action: first.action }))),
        400,
        'meter_action_usage_balance_unit_duplicate',
      );
    });

    it('refuses a second meter with the same action and unit even when the first is archived', async () => {
      const first = await createMeter(api, unitId);
      await api.patch(`/meters/${String(first.id)}`, { status: 'archived' });
      expectError(
        await refused(() => api.post('/meters', meterBody(unitId, { action: first.action }))),
        400,
        'meter_action_usage_balance_unit_duplicate',
      );
    });

    it('refuses renaming an action onto another meter’s action and unit', async () => {
      const first = await createMeter(api, unitId);
      const second = await createMeter(api, unitId);
      expectError(
        await refused(() => api.patch(`/meters/${String(second.id)}`, { action: first.action })),
        400,
        'meter_action_usage_balance_unit_duplicate',
      );
      expect((await api.get(`/meters/${String(second.id)}`)).entity.action).toBe(second.action);
    });

    it('lets meters of different units share an action', async () => {
      const first = await createMeter(api, unitId);
      const otherUnit = await createUnit(api);
      expect((await createMeter(api, otherUnit, { action: first.action })).action).toBe(first.action);
    });

    it('changes rate, action, name and unit_name by update', async () => {
      const meter = await createMeter(api, unitId);
      const action = unique('renamed');
      const response = await api.patch(`/meters/${String(meter.id)}`, {
        rate: '3',
        action,
        name: 'Renamed',
        unit_name: 'request',
      });
      expect(response.status, response.text).toBe(200);
      expect(response.entity).toMatchObject({ rate: '3', action, name: 'Renamed', unit_name: 'request' });
      expect((await api.get(`/meters/${String(meter.id)}`)).entity).toEqual(response.entity);
    });

    it('validates rate and action on update too', async () => {
      const meter = await createMeter(api, unitId);
      expectInvalidField(await refused(() => api.patch(`/meters/${String(meter.id)}`, { rate: '0' })), 'rate');
      expectInvalidField(await refused(() => api.patch(`/meters/${String(meter.id)}`, { action: 'X' })), 'action');
    });

    it('refuses changing the unit with meter_immutable_field', async () => {
      const meter = await createMeter(api, unitId);
      const otherUnit = await createUnit(api);
      expectError(
        await refused(() => api.patch(`/meters/${String(meter.id)}`, { usage_balance_unit_id: otherUnit })),
        400,
        'meter_immutable_field',
      );
      expect((await api.get(`/meters/${String(meter.id)}`)).entity.usage_balance_unit_id).toBe(unitId);
    });

    it('refuses changing the aggregation with meter_immutable_field', async () => {
      const meter = await createMeter(api, unitId);
      expectError(
        await refused(() => api.patch(`/meters/${String(meter.id)}`, { aggregation: 'max' })),
        400,
        'meter_immutable_field',
      );
    });

    it('accepts an update that repeats the unit and aggregation unchanged', async () => {
      const meter = await createMeter(api, unitId);
      const response = await api.patch(`/meters/${String(meter.id)}`, {
        usage_balance_unit_id: unitId,
        aggregation: 'sum',
        name: 'Same unit',
      });
      expect(response.status, response.text).toBe(200);
    });

    it('archives a meter by update with status archived', async () => {
      const meter = await createMeter(api, unitId);
      const response = await api.patch(`/meters/${String(meter.id)}`, { status: 'archived' });
      expect(response.status).toBe(200);
      expect(response.entity.status).toBe('archived');
      const archived = await api.get(`/meters?status=archived&usage_balance_unit_id=${unitId}&per_page=200`);
      expect(archived.list.map((item) => item.id)).toContain(meter.id);
    });

    it.each([
      ['rename it', { name: 'Again' }],
      ['change its rate', { rate: '2' }],
      ['change its action', { action: 'changed_after_archive' }],
      ['reactivate it', { status: 'active' }],
      ['archive it again', { status: 'archived' }],
    ])('refuses to %s once archived, with meter_archived', async (_label, change) => {
      const meter = await createMeter(api, unitId);
      await api.patch(`/meters/${String(meter.id)}`, { status: 'archived' });
      expectError(await refused(() => api.patch(`/meters/${String(meter.id)}`, change)), 400, 'meter_archived');
      expect((await api.get(`/meters/${String(meter.id)}`)).entity).toMatchObject({
        status: 'archived',
        name: meter.name,
        rate: meter.rate,
      });
    });

    it('has no delete: DELETE answers 404 or 405 with the envelope and the meter stays', async () => {
      const meter = await createMeter(api, unitId);
      const response = await refused(() => api.request('DELETE', `/meters/${String(meter.id)}`));
      expect([404, 405]).toContain(response.status);
      expectError(response, response.status, response.status === 404 ? 'not_found' : 'method_not_allowed');
      expect((await api.get(`/meters/${String(meter.id)}`)).status).toBe(200);
    });

    it('lists meters filtered by unit, action and status', async () => {
      const filterUnit = await createUnit(api);
      const kept = await createMeter(api, filterUnit);
      const archived = await createMeter(api, filterUnit);
      await api.patch(`/meters/${String(archived.id)}`, { status: 'archived' });
      const all = await api.get(`/meters?usage_balance_unit_id=${filterUnit}`);
      expect(all.list.map((meter) => meter.id).sort()).toEqual([kept.id, archived.id].sort());
      const byAction = await api.get(`/meters?action=${String(kept.action)}`);
      expect(byAction.list.map((meter) => meter.id)).toEqual([kept.id]);
      const active = await api.get(`/meters?usage_balance_unit_id=${filterUnit}&status=active`);
      expect(active.list.map((meter) => meter.id)).toEqual([kept.id]);
    });

    it('answers not_found for a meter of the other environment', async () => {
      const meter = await createMeter(api, unitId);
      const live = harnessClients(harness).live;
      expectError(await live.get(`/meters/${String(meter.id)}`), 404, 'not_found');
      expectError(await refused(() => live.patch(`/meters/${String(meter.id)}`, { name: 'x' })), 404, 'not_found');
    });
  });

  describe('early access', () => {
    it('grants usage-based permissions only to early-access accounts', async () => {
      const ordinary = await harness.createAccount({ earlyAccess: false });
      await expect(
        harness.createKey({ environment: 'sandbox', permissions: ['meter.read'], accountId: ordinary }),
      ).rejects.toMatchObject({ code: 'permission_requires_early_access' });
      const key = await harness.createKey({ environment: 'sandbox', permissions: ['all'], accountId: ordinary });
      // `all` on an ordinary account means every permission it may hold, which excludes meters.
      expectError(await apiClient(harness.sandboxUrl, key).get('/meters'), 403, 'forbidden');
    });
  });
});
