/**
 * Text no engine can store (NUL, an unpaired UTF-16 surrogate) in any string field, object key
 * or query parameter of any route: 400 `invalid_characters` on both engines, nothing changed
 * (ADR 0901). Usage events answer it per event, and one tenant's unstorable event never fails
 * another tenant's events that share its group commit.
 */
import { createApp } from '@drawdown/billing-service';
import { openDatabase, type SqlDatabase } from '@drawdown/billing-store';
import { type BillingHarness, ENGINES, startBillingHarness, storeConfigOf } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, apiClient, expectError, harnessClients } from '../support/api-client.js';
import {
  createCustomer,
  createMeter,
  createPrice,
  createProduct,
  createUnit,
  meterBody,
  priceBody,
} from '../support/catalogue-fixtures.js';

const ROUTES = (() => {
  const app = createApp({} as Parameters<typeof createApp>[0], {
    environment: 'sandbox',
    publicBaseUrl: () => 'http://127.0.0.1',
  });
  return [...new Set(app.routes.filter((route) => route.method !== 'ALL').map((r) => `${r.method} ${r.path}`))];
})();
const WRITES = ROUTES.filter((route) => !route.startsWith('GET '));
const LISTS = ROUTES.filter((route) => route.startsWith('GET ') && !route.split('/').at(-1)?.startsWith(':'));

const UNSTORABLE = { NUL: 'a\u0000b', 'a lone high surrogate': 'a\uD800b', 'a lone low surrogate': '\uDFFFb' };

/** Every path to a string inside `value`, as key lists. */
function stringPaths(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (typeof value === 'string') return [path];
  if (Array.isArray(value)) return value.flatMap((child, index) => stringPaths(child, [...path, index]));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, child]) => stringPaths(child, [...path, key]));
  }
  return [];
}

function replaced(value: unknown, path: readonly (string | number)[], text: string): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return text;
  if (Array.isArray(value)) return value.map((child, index) => (index === head ? replaced(child, rest, text) : child));
  const record = value as Record<string, unknown>;
  return { ...record, [head]: replaced(record[head], rest, text) };
}

describe.each(ENGINES)('%s: unstorable text', (engine) => {
  let harness: BillingHarness;
  let api: ApiClient;
  let counter: SqlDatabase;
  let tables: string[];
  const ids: Record<string, string> = {};
  /** Every write route with a plausible body; `null` for routes that read no body. */
  let templates: Record<string, Record<string, unknown> | null>;

  beforeAll(async () => {
    // A configured portal: portal sessions are made, not refused (ADR 1472).
    harness = await startBillingHarness({ engine, portalUrl: 'https://portal.example/billing' });
    api = harnessClients(harness).sandbox;
    ids.products = await createProduct(api);
    ids.prices = String((await createPrice(api, ids.products)).id);
    ids.customers = await createCustomer(api);
    ids.addresses = (await api.post(`/customers/${ids.customers}/addresses`, { country_code: 'GB' })).id;
    ids['usage-balance-units'] = await createUnit(api);
    ids.meters = String((await createMeter(api, ids['usage-balance-units'])).id);
    ids['client-tokens'] = (await api.post('/client-tokens', { name: 'Probe' })).id;
    const unit = ids['usage-balance-units'];
    const item = { price_id: ids.prices, quantity: 1 };
    const nonCatalogueItem = {
      price: {
        description: 'Bespoke',
        name: 'Bespoke price',
        unit_price: { amount: '100', currency_code: 'USD' },
        custom_data: { note: 'x' },
        product: { name: 'Bespoke product', tax_category: 'standard', description: 'd', custom_data: { note: 'x' } },
      },
      quantity: 1,
    };
    templates = {
      'POST /products': { name: 'P', tax_category: 'standard', description: 'd', custom_data: { note: 'x' } },
      'PATCH /products/:id': { name: 'Renamed', description: 'x', custom_data: { note: 'x' } },
      'POST /prices': priceBody(ids.products, { allowances: [{ usage_balance_unit_id: unit, amount: '1' }] }),
      'PATCH /prices/:id': { description: 'x', name: 'n', custom_data: { note: 'x' } },
      'POST /customers': { email: 'unstorable@example.com', name: 'Ada', locale: 'en', custom_data: { a: 'x' } },
      'PATCH /customers/:id': { name: 'Renamed', email: 'renamed@example.com' },
      'POST /customers/:customer/addresses': {
        country_code: 'GB',
        city: 'London',
        first_line: 'x',
        second_line: 'y',
        postal_code: 'N1',
        region: 'r',
        description: 'd',
      },
      'PATCH /customers/:customer/addresses/:id': { city: 'Leeds', first_line: 'x' },
      'POST /usage-balance-units': { name: 'Credits', unit_name: 'credits' },
      'PATCH /usage-balance-units/:id': { name: 'Renamed' },
      'POST /meters': meterBody(unit, { name: 'm', action: 'unstorable_probe' }),
      'PATCH /meters/:id': { rate: '2', name: 'Renamed' },
      'POST /notification-settings': {
        description: 'hook',
        destination: 'https://example.com/hook',
        subscribed_events: ['transaction.completed'],
        type: 'url',
      },
      'PATCH /notification-settings/:id': { description: 'renamed' },
      'DELETE /notification-settings/:id': null,
      'POST /notification-settings/:id/rotate-secret': null,
      'POST /notifications/:id/replay': null,
      'PATCH /subscriptions/:id': { custom_data: { note: 'x' } },
      'POST /subscriptions/:id/pause': { effective_from: 'next_billing_period' },
      'POST /subscriptions/:id/resume': { effective_from: 'immediately' },
      'POST /subscriptions/:id/cancel': {
        effective_from: 'next_billing_period',
        cancellation_reason: { reason: 'other', comment: 'x' },
      },
      'POST /transactions': {
        // A non-catalogue price with a product of its own: every text of both is walked (ADR 1108).
        items: [item, nonCatalogueItem],
        customer_id: ids.customers,
        currency_code: 'USD',
        custom_data: { note: 'x' },
        billing_details: { purchase_order_number: 'po', additional_information: 'info' },
      },
      'PATCH /transactions/:id': { custom_data: { note: 'x' }, items: [nonCatalogueItem] },
      'POST /transactions/:id/simulate-payment': { method_type: 'card' },
      'POST /transactions/:id/payments': { method_type: 'card', provider_reference: 'ref', amount: '1' },
      'POST /adjustments': {
        action: 'refund',
        transaction_id: 'txn_00000000000000000000000000',
        reason: 'r',
        items: [{ item_id: 'txnitm_00000000000000000000000000', type: 'full' }],
      },
      'PATCH /tax-settings': { default_rate: '0.2', seller_country_code: 'DE' },
      'PATCH /seller-details': {
        legal_name: 'Analytical Engines Ltd',
        address: { country_code: 'GB', city: 'London' },
      },
      'PATCH /email-settings': { sender_name: 'Analytical Engines', reply_to: 'help@example.com' },
      'POST /client-tokens': { name: 'Checkout', description: 'd' },
      'PATCH /client-tokens/:id': { status: 'revoked' },
      'POST /customers/:customer/auth-token': {},
      'PATCH /checkout-settings': { default_payment_link: 'https://example.com/pay' },
      'DELETE /customers/:customer/payment-methods/:id': null,
      // The hosted checkout's forms read form-encoded bodies, never JSON: test/payments/checkout.test.ts
      // sends them unstorable text (400 invalid_characters). A provider's notification is a raw body
      // the provider verifies before anything is read.
      'POST /checkout/details': null,
      'POST /checkout/code': null,
      'POST /checkout/pay': null,
      'POST /checkout/intent': null,
      'POST /checkout/sandbox-authentication/:ref': null,
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
      'POST /sandbox-clock/advance': { seconds: 1 },
      'PUT /sandbox-payment-outcome': { outcome: 'failure' },
      'POST /customers/:customer/businesses': {
        name: 'Ada Ltd',
        company_number: '123',
        tax_identifier: 'GB123456789',
        contacts: [{ name: 'Ada', email: 'ada@example.com' }],
        custom_data: { note: 'x' },
      },
      'PATCH /customers/:customer/businesses/:id': { name: 'Renamed', company_number: '9' },
      'POST /discounts': {
        description: 'Ten off',
        type: 'flat',
        amount: '100',
        currency_code: 'USD',
        code: 'TENOFF',
        enabled_for_checkout: false,
        recur: false,
        restrict_to: [ids.prices],
        custom_data: { note: 'x' },
      },
      'PATCH /discounts/:id': { description: 'Renamed', code: 'NEWCODE' },
      'POST /discount-groups': { name: 'Group' },
      'PATCH /discount-groups/:id': { name: 'Renamed' },
      'POST /simulations': {
        notification_setting_id: 'ntfset_00000000000000000000000000',
        name: 'Walk',
        type: 'customer.created',
        payload: { name: 'Ada' },
      },
      'PATCH /simulations/:id': { name: 'Renamed', type: 'customer.updated' },
      'POST /simulations/:id/runs': null,
      'POST /simulations/:id/runs/:run_id/events/:event_id/replay': null,
      'POST /reports': { type: 'transactions', filters: [{ name: 'status', operator: null, value: ['paid'] }] },
      'PATCH /subscriptions/:id/preview': {
        items: [item],
        proration_billing_mode: 'prorated_immediately',
        custom_data: { note: 'x' },
      },
      'POST /subscriptions/:id/charge': { effective_from: 'immediately', items: [item] },
      'POST /subscriptions/:id/charge/preview': { effective_from: 'next_billing_period', items: [item] },
      'POST /subscriptions/:id/activate': null,
      'POST /transactions/preview': {
        items: [item, nonCatalogueItem],
        customer_id: ids.customers,
        currency_code: 'USD',
        address: { country_code: 'GB', postal_code: 'N1' },
      },
      'POST /pricing-preview': { items: [item], customer_id: ids.customers, currency_code: 'USD' },
      'POST /customers/:customer/portal-sessions': { subscription_ids: ['sub_01aaaaaaaaaaaaaaaaaaaaaaaa'] },
      'POST /customer-portal-sessions/verify': { token: 'not-a-token' },
      'POST /transactions/:id/revise': {
        customer: { name: 'Ada' },
        business: { name: 'Ada Ltd', tax_identifier: 'GB1' },
        address: { first_line: 'x', second_line: 'y', city: 'London', region: 'r' },
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
    // The reminder step keeps one row per account environment (ADR 1503), written by the server's own
    // worker whenever it first runs: run it now, so a refusal is all the counts compare.
    await harness.services.useCases.runDueWork('email_reminders');
  });
  afterAll(async () => {
    await counter?.close();
    await harness.close();
  });

  async function snapshot(): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const table of tables) {
      const row = await counter.get<{ total: number | string }>(`select count(*) as total from ${table}`);
      counts[table] = Number(row?.total ?? 0);
    }
    return counts;
  }

  function concretePath(path: string): string {
    const segments = path.split('/');
    return segments
      .map((segment, index) => {
        if (!segment.startsWith(':')) return segment;
        const collection = segment === ':customer' ? 'customers' : (segments[index - 1] ?? '');
        const prefix = {
          subscriptions: 'sub',
          transactions: 'txn',
          notifications: 'ntf',
          businesses: 'biz',
          discounts: 'dsc',
          'discount-groups': 'dsg',
          simulations: 'ntfsim',
          runs: 'ntfsimrun',
          events: 'ntfsimevt',
        }[collection];
        return ids[collection] ?? `${prefix ?? 'ntfset'}_00000000000000000000000000`;
      })
      .join('/');
  }

  it('has a body for every write route the app serves', () => {
    expect(WRITES.filter((route) => !(route in templates))).toEqual([]);
    expect(Object.keys(templates).filter((route) => !WRITES.includes(route))).toEqual([]);
  });

  it('refuses unstorable text in every string field and object key of every body, changing nothing', async () => {
    const before = await snapshot();
    for (const route of WRITES) {
      const template = templates[route];
      if (template === null || template === undefined) continue;
      const [method = '', path = ''] = route.split(' ');
      const spoilt = [
        ...stringPaths(template).flatMap((field) =>
          Object.values(UNSTORABLE).map((text) => replaced(template, field, text)),
        ),
        { ...template, 'custom\u0000key': 1 },
        { ...template, custom_data: { '\uD800': 'x' } },
      ];
      for (const body of spoilt) {
        const response = await api.request(method, concretePath(path), { body });
        const what = `${route} ${JSON.stringify(body)}`;
        if (route === 'POST /usage-events' && response.status === 202) {
          expect(response.entity.events, what).toEqual([
            expect.objectContaining({
              status: 'rejected',
              error: expect.objectContaining({ code: 'invalid_characters' }),
            }),
          ]);
          continue;
        }
        expect({ status: response.status, code: response.body.error?.code }, what).toEqual({
          status: 400,
          code: 'invalid_characters',
        });
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it('refuses NUL in every filter and query parameter of every list', async () => {
    for (const route of LISTS) {
      const path = concretePath(route.slice('GET '.length));
      for (const parameter of ['search', 'email', 'event_type', 'action', 'status', 'id', 'per_page', 'x']) {
        for (const query of [`${parameter}=%00`, `${parameter}=a%00b`, `${parameter}%00=1`]) {
          expectError(await api.get(`${path}?${query}`), 400, 'invalid_characters');
        }
      }
    }
  });

  it("answers one tenant's unstorable events per event and never fails another tenant's events beside them", async () => {
    const otherAccount = await harness.createAccount({ earlyAccess: true, name: 'Neighbour' });
    const other = apiClient(
      harness.sandboxUrl,
      await harness.createKey({ environment: 'sandbox', permissions: ['all'], accountId: otherAccount }),
    );
    const neighbour = await createCustomer(other);
    const event = (customerId: string, eventKey: string) => ({
      events: [
        {
          event_key: eventKey,
          customer_id: customerId,
          action: 'api_call',
          quantity: '1',
          occurred_at: new Date().toISOString(),
        },
      ],
    });
    const [hostile, honest] = await Promise.all([
      Promise.all(
        Array.from({ length: 40 }, (_, n) => api.post('/usage-events', event(ids.customers ?? '', `bad\u0000${n}`))),
      ),
      Promise.all(Array.from({ length: 120 }, (_, n) => other.post('/usage-events', event(neighbour, `good-${n}`)))),
    ]);
    for (const response of hostile) {
      expect(response.status, response.text).toBe(202);
      expect(response.entity.events).toEqual([
        expect.objectContaining({ status: 'rejected', error: expect.objectContaining({ code: 'invalid_characters' }) }),
      ]);
    }
    const statuses = honest.map(
      (response) => (response.entity.events as { status: string }[] | undefined)?.[0]?.status,
    );
    expect(statuses).toEqual(Array.from({ length: 120 }, () => 'accepted'));
  });
});
