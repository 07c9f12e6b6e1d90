/**
 * The OpenAPI 3.1 document (issue 18): it validates with a standard validator, the checked-in
 * copy is current, every route the live and sandbox applications register is in it (and nothing
 * else), the operations address serves it, and the happy path of each operation exercised below answers
 * the documented status with a body that matches the documented response schema.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { dereference, validate } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { API_OPERATIONS } from '../../src/openapi/api-operations.js';
import { openApiDocument, openApiPath } from '../../src/openapi/openapi-document.js';
import { createOperationsApp } from '../../src/operations/operations-app.js';
import { apiClient } from '../support/api-client.js';

const REPO_ROOT = join(import.meta.dirname, '../../../..');

type Document = {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>
  >;
};

describe('the OpenAPI document', () => {
  it('validates as OpenAPI 3.1', async () => {
    const result = await validate(structuredClone(openApiDocument()) as never);
    expect(result.valid, JSON.stringify(result)).toBe(true);
    expect(result.specification).toBe('OpenAPI');
  });

  it('is served on the operations address', async () => {
    const harness = await startBillingHarness();
    try {
      const response = await createOperationsApp(harness.service.operations).request('/openapi.json');
      expect(await response.json()).toEqual(openApiDocument());
    } finally {
      await harness.close();
    }
  });

  it('is checked in as docs/openapi.json, current (run `npm run docs` after changing a route or schema)', () => {
    expect(JSON.parse(readFileSync(join(REPO_ROOT, 'docs/openapi.json'), 'utf8'))).toEqual(openApiDocument());
  });

  it.each(['live', 'sandbox'] as const)('lists exactly the routes the %s application registers', (environment) => {
    const app = createApp({} as Parameters<typeof createApp>[0], {
      environment,
      publicBaseUrl: () => 'http://127.0.0.1',
    });
    // A route with a permission guard is registered once per handler: count it once.
    const registered = [
      ...new Set(
        app.routes
          .filter((route) => route.method !== 'ALL')
          .map((route) => `${route.method.toLowerCase()} ${openApiPath(route.path)}`),
      ),
    ].sort();
    const documented = API_OPERATIONS.filter((operation) =>
      environment === 'sandbox' ? !operation.liveOnly : !operation.sandboxOnly,
    )
      .map((operation) => `${operation.method} ${openApiPath(operation.path)}`)
      .sort();
    expect(registered).toEqual(documented);
    const paths = (openApiDocument() as unknown as Document).paths;
    for (const entry of registered) {
      const [method = '', path = ''] = entry.split(' ');
      expect(paths[path]?.[method], entry).toBeDefined();
    }
  });
});

describe.each(ENGINES)('%s: documented happy paths', (engine) => {
  let harness: BillingHarness;
  let document: Document;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const exercised = new Set<string>();

  beforeAll(async () => {
    harness = await startBillingHarness({ engine });
    document = (await dereference(structuredClone(openApiDocument()) as never)) as unknown as Document;
  });
  afterAll(() => harness?.close());

  /** Calls the route and checks the status and the body against what the document says. */
  async function call(method: 'get' | 'post' | 'patch' | 'delete', route: string, path: string, body?: unknown) {
    const api = apiClient(harness.sandboxUrl, harness.sandboxKey);
    const response = await api.request(method.toUpperCase() as 'GET', path, body === undefined ? {} : { body });
    const operation = document.paths[openApiPath(route)]?.[method];
    expect(operation, `${method} ${route} is documented`).toBeDefined();
    const [status, documented] = Object.entries(operation?.responses ?? {}).find(([code]) => code !== 'default') ?? [];
    expect(`${method} ${route} ${response.status}`, response.text).toBe(`${method} ${route} ${status}`);
    const schema = documented?.content?.['application/json']?.schema;
    if (schema) {
      const check = ajv.compile(schema);
      expect(check(response.body), `${method} ${route}: ${JSON.stringify(check.errors)}`).toBe(true);
    } else {
      expect(response.text).toBe('');
    }
    exercised.add(`${method} ${route}`);
    return response;
  }

  it('answer what the document says', async () => {
    await call('get', '/currencies', '/currencies');
    const product = await call('post', '/products', '/products', { name: 'Plan', tax_category: 'saas' });
    const productId = String(product.entity.id);
    await call('get', '/products', '/products');
    await call('get', '/products/:id', `/products/${productId}`);
    await call('patch', '/products/:id', `/products/${productId}`, { description: 'Monthly' });
    const unit = await call('post', '/usage-balance-units', '/usage-balance-units', {
      name: 'Credits',
      unit_name: 'credits',
    });
    const unitId = String(unit.entity.id);
    await call('get', '/usage-balance-units', '/usage-balance-units');
    await call('get', '/usage-balance-units/:id', `/usage-balance-units/${unitId}`);
    await call('patch', '/usage-balance-units/:id', `/usage-balance-units/${unitId}`, { name: 'Tokens' });
    const meter = await call('post', '/meters', '/meters', {
      usage_balance_unit_id: unitId,
      name: 'Calls',
      action: 'api_call',
      unit_name: 'call',
      rate: '1',
    });
    await call('get', '/meters', '/meters');
    await call('get', '/meters/:id', `/meters/${meter.entity.id}`);
    await call('patch', '/meters/:id', `/meters/${meter.entity.id}`, { name: 'API calls' });
    const price = await call('post', '/prices', '/prices', {
      product_id: productId,
      description: 'Monthly',
      unit_price: { amount: '1000', currency_code: 'USD' },
      billing_cycle: { interval: 'month', frequency: 1 },
      allowances: [{ usage_balance_unit_id: unitId, amount: '100' }],
    });
    await call('get', '/prices', '/prices');
    await call('get', '/prices/:id', `/prices/${price.entity.id}`);
    await call('patch', '/prices/:id', `/prices/${price.entity.id}`, { description: 'Monthly plan' });
    const customer = await call('post', '/customers', '/customers', { email: 'openapi@example.com' });
    const customerId = String(customer.entity.id);
    await call('get', '/customers', '/customers');
    await call('get', '/customers/:id', `/customers/${customerId}`);
    await call('patch', '/customers/:id', `/customers/${customerId}`, { name: 'Ada' });
    const address = await call('post', '/customers/:customer/addresses', `/customers/${customerId}/addresses`, {
      country_code: 'GB',
    });
    await call('get', '/customers/:customer/addresses', `/customers/${customerId}/addresses`);
    await call('get', '/customers/:customer/addresses/:id', `/customers/${customerId}/addresses/${address.entity.id}`);
    await call(
      'patch',
      '/customers/:customer/addresses/:id',
      `/customers/${customerId}/addresses/${address.entity.id}`,
      {
        city: 'Leeds',
      },
    );
    await call('get', '/customers/:customer/usage-balances', `/customers/${customerId}/usage-balances`);
    await call('post', '/usage-events', '/usage-events', {
      events: [
        {
          event_key: 'e1',
          customer_id: customerId,
          action: 'api_call',
          quantity: '1',
          occurred_at: new Date().toISOString(),
        },
      ],
    });
    const setting = await call('post', '/notification-settings', '/notification-settings', {
      description: 'Hooks',
      type: 'url',
      destination: 'http://127.0.0.1:9/hooks',
      subscribed_events: ['product.created'],
    });
    const settingId = String(setting.entity.id);
    await call('get', '/notification-settings', '/notification-settings');
    await call('get', '/notification-settings/:id', `/notification-settings/${settingId}`);
    await call('patch', '/notification-settings/:id', `/notification-settings/${settingId}`, {
      description: 'All hooks',
    });
    await call('post', '/notification-settings/:id/rotate-secret', `/notification-settings/${settingId}/rotate-secret`);
    await call('delete', '/notification-settings/:id', `/notification-settings/${settingId}`);
    await call('get', '/notifications', '/notifications');
    await call('get', '/events', '/events');
    await call('get', '/event-types', '/event-types');
    await call('get', '/subscriptions', '/subscriptions');
    await call('get', '/transactions', '/transactions');
    await call('get', '/adjustments', '/adjustments');
    await call('get', '/tax-settings', '/tax-settings');
    await call('get', '/sandbox-clock', '/sandbox-clock');

    // Routes this walk does not reach (they need a subscription or transaction set up first);
    // their success shapes are documented the same way. Listed so the gap is visible.
    const notExercised = API_OPERATIONS.map((operation) => `${operation.method} ${operation.path}`).filter(
      (label) => !exercised.has(label),
    );
    expect(exercised.size).toBeGreaterThanOrEqual(40);
    expect(notExercised.length).toBeLessThanOrEqual(API_OPERATIONS.length - 40);
  });
});
