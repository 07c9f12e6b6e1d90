/**
 * The OpenAPI 3.1 document (issue 18): it validates with a standard validator, the checked-in
 * copy is current, every route the live and sandbox applications register is in it (and nothing
 * else), and the operations address serves it. Its response schemas are closed, refuse what the
 * service does not emit, and name the core's own enums. The happy path of every operation is walked
 * against the document in `openapi-walk.test.ts`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EVENT_DATA, RESPONSE_SCHEMAS } from '@drawdown/billing-contract';
import {
  ALL_PERMISSIONS,
  CATALOGUE_TYPES,
  DISCOUNT_STATUSES,
  DISCOUNT_TYPES,
  EMAIL_KINDS,
  EVENT_TYPE_NAMES,
  EVENT_TYPES,
  NOTIFICATION_STATUSES,
  REPORT_TYPES,
  SCENARIO_TYPES,
  SUBSCRIPTION_STATUSES,
  TAX_CATEGORIES,
  TAX_MODES,
  TRAFFIC_SOURCES,
  TRANSACTION_ORIGINS,
  TRANSACTION_STATUSES,
} from '@drawdown/billing-core';
import { startBillingHarness } from '@drawdown/testkit';
import { dereference, validate } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { API_OPERATIONS } from '../../src/openapi/api-operations.js';
import { openApiDocument, openApiPath } from '../../src/openapi/openapi-document.js';
import { createOperationsApp } from '../../src/operations/operations-app.js';
import { harnessClients } from '../support/api-client.js';

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

type Schema = {
  additionalProperties?: unknown;
  properties?: Record<string, Schema>;
  items?: Schema;
  enum?: unknown[];
};

describe('the response schemas', () => {
  const schemas = (openApiDocument() as unknown as { components: { schemas: Record<string, Schema> } }).components
    .schemas;

  it('exist for every operation that answers JSON (add one in packages/billing-contract/src/responses)', () => {
    const json = new Set(['entity', 'list', 'array']);
    const unnamed = API_OPERATIONS.filter((operation) => json.has(operation.shape))
      .filter((operation) => !operation.response || !RESPONSE_SCHEMAS.has(operation.response))
      .map((operation) => `${operation.method} ${operation.path}`);
    expect(unnamed).toEqual([]);
  });

  it('are closed: a field the service starts emitting undocumented fails the walk', () => {
    const open = Object.entries(schemas)
      .filter(([name]) => !name.endsWith('Body') && name !== 'ErrorEnvelope')
      .filter(([, schema]) => schema.additionalProperties !== false)
      .map(([name]) => name);
    expect(open).toEqual([]);
  });

  it('name the same values as the core’s enums', () => {
    const values = (entity: string, field: string) => schemas[entity]?.properties?.[field]?.enum;
    expect(values('Transaction', 'status')).toEqual([...TRANSACTION_STATUSES]);
    expect(values('Transaction', 'origin')).toEqual([...TRANSACTION_ORIGINS]);
    expect(values('Subscription', 'status')).toEqual([...SUBSCRIPTION_STATUSES]);
    expect(values('Product', 'tax_category')).toEqual([...TAX_CATEGORIES]);
    expect(values('Product', 'type')).toEqual([...CATALOGUE_TYPES]);
    expect(values('Price', 'tax_mode')).toEqual([...TAX_MODES]);
    expect(values('Discount', 'status')).toEqual([...DISCOUNT_STATUSES]);
    expect(values('Discount', 'type')).toEqual([...DISCOUNT_TYPES]);
    expect(values('Notification', 'status')).toEqual([...NOTIFICATION_STATUSES]);
    expect(values('NotificationSetting', 'traffic_source')).toEqual([...TRAFFIC_SOURCES]);
    expect(values('Report', 'type')).toEqual([...REPORT_TYPES]);
    // Email kinds: the contract's list is the core's (ADR 1505), for jobs and for the settings.
    expect(values('Email', 'kind')).toEqual([...EMAIL_KINDS]);
    expect(schemas.EmailSettings?.properties?.enabled_emails?.items?.enum).toEqual([...EMAIL_KINDS]);
    const simulationType = schemas.Simulation?.properties?.type as { anyOf?: Schema[] } | undefined;
    expect(simulationType?.anyOf?.[1]?.enum).toEqual([...SCENARIO_TYPES]);
  });

  it('refuse a product with a field too many, one missing, or a timestamp that is not RFC 3339; errors match the error envelope', async () => {
    const harness = await startBillingHarness();
    try {
      const created = await harnessClients(harness).sandbox.post('/products', {
        name: 'Plan',
        tax_category: 'standard',
      });
      expect(created.status, created.text).toBe(201);
      const document = (await dereference(structuredClone(openApiDocument()) as never)) as unknown as Document;
      const schema = document.paths['/products/{id}']?.get?.responses['200']?.content?.['application/json']?.schema;
      const ajv = new Ajv2020({ strict: false });
      addFormats.default(ajv);
      const check = ajv.compile(schema ?? {});
      const body = created.body as { data: Record<string, unknown>; meta: unknown };
      expect(check(body), JSON.stringify(check.errors)).toBe(true);
      expect(check({ ...body, data: { ...body.data, vendor: 'x' } })).toBe(false);
      const { status: _status, ...withoutStatus } = body.data;
      expect(check({ ...body, data: withoutStatus })).toBe(false);
      expect(check({ ...body, data: { ...body.data, created_at: '2026-01-01 10:00:00' } })).toBe(false);
      expect(check({ ...body, data: { ...body.data, id: 'pri_01h0000000000000000000000a' } })).toBe(false);
      expect(check({ ...body, meta: { request_id: 'r', pagination: {} } })).toBe(false);
      // An event's data is checked by its type: a product event must carry a product.
      const events = document.paths['/events']?.get?.responses['200']?.content?.['application/json']?.schema;
      const checkEvents = ajv.compile(events ?? {});
      const page = (data: unknown) => ({
        data: [
          {
            event_id: 'evt_01h0000000000000000000000a',
            event_type: 'product.created',
            occurred_at: body.data.created_at,
            notification_id: null,
            data,
          },
        ],
        meta: {
          request_id: 'r',
          pagination: { per_page: 1, next: 'http://x/events', has_more: false, estimated_total: 1 },
        },
      });
      expect(checkEvents(page(body.data)), JSON.stringify(checkEvents.errors)).toBe(true);
      expect(checkEvents(page({ ...body.data, id: 'ctm_01h0000000000000000000000a' }))).toBe(false);
      expect(checkEvents(page({ name: 'no more' }))).toBe(false);

      // Errors are the documented envelope: unknown id, invalid field (with errors[]), no key, a key without the permission.
      const errors = ajv.compile(
        document.paths['/products/{id}']?.get?.responses.default?.content?.['application/json']?.schema ?? {},
      );
      const sandbox = harnessClients(harness).sandbox;
      const readOnly = await harness.createKey({ environment: 'sandbox', permissions: ['product.read'] });
      const failures = [
        await sandbox.get('/products/pro_01h0000000000000000000000a'),
        await sandbox.post('/products', { name: '', tax_category: 'standard' }),
        await sandbox.get('/products', { authorization: null }),
        await sandbox.post(
          '/products',
          { name: 'P', tax_category: 'standard' },
          { authorization: `Bearer ${readOnly}` },
        ),
      ];
      expect(failures.map((failure) => failure.status)).toEqual([404, 400, 403, 403]);
      for (const failure of failures)
        expect(errors(failure.body), `${failure.text} ${JSON.stringify(errors.errors)}`).toBe(true);
      expect(errors({ ...failures[0]?.body, error: { ...failures[0]?.body.error, code: 'made_up' } })).toBe(false);
    } finally {
      await harness.close();
    }
  });
});

describe('event data', () => {
  const emitted = EVENT_TYPE_NAMES.filter((type) => EVENT_TYPES[type].emitted !== 'never');

  it('is documented field by field for every event type the service records', () => {
    const covered = Object.keys(EVENT_DATA);
    expect(emitted.filter((type) => !covered.includes(type) && !covered.includes(type.split('.')[0] ?? ''))).toEqual(
      [],
    );
  });

  it('is checked by type: API keys, client tokens and payment methods carry their notification shapes only', async () => {
    const document = (await dereference(structuredClone(openApiDocument()) as never)) as unknown as Document;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    const check = ajv.compile(
      document.paths['/events']?.get?.responses['200']?.content?.['application/json']?.schema ?? {},
    );
    const at = '2026-01-01T10:00:00.000Z';
    const accepts = (eventType: string, data: unknown) =>
      check({
        data: [
          {
            event_id: 'evt_01h0000000000000000000000a',
            event_type: eventType,
            occurred_at: at,
            notification_id: null,
            data,
          },
        ],
        meta: {
          request_id: 'r',
          pagination: { per_page: 1, next: 'http://x/events', has_more: false, estimated_total: 1 },
        },
      });
    const apiKey = {
      id: 'apikey_01h0000000000000000000000a',
      name: 'CRM',
      description: null,
      key: 'pdl_live_apikey_01h0000000****',
      status: 'active',
      permissions: [...ALL_PERMISSIONS],
      expires_at: null,
      last_used_at: null,
      created_at: at,
      updated_at: at,
    };
    expect(accepts('api_key.created', apiKey), JSON.stringify(check.errors)).toBe(true);
    expect(accepts('api_key.created', { ...apiKey, secret: 'x' })).toBe(false);
    expect(accepts('api_key.created', { ...apiKey, key: 'pdl_live_apikey_01h0000000000000000000000a_secret' })).toBe(
      false,
    );
    expect(accepts('api_key.revoked', { ...apiKey, status: 'paused' })).toBe(false);
    const clientToken = {
      id: 'ctkn_01h0000000000000000000000a',
      token: 'test_0123456789abcdefghijklmnopqrstuv',
      name: 'Shop',
      description: null,
      status: 'revoked',
      created_at: at,
      updated_at: at,
      revoked_at: at,
    };
    expect(accepts('client_token.revoked', clientToken), JSON.stringify(check.errors)).toBe(true);
    expect(accepts('client_token.revoked', { ...clientToken, id: 'apikey_01h0000000000000000000000a' })).toBe(false);
    const method = {
      id: 'paymtd_01h0000000000000000000000a',
      customer_id: 'ctm_01h0000000000000000000000a',
      address_id: 'add_01h0000000000000000000000a',
      type: 'card',
      origin: 'subscription',
      saved_at: at,
      updated_at: at,
    };
    expect(accepts('payment_method.saved', method), JSON.stringify(check.errors)).toBe(true);
    expect(accepts('payment_method.deleted', { ...method, deletion_reason: 'api' })).toBe(true);
    // The notification carries no card details, and a deletion says why.
    const card = { type: 'visa', last4: '4242', expiry_month: 12, expiry_year: 2039, cardholder_name: 'Ada' };
    expect(accepts('payment_method.saved', { ...method, card })).toBe(false);
    expect(accepts('payment_method.saved', { ...method, deletion_reason: 'api' })).toBe(false);
    expect(accepts('payment_method.deleted', method)).toBe(false);
    expect(accepts('payment_method.deleted', { ...method, deletion_reason: 'expired' })).toBe(false);
  });
});
