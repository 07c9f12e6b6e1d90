/**
 * Requests on the wire: snake_case bodies and queries from camelCase input, customData keys
 * untouched at any depth, comma-joined arrays, range filters, and the headers every call sends.
 */
import { Drawdown } from '@drawdown/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ok, startWireStub, type WireStub } from '../support/wire-stub.js';

describe('the wire format of requests', () => {
  let stub: WireStub;
  let drawdown: Drawdown;

  beforeEach(async () => {
    stub = await startWireStub();
    drawdown = new Drawdown('pdl_sdbx_apikey_01hv8x2acma2bq5h3wfeknfbxe_secret', { baseUrl: `${stub.url}/` });
  });
  afterEach(() => stub.close());

  it('snake-cases bodies but leaves customData keys as given, at any depth, and camel-cases answers', async () => {
    stub.route('POST', '/prices', (request) =>
      ok({ ...JSON.parse(request.body), id: 'pri_1', nested: { some_key: 1 } }, 201),
    );
    const price = await drawdown.prices.create({
      productId: 'pro_1',
      description: 'x',
      unitPrice: { amount: '100', currencyCode: 'USD' },
      billingCycle: { interval: 'month', frequency: 1 },
      customData: { camelKey: { innerCamel: 1 }, snake_key: 2 },
      // A JavaScript caller may pass undefined; it is left out, not sent as null.
      ...({ name: undefined } as object),
    });
    expect(JSON.parse(stub.requests[0]?.body ?? '')).toEqual({
      product_id: 'pro_1',
      description: 'x',
      unit_price: { amount: '100', currency_code: 'USD' },
      billing_cycle: { interval: 'month', frequency: 1 },
      custom_data: { camelKey: { innerCamel: 1 }, snake_key: 2 },
    });
    expect(price).toMatchObject({
      productId: 'pro_1',
      unitPrice: { amount: '100', currencyCode: 'USD' },
      customData: { camelKey: { innerCamel: 1 }, snake_key: 2 },
      nested: { someKey: 1 },
    });
  });

  it('keeps decimal and amount strings as strings', async () => {
    stub.route('GET', '/meters/mtr_1', () => ok({ id: 'mtr_1', rate: '0.000000001', usage_balance_unit_id: 'ubu_1' }));
    const meter = await drawdown.meters.get('mtr_1');
    expect(meter.rate).toBe('0.000000001');
  });

  it('builds list queries: snake_case keys, comma-joined arrays, range filters, empty values left out', async () => {
    stub.route('GET', '/transactions', () => ok([]));
    await drawdown.transactions
      .list({
        customerId: ['ctm_1', 'ctm_2'],
        status: ['billed', 'paid'],
        perPage: 30,
        billedAt: { gte: '2026-01-01T00:00:00Z', lt: '2026-02-01T00:00:00Z' },
        subscriptionId: [],
        ...({ invoiceNumber: undefined, origin: null } as object),
      })
      .next();
    const url = new URL(stub.requests[0]?.path ?? '', 'http://x');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      customer_id: 'ctm_1,ctm_2',
      status: 'billed,paid',
      per_page: '30',
      'billed_at[LT]': '2026-02-01T00:00:00Z',
      'billed_at[GTE]': '2026-01-01T00:00:00Z',
    });
  });

  it('sends the key as a bearer token, JSON content type only with a body, and encodes ids in paths', async () => {
    stub.route('GET', '/products/pro_a%2F..%2Fb', () => ok({ id: 'x' }));
    stub.route('POST', '/subscriptions/sub_1/activate', () => ok({ id: 'sub_1', status: 'active' }));
    await drawdown.products.get('pro_a/../b');
    await drawdown.subscriptions.activate('sub_1');
    const [get, activate] = stub.requests;
    expect(get?.headers.authorization).toBe('Bearer pdl_sdbx_apikey_01hv8x2acma2bq5h3wfeknfbxe_secret');
    expect(get?.headers['content-type']).toBeUndefined();
    expect(get?.headers['user-agent']).toMatch(/^drawdown-sdk\//);
    expect(activate?.body).toBe('');
  });

  it('treats a body with an error key as an error whatever the status, and 204 as no data', async () => {
    stub.route('GET', '/products/pro_odd', () => ({
      status: 200,
      body: { error: { type: 'request_error', code: 'odd', detail: 'Odd.' }, meta: { request_id: 'r' } },
    }));
    stub.route('DELETE', '/notification-settings/ntfset_1', () => ({ status: 204, body: null }));
    await expect(drawdown.products.get('pro_odd')).rejects.toMatchObject({ status: 200, code: 'odd', requestId: 'r' });
    await expect(drawdown.notificationSettings.delete('ntfset_1')).resolves.toBeUndefined();
  });

  it('chooses base URLs by environment, key and option', () => {
    const key = 'pdl_live_apikey_01hv8x2acma2bq5h3wfeknfbxe_secret';
    expect(new Drawdown(key).baseUrl).toBe('http://127.0.0.1:8080');
    expect(new Drawdown('pdl_sdbx_apikey_01hv8x2acma2bq5h3wfeknfbxe_s').environment).toBe('sandbox');
    expect(new Drawdown(key, { environments: { live: 'https://api.billing.example/v1/' } }).baseUrl).toBe(
      'https://api.billing.example/v1',
    );
    expect(new Drawdown('legacy-key', { environment: 'sandbox' }).baseUrl).toBe('http://127.0.0.1:8081');
    expect(() => new Drawdown(key, { baseUrl: 'ftp://example.test' })).toThrow(TypeError);
  });
});
