/**
 * Prices and their allowances, one test per rule of the seed, over real HTTP on both storage
 * engines: recurring only, no trial, at most 20, one per unit, `0` allowed, full replacement
 * on update, early access only. A refused request leaves the price as it was.
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
import { createPrice, createProduct, createUnit, priceBody } from '../support/catalogue-fixtures.js';

describe.each(ENGINES)('%s: prices and allowances', (engine) => {
  let harness: BillingHarness;
  let api: ApiClient;
  let productId: string;
  /** 21 active units, enough to cross the limit of 20 allowances. */
  let units: string[];

  beforeAll(async () => {
    harness = await startBillingHarness({ engine });
    api = harnessClients(harness).sandbox;
    productId = await createProduct(api);
    units = [];
    for (let index = 0; index < 21; index += 1) units.push(await createUnit(api, { name: `Unit ${index}` }));
  });
  afterAll(() => harness.close());

  const allowance = (index: number, amount = '100') => ({ usage_balance_unit_id: units[index] ?? '', amount });

  /** Runs a refused request and checks it added no price and no event. */
  async function refused(request: () => Promise<ApiResponse>): Promise<ApiResponse> {
    const eventsBefore = await eventCount(harness);
    const pricesBefore = (await api.get('/prices?per_page=1')).body.meta?.pagination?.estimated_total;
    const response = await request();
    expect(response.status, response.text).toBeGreaterThanOrEqual(400);
    expect(await eventCount(harness)).toBe(eventsBefore);
    expect((await api.get('/prices?per_page=1')).body.meta?.pagination?.estimated_total).toBe(pricesBefore);
    return response;
  }

  describe('creating', () => {
    it('creates a recurring price with allowances and returns them on get', async () => {
      const price = await createPrice(api, productId, { allowances: [allowance(0, '1000'), allowance(1, '2.5')] });
      expect(String(price.id)).toMatch(/^pri_[a-z\d]{26}$/);
      const expected = [
        { usage_balance_unit_id: units[0], amount: '1000' },
        { usage_balance_unit_id: units[1], amount: '2.5' },
      ];
      expect(price.allowances).toEqual(expected);
      expect((await api.get(`/prices/${String(price.id)}`)).entity.allowances).toEqual(expected);
    });

    it('fills the defaults of the reference: standard type, account_setting tax, quantity 1 to 100', async () => {
      const price = await createPrice(api, productId);
      expect(price).toMatchObject({
        product_id: productId,
        type: 'standard',
        tax_mode: 'account_setting',
        quantity: { minimum: 1, maximum: 100 },
        trial_period: null,
        allowances: [],
        status: 'active',
        unit_price: { amount: '1000', currency_code: 'EUR' },
      });
    });

    it('accepts an allowance of amount 0 (an empty balance, all usage overage)', async () => {
      const price = await createPrice(api, productId, { allowances: [allowance(0, '0')] });
      expect(price.allowances).toEqual([{ usage_balance_unit_id: units[0], amount: '0' }]);
    });

    it('accepts 20 allowances', async () => {
      const twenty = Array.from({ length: 20 }, (_, index) => allowance(index));
      expect(((await createPrice(api, productId, { allowances: twenty })).allowances as unknown[]).length).toBe(20);
    });

    it('refuses 21 allowances with price_allowance_limit_exceeded', async () => {
      const twentyOne = Array.from({ length: 21 }, (_, index) => allowance(index));
      expectError(
        await refused(() => api.post('/prices', priceBody(productId, { allowances: twentyOne }))),
        400,
        'price_allowance_limit_exceeded',
      );
    });

    it('refuses two allowances for one unit with price_allowance_duplicate_usage_balance_unit', async () => {
      expectError(
        await refused(() =>
          api.post('/prices', priceBody(productId, { allowances: [allowance(0, '1'), allowance(0, '2')] })),
        ),
        400,
        'price_allowance_duplicate_usage_balance_unit',
      );
    });

    it('refuses allowances on a one-off price with price_allowance_not_allowed_for_one_off_price', async () => {
      const { billing_cycle: _omitted, ...oneOff } = priceBody(productId, { allowances: [allowance(0)] });
      expectError(
        await refused(() => api.post('/prices', oneOff)),
        400,
        'price_allowance_not_allowed_for_one_off_price',
      );
      expectError(
        await refused(() => api.post('/prices', { ...oneOff, billing_cycle: null })),
        400,
        'price_allowance_not_allowed_for_one_off_price',
      );
    });

    it('refuses allowances on a price with a trial with price_allowance_not_allowed_for_trial_price', async () => {
      expectError(
        await refused(() =>
          api.post(
            '/prices',
            priceBody(productId, { allowances: [allowance(0)], trial_period: { interval: 'day', frequency: 14 } }),
          ),
        ),
        400,
        'price_allowance_not_allowed_for_trial_price',
      );
    });

    it('refuses an unknown unit with usage_balance_unit_not_found and an archived one with entity_archived', async () => {
      expectError(
        await refused(() =>
          api.post(
            '/prices',
            priceBody(productId, {
              allowances: [{ usage_balance_unit_id: 'ubu_00000000000000000000000000', amount: '1' }],
            }),
          ),
        ),
        400,
        'usage_balance_unit_not_found',
      );
      const archived = await createUnit(api);
      await api.patch(`/usage-balance-units/${archived}`, { status: 'archived' });
      expectError(
        await refused(() =>
          api.post('/prices', priceBody(productId, { allowances: [{ usage_balance_unit_id: archived, amount: '1' }] })),
        ),
        400,
        'entity_archived',
      );
    });

    it.each([
      ['a negative', '-1'],
      ['an exponent', '1e3'],
      ['a leading zero', '01'],
      ['10 decimal places', '0.0000000001'],
      ['a float artefact', '0.30000000000000004'],
      ['an empty string', ''],
    ])('refuses an allowance amount of %s with invalid_field on allowances[0].amount', async (_label, amount) => {
      expectInvalidField(
        await refused(() => api.post('/prices', priceBody(productId, { allowances: [allowance(0, amount)] }))),
        'allowances[0].amount',
      );
    });

    it('refuses an allowance with a malformed unit id or an unknown field with invalid_field', async () => {
      expectInvalidField(
        await refused(() =>
          api.post('/prices', priceBody(productId, { allowances: [{ usage_balance_unit_id: 'pro_x', amount: '1' }] })),
        ),
        'allowances[0].usage_balance_unit_id',
      );
      expectInvalidField(
        await refused(() =>
          api.post('/prices', priceBody(productId, { allowances: [{ ...allowance(0), rollover: true }] })),
        ),
        'allowances[0].rollover',
      );
    });
  });

  describe('price rules', () => {
    it('refuses an unknown product with product_not_found and an archived one with entity_archived', async () => {
      expectError(
        await refused(() => api.post('/prices', priceBody('pro_00000000000000000000000000'))),
        400,
        'product_not_found',
      );
      const archived = await createProduct(api);
      await api.patch(`/products/${archived}`, { status: 'archived' });
      expectError(await refused(() => api.post('/prices', priceBody(archived))), 400, 'entity_archived');
    });

    it.each([
      ['a fractional amount', { amount: '10.5', currency_code: 'EUR' }, 'unit_price.amount'],
      ['a negative amount', { amount: '-1', currency_code: 'EUR' }, 'unit_price.amount'],
      ['an unknown currency', { amount: '10', currency_code: 'XXX' }, 'unit_price.currency_code'],
      ['a numeric amount', { amount: 10, currency_code: 'EUR' }, 'unit_price.amount'],
    ])('refuses a unit price with %s', async (_label, unitPrice, field) => {
      expectInvalidField(
        await refused(() => api.post('/prices', priceBody(productId, { unit_price: unitPrice }))),
        field,
      );
    });

    it('refuses a quantity range that is empty or starts below 1 with price_quantity_range_invalid', async () => {
      for (const quantity of [
        { minimum: 0, maximum: 10 },
        { minimum: 5, maximum: 4 },
      ]) {
        expectError(
          await refused(() => api.post('/prices', priceBody(productId, { quantity }))),
          400,
          'price_quantity_range_invalid',
        );
      }
    });

    it('refuses a trial on a one-off price with price_trial_period_requires_billing_cycle', async () => {
      const { billing_cycle: _omitted, ...oneOff } = priceBody(productId, {
        trial_period: { interval: 'day', frequency: 7 },
      });
      expectError(await refused(() => api.post('/prices', oneOff)), 400, 'price_trial_period_requires_billing_cycle');
    });

    it('refuses a billing cycle with a zero frequency or an unknown interval with invalid_field', async () => {
      expectInvalidField(
        await refused(() =>
          api.post('/prices', priceBody(productId, { billing_cycle: { interval: 'month', frequency: 0 } })),
        ),
        'billing_cycle.frequency',
      );
      expectInvalidField(
        await refused(() =>
          api.post('/prices', priceBody(productId, { billing_cycle: { interval: 'fortnight', frequency: 1 } })),
        ),
        'billing_cycle.interval',
      );
    });

    it('lists prices by product and by recurring', async () => {
      const listed = await createProduct(api);
      const recurring = await createPrice(api, listed);
      const { billing_cycle: _omitted, ...oneOffBody } = priceBody(listed);
      const oneOff = (await api.post('/prices', oneOffBody)).entity;
      const byProduct = await api.get(`/prices?product_id=${listed}`);
      expect(byProduct.list.map((price) => price.id).sort()).toEqual([recurring.id, oneOff.id].sort());
      const onlyRecurring = await api.get(`/prices?product_id=${listed}&recurring=true`);
      expect(onlyRecurring.list.map((price) => price.id)).toEqual([recurring.id]);
      const onlyOneOff = await api.get(`/prices?product_id=${listed}&recurring=false`);
      expect(onlyOneOff.list.map((price) => price.id)).toEqual([oneOff.id]);
    });
  });

  describe('updating', () => {
    it('replaces the allowances in full: those not sent are gone', async () => {
      const price = await createPrice(api, productId, { allowances: [allowance(0), allowance(1)] });
      const id = String(price.id);
      const updated = await api.patch(`/prices/${id}`, { allowances: [allowance(2, '5')] });
      expect(updated.status, updated.text).toBe(200);
      expect(updated.entity.allowances).toEqual([{ usage_balance_unit_id: units[2], amount: '5' }]);
      expect((await api.get(`/prices/${id}`)).entity.allowances).toEqual([
        { usage_balance_unit_id: units[2], amount: '5' },
      ]);
    });

    it('clears the allowances with an empty array', async () => {
      const price = await createPrice(api, productId, { allowances: [allowance(0)] });
      expect((await api.patch(`/prices/${String(price.id)}`, { allowances: [] })).entity.allowances).toEqual([]);
    });

    it('keeps the allowances when an update does not send them', async () => {
      const price = await createPrice(api, productId, { allowances: [allowance(0)] });
      const updated = await api.patch(`/prices/${String(price.id)}`, { description: 'Renamed' });
      expect(updated.entity).toMatchObject({ description: 'Renamed', allowances: price.allowances });
    });

    it('applies every allowance rule on update', async () => {
      const price = await createPrice(api, productId);
      const path = `/prices/${String(price.id)}`;
      expectError(
        await refused(() =>
          api.patch(path, { allowances: Array.from({ length: 21 }, (_, index) => allowance(index)) }),
        ),
        400,
        'price_allowance_limit_exceeded',
      );
      expectError(
        await refused(() => api.patch(path, { allowances: [allowance(3), allowance(3)] })),
        400,
        'price_allowance_duplicate_usage_balance_unit',
      );
      expect((await api.get(path)).entity.allowances).toEqual([]);
    });

    it('refuses adding a trial to a price with allowances, and allowances to a price with a trial', async () => {
      const withAllowances = await createPrice(api, productId, { allowances: [allowance(0)] });
      expectError(
        await refused(() =>
          api.patch(`/prices/${String(withAllowances.id)}`, { trial_period: { interval: 'day', frequency: 7 } }),
        ),
        400,
        'price_allowance_not_allowed_for_trial_price',
      );
      const withTrial = await createPrice(api, productId, { trial_period: { interval: 'day', frequency: 7 } });
      expectError(
        await refused(() => api.patch(`/prices/${String(withTrial.id)}`, { allowances: [allowance(0)] })),
        400,
        'price_allowance_not_allowed_for_trial_price',
      );
      expect((await api.get(`/prices/${String(withTrial.id)}`)).entity.allowances).toEqual([]);
    });

    it('refuses making a price with allowances one-off', async () => {
      const price = await createPrice(api, productId, { allowances: [allowance(0)] });
      expectError(
        await refused(() => api.patch(`/prices/${String(price.id)}`, { billing_cycle: null })),
        400,
        'price_allowance_not_allowed_for_one_off_price',
      );
      expect((await api.get(`/prices/${String(price.id)}`)).entity.billing_cycle).toEqual({
        interval: 'month',
        frequency: 1,
      });
    });

    it('archives a price by update', async () => {
      const price = await createPrice(api, productId, { allowances: [allowance(0)] });
      expect((await api.patch(`/prices/${String(price.id)}`, { status: 'archived' })).entity.status).toBe('archived');
    });

    it('answers not_found for a price of another account', async () => {
      const price = await createPrice(api, productId);
      const other = apiClient(
        harness.sandboxUrl,
        await harness.createKey({
          environment: 'sandbox',
          permissions: ['all'],
          accountId: await harness.createAccount({ earlyAccess: true }),
        }),
      );
      expectError(await other.get(`/prices/${String(price.id)}`), 404, 'not_found');
      expectError(await other.patch(`/prices/${String(price.id)}`, { description: 'x' }), 404, 'not_found');
      expect((await api.get(`/prices/${String(price.id)}`)).entity.description).toBe(price.description);
    });
  });

  describe('early access', () => {
    let ordinary: ApiClient;
    let ordinaryProduct: string;
    let accountId: string;

    beforeAll(async () => {
      accountId = await harness.createAccount({ earlyAccess: false });
      ordinary = apiClient(
        harness.sandboxUrl,
        await harness.createKey({ environment: 'sandbox', permissions: ['all'], accountId }),
      );
      ordinaryProduct = await createProduct(ordinary);
    });

    it('refuses allowances from an account outside early access with early_access_required', async () => {
      const before = await eventCount(harness, 'sandbox', accountId);
      expectError(
        await ordinary.post(
          '/prices',
          priceBody(ordinaryProduct, {
            allowances: [{ usage_balance_unit_id: 'ubu_00000000000000000000000000', amount: '1' }],
          }),
        ),
        403,
        'early_access_required',
      );
      expect(await eventCount(harness, 'sandbox', accountId)).toBe(before);
    });

    it('lets an account outside early access create prices without allowances', async () => {
      const price = await createPrice(ordinary, ordinaryProduct, { allowances: [] });
      expect(price.allowances).toEqual([]);
      expectError(
        await ordinary.patch(`/prices/${String(price.id)}`, {
          allowances: [{ usage_balance_unit_id: 'ubu_00000000000000000000000000', amount: '1' }],
        }),
        403,
        'early_access_required',
      );
    });
  });
});
