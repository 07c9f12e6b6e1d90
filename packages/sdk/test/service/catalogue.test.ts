/**
 * The SDK against a real service (sandbox address and key), on both storage engines: every
 * catalogue resource, camelCase in and out with customData untouched, lazy paging, and errors.
 */
import { Drawdown, DrawdownApiError } from '@drawdown/sdk';
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unique } from '../support/fixtures.js';

describe.each(ENGINES)('%s: catalogue resources', (engine) => {
  let harness: BillingHarness;
  let drawdown: Drawdown;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine });
    drawdown = new Drawdown(harness.sandboxKey, { environments: { sandbox: harness.sandboxUrl } });
  });
  afterAll(() => harness.close());

  it('picks the sandbox address for a sandbox key', () => {
    expect(drawdown.environment).toBe('sandbox');
    expect(drawdown.baseUrl).toBe(harness.sandboxUrl);
  });

  it('creates, gets, updates and archives a product, keeping customData keys as given', async () => {
    const created = await drawdown.products.create({
      name: 'Analytics',
      taxCategory: 'saas',
      description: 'Dashboards',
      customData: { tier_name: 'gold', nestedValue: { snake_key: 1 } },
    });
    expect(created.id).toMatch(/^pro_[a-z\d]{26}$/);
    expect(created.taxCategory).toBe('saas');
    expect(created.customData).toEqual({ tier_name: 'gold', nestedValue: { snake_key: 1 } });
    expect(await drawdown.products.get(created.id)).toEqual(created);
    const updated = await drawdown.products.update(created.id, { name: 'Analytics Plus', imageUrl: null });
    expect(updated.name).toBe('Analytics Plus');
    expect((await drawdown.products.archive(created.id)).status).toBe('archived');
  });

  it('creates a recurring price with allowances and replaces them in full on update', async () => {
    const product = await drawdown.products.create({ name: 'Seats', taxCategory: 'saas' });
    const calls = await drawdown.usageBalanceUnits.create({ name: 'Calls', unitName: 'calls' });
    const credits = await drawdown.usageBalanceUnits.create({ name: 'Credits', unitName: 'credits' });
    const price = await drawdown.prices.create({
      productId: product.id,
      description: 'Monthly',
      unitPrice: { amount: '1999', currencyCode: 'EUR' },
      billingCycle: { interval: 'month', frequency: 1 },
      allowances: [
        { usageBalanceUnitId: calls.id, amount: '1000' },
        { usageBalanceUnitId: credits.id, amount: '12.5' },
      ],
    });
    expect(price.unitPrice).toEqual({ amount: '1999', currencyCode: 'EUR' });
    expect(price.allowances).toEqual([
      { usageBalanceUnitId: calls.id, amount: '1000' },
      { usageBalanceUnitId: credits.id, amount: '12.5' },
    ]);
    const updated = await drawdown.prices.update(price.id, {
      allowances: [{ usageBalanceUnitId: credits.id, amount: '0' }],
    });
    expect(updated.allowances).toEqual([{ usageBalanceUnitId: credits.id, amount: '0' }]);
    expect((await drawdown.prices.get(price.id)).allowances).toEqual(updated.allowances);

    const listed: string[] = [];
    for await (const item of drawdown.prices.list({ productId: [product.id] })) listed.push(item.id);
    expect(listed).toEqual([price.id]);
    expect((await drawdown.prices.archive(price.id)).status).toBe('archived');
  });

  it('refuses allowances on a one-off price with the seed code', async () => {
    const product = await drawdown.products.create({ name: 'One-off', taxCategory: 'standard' });
    const unit = await drawdown.usageBalanceUnits.create({ name: 'Units', unitName: 'units' });
    const error = await drawdown.prices
      .create({
        productId: product.id,
        description: 'Once',
        unitPrice: { amount: '500', currencyCode: 'USD' },
        allowances: [{ usageBalanceUnitId: unit.id, amount: '1' }],
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DrawdownApiError);
    expect(error).toMatchObject({
      status: 400,
      code: 'price_allowance_not_allowed_for_one_off_price',
      type: 'request_error',
    });
    expect((error as DrawdownApiError).requestId).toMatch(/^[\da-f-]{36}$/);
    expect((error as DrawdownApiError).documentationUrl).toContain('price_allowance_not_allowed_for_one_off_price');
  });

  it('creates, finds, updates and archives customers and their addresses', async () => {
    const email = `${unique('ada')}@example.com`;
    const customer = await drawdown.customers.create({ email, name: 'Ada', locale: 'en-GB' });
    const found: string[] = [];
    for await (const item of drawdown.customers.list({ email: [email] })) found.push(item.id);
    expect(found).toEqual([customer.id]);
    expect((await drawdown.customers.update(customer.id, { name: 'Ada L.' })).name).toBe('Ada L.');

    const address = await drawdown.addresses.create(customer.id, {
      countryCode: 'GB',
      firstLine: '1 Analytical Way',
      postalCode: 'N1 9GU',
    });
    expect(address).toMatchObject({ customerId: customer.id, countryCode: 'GB', firstLine: '1 Analytical Way' });
    expect(await drawdown.addresses.get(customer.id, address.id)).toEqual(address);
    expect((await drawdown.addresses.update(customer.id, address.id, { city: 'London' })).city).toBe('London');
    const addresses: string[] = [];
    for await (const item of drawdown.addresses.list(customer.id)) addresses.push(item.id);
    expect(addresses).toEqual([address.id]);
    expect((await drawdown.addresses.archive(customer.id, address.id)).status).toBe('archived');
    expect((await drawdown.customers.archive(customer.id)).status).toBe('archived');
  });

  it('creates units and meters, updates a meter, refuses a duplicate action and unit', async () => {
    const unit = await drawdown.usageBalanceUnits.create({ name: 'Tokens', unitName: 'tokens' });
    expect(await drawdown.usageBalanceUnits.get(unit.id)).toEqual(unit);
    expect((await drawdown.usageBalanceUnits.update(unit.id, { name: 'LLM tokens' })).name).toBe('LLM tokens');
    const action = unique('tok').toLowerCase();
    const meter = await drawdown.meters.create({
      usageBalanceUnitId: unit.id,
      name: 'Prompt tokens',
      action,
      unitName: 'token',
      rate: '0.001',
    });
    expect(meter).toMatchObject({ usageBalanceUnitId: unit.id, action, rate: '0.001', aggregation: 'sum' });
    const changed = await drawdown.meters.update(meter.id, { rate: '0.002' });
    expect(changed.rate).toBe('0.002');
    const duplicate = await drawdown.meters
      .create({ usageBalanceUnitId: unit.id, name: 'Again', action, unitName: 'token', rate: '1' })
      .catch((caught: unknown) => caught);
    expect(duplicate).toMatchObject({ code: 'meter_action_usage_balance_unit_duplicate' });
    expect((await drawdown.meters.archive(meter.id)).status).toBe('archived');
    const meters: string[] = [];
    for await (const item of drawdown.meters.list({ usageBalanceUnitId: [unit.id] })) meters.push(item.id);
    expect(meters).toEqual([meter.id]);
  });

  it('pages lazily: one request per page, following next, with hasMore and estimatedTotal', async () => {
    const tag = unique('paged');
    const ids = new Set<string>();
    for (let index = 0; index < 5; index += 1) {
      ids.add((await drawdown.usageBalanceUnits.create({ name: `${tag} ${index}`, unitName: 'units' })).id);
    }
    let requests = 0;
    const counting = new Drawdown(harness.sandboxKey, {
      baseUrl: harness.sandboxUrl,
      fetch: (input, init) => {
        requests += 1;
        return fetch(input, init);
      },
    });
    const collection = counting.usageBalanceUnits.list({ perPage: 2, id: [...ids] });
    expect(requests).toBe(0);
    expect(collection.hasMore).toBe(true);
    const first = await collection.next();
    expect(first).toHaveLength(2);
    expect(requests).toBe(1);
    expect(collection.hasMore).toBe(true);
    expect(collection.estimatedTotal).toBe(5);
    expect(collection.perPage).toBe(2);

    const rest: string[] = [];
    for await (const unit of collection) {
      rest.push(unit.id);
      if (rest.length === 1) expect(requests).toBe(2);
    }
    expect(requests).toBe(3);
    expect(collection.hasMore).toBe(false);
    expect(new Set([...first.map((unit) => unit.id), ...rest])).toEqual(ids);
    expect(await collection.next()).toEqual([]);
    expect(requests).toBe(3);
  });

  it('lists events as typed objects', async () => {
    const unit = await drawdown.usageBalanceUnits.create({ name: 'Evented', unitName: 'things' });
    const meter = await drawdown.meters.create({
      usageBalanceUnitId: unit.id,
      name: 'Evented meter',
      action: unique('evt').toLowerCase(),
      unitName: 'thing',
      rate: '1',
    });
    const seen = [];
    for await (const event of drawdown.events.list({ eventType: ['meter.created'], perPage: 50 })) {
      if (event.known && event.eventType === 'meter.created' && event.data.id === meter.id) seen.push(event);
    }
    expect(seen).toHaveLength(1);
    expect(seen[0]?.eventId).toMatch(/^evt_/);
    expect(seen[0]?.data.rate).toBe('1');
  });

  it('raises DrawdownApiError with field errors for invalid input', async () => {
    const error = await drawdown.products
      .create({ name: '', taxCategory: 'nonsense' as 'saas' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DrawdownApiError);
    const apiError = error as DrawdownApiError;
    expect(apiError).toMatchObject({ status: 400, code: 'invalid_field', type: 'request_error', retryAfter: null });
    expect(apiError.fieldErrors.map((fieldError) => fieldError.field).sort()).toEqual(['name', 'tax_category']);
  });

  it('raises not_found for a missing entity and invalid_token for a live key on the sandbox address', async () => {
    await expect(drawdown.products.get('pro_00000000000000000000000000')).rejects.toMatchObject({
      status: 404,
      code: 'not_found',
    });
    const wrongKey = new Drawdown(harness.liveKey, { baseUrl: harness.sandboxUrl });
    await expect(wrongKey.meters.list().next()).rejects.toMatchObject({ status: 403, code: 'invalid_token' });
  });

  it('refuses a key of the other environment before sending anything', () => {
    expect(() => new Drawdown(harness.liveKey, { environment: 'sandbox' })).toThrow(/live API key/);
  });
});
