/**
 * Every id a request body carries names an entity of the caller's account and environment (and,
 * for an address, of the customer concerned) that is usable (not archived), or the request is
 * refused with the entity's code and nothing changes (ADR 0008, ADR 0902). The table below walks
 * every body field that holds an id, on every route; a field of the contract that holds an id
 * and is missing from the table fails the test.
 */
import * as contract from '@drawdown/billing-contract';
import { type BillingHarness, ENGINES, startBillingHarness, startSandboxSubscription } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, apiClient, expectError, harnessClients, type WireObject } from '../support/api-client.js';
import {
  createCustomer,
  createPrice,
  createProduct,
  createUnit,
  meterBody,
  priceBody,
} from '../support/catalogue-fixtures.js';

/** The paths (`items[].price_id`) of every field ending in `_id` in a zod schema. */
function idFields(schema: unknown, path = ''): string[] {
  const def = (schema as { _zod?: { def?: Record<string, unknown> } })?._zod?.def;
  if (!def) return [];
  switch (def.type) {
    case 'object':
      return Object.entries(def.shape as Record<string, unknown>).flatMap(([key, child]) => {
        const childPath = path === '' ? key : `${path}.${key}`;
        return [...(key.endsWith('_id') ? [childPath] : []), ...idFields(child, childPath)].filter(
          (found, index, all) => all.indexOf(found) === index,
        );
      });
    case 'array':
      return idFields(def.element, `${path}[]`);
    case 'optional':
    case 'nullable':
    case 'default':
      return idFields(def.innerType, path);
    case 'union':
      return (def.options as unknown[]).flatMap((option) => idFields(option, path));
    case 'pipe':
      return idFields(def.in, path);
    default:
      return [];
  }
}

const BODY_ID_FIELDS = Object.entries(contract)
  .filter(([name]) => name.endsWith('Body'))
  .flatMap(([name, schema]) => [...new Set(idFields(schema))].map((field) => `${name}.${field}`))
  .sort();

type Kind =
  | 'product'
  | 'price'
  | 'customer'
  | 'address'
  | 'unit'
  | 'transaction'
  | 'discount'
  | 'discountGroup'
  | 'business'
  | 'notificationSetting';

const NOT_FOUND: Record<Kind, string> = {
  product: 'product_not_found',
  price: 'price_not_found',
  customer: 'customer_not_found',
  address: 'address_not_found',
  unit: 'usage_balance_unit_not_found',
  transaction: 'transaction_not_found',
  discount: 'transaction_discount_not_found',
  discountGroup: 'discount_group_not_found',
  business: 'business_not_found',
  notificationSetting: 'simulation_destination_not_found',
};
const ARCHIVABLE: ReadonlySet<Kind> = new Set([
  'product',
  'price',
  'customer',
  'address',
  'unit',
  'discount',
  'discountGroup',
  'business',
]);
/** Kinds that belong to a customer: another customer's is refused too (with the kind's own code). */
const CUSTOMERS_OWN: Partial<Record<Kind, string>> = {
  address: 'address_not_found',
  business: 'transaction_business_customer_mismatch',
};

/** One account-environment's entities, each kind once active and (where it can be) once archived. */
interface Entities extends Readonly<Record<Kind, string>> {
  readonly simulation: string;
  readonly archived: Partial<Record<Kind, string>>;
  /** Another active customer's entities of the kinds that belong to a customer. */
  readonly otherCustomers: Partial<Record<Kind, string>>;
}

async function seed(api: ApiClient): Promise<Entities> {
  const product = await createProduct(api);
  const price = String((await createPrice(api, product)).id);
  const customer = await createCustomer(api);
  const address = (await api.post(`/customers/${customer}/addresses`, { country_code: 'GB' })).id;
  const other = await createCustomer(api);
  const otherCustomersAddress = (await api.post(`/customers/${other}/addresses`, { country_code: 'GB' })).id;
  const unit = await createUnit(api);
  const business = (await api.post(`/customers/${customer}/businesses`, { name: 'Own Ltd' })).id;
  const otherCustomersBusiness = (await api.post(`/customers/${other}/businesses`, { name: 'Other Ltd' })).id;
  const discountGroup = (await api.post('/discount-groups', { name: 'Group' })).id;
  const discount = (await api.post('/discounts', discountBody())).id;
  const notificationSetting = (
    await api.post('/notification-settings', {
      description: 'hook',
      type: 'url',
      destination: 'https://hooks.example.com/drawdown',
      subscribed_events: ['customer.created'],
      traffic_source: 'all',
    })
  ).id;
  const simulation = (
    await api.post('/simulations', {
      notification_setting_id: notificationSetting,
      name: 'Walk',
      type: 'customer.created',
    })
  ).id;
  const transaction = (
    await api.post('/transactions', {
      items: [{ price_id: price, quantity: 1 }],
      customer_id: customer,
      address_id: address,
    })
  ).id;
  const archive = async (path: string, id: string) => {
    const response = await api.patch(`${path}/${id}`, { status: 'archived' });
    expect(response.status, response.text).toBe(200);
    return id;
  };
  const archivedCustomer = await createCustomer(api);
  return {
    product,
    price,
    customer,
    address,
    unit,
    transaction,
    discount,
    discountGroup,
    business,
    notificationSetting,
    simulation,
    otherCustomers: { address: otherCustomersAddress, business: otherCustomersBusiness },
    archived: {
      product: await archive('/products', await createProduct(api)),
      price: await archive('/prices', String((await createPrice(api, product)).id)),
      customer: await archive('/customers', archivedCustomer),
      address: await archive(
        `/customers/${customer}/addresses`,
        (await api.post(`/customers/${customer}/addresses`, { country_code: 'GB' })).id,
      ),
      unit: await archive('/usage-balance-units', await createUnit(api)),
      discount: await archive('/discounts', (await api.post('/discounts', discountBody())).id),
      discountGroup: await archive('/discount-groups', (await api.post('/discount-groups', { name: 'Old' })).id),
      business: await archive(
        `/customers/${customer}/businesses`,
        (await api.post(`/customers/${customer}/businesses`, { name: 'Old Ltd' })).id,
      ),
    },
  };
}

function discountBody(): WireObject {
  return { description: 'Ten off', type: 'percentage', amount: '10', enabled_for_checkout: false, recur: false };
}

interface Reference {
  /** `Schema.field` as the contract names it. */
  readonly field: string;
  readonly kind: Kind;
  readonly method: string;
  readonly path: (own: Entities, subscription: string) => string;
  readonly body: (id: string, own: Entities) => WireObject;
  /** The code every refusal answers when it is not the kind's own (an immutable field). */
  readonly code?: string;
  /** The item of a usage-events answer carries the refusal (per event, inside a 202). */
  readonly perEvent?: true;
  /** The field also refuses an active entity of the caller (it may never change). */
  readonly immutable?: true;
}

/** A non-catalogue price for product `productId` (ADR 1108). */
const nonCatalogueItem = (productId: string): WireObject => ({
  price: { description: 'Bespoke', unit_price: { amount: '100', currency_code: 'EUR' }, product_id: productId },
  quantity: 1,
});

const transactionBody = (own: Entities, changes: WireObject): WireObject => ({
  items: [{ price_id: own.price, quantity: 1 }],
  customer_id: own.customer,
  address_id: own.address,
  ...changes,
});

const REFERENCES: readonly Reference[] = [
  {
    field: 'CreatePriceBody.product_id',
    kind: 'product',
    method: 'POST',
    path: () => '/prices',
    body: (id) => priceBody(id),
  },
  {
    field: 'CreatePriceBody.allowances[].usage_balance_unit_id',
    kind: 'unit',
    method: 'POST',
    path: () => '/prices',
    body: (id, own) => priceBody(own.product, { allowances: [{ usage_balance_unit_id: id, amount: '1' }] }),
  },
  {
    field: 'UpdatePriceBody.allowances[].usage_balance_unit_id',
    kind: 'unit',
    method: 'PATCH',
    path: (own) => `/prices/${own.price}`,
    body: (id) => ({ allowances: [{ usage_balance_unit_id: id, amount: '1' }] }),
  },
  {
    field: 'CreateMeterBody.usage_balance_unit_id',
    kind: 'unit',
    method: 'POST',
    path: () => '/meters',
    body: (id) => meterBody(id),
  },
  {
    field: 'UpdateMeterBody.usage_balance_unit_id',
    kind: 'unit',
    method: 'PATCH',
    path: () => '/meters/:meter',
    body: (id) => ({ usage_balance_unit_id: id }),
    code: 'meter_immutable_field',
    immutable: true,
  },
  ...(['CreateTransactionBody', 'UpdateTransactionBody'] as const).flatMap((schema): Reference[] => {
    const method = schema === 'CreateTransactionBody' ? 'POST' : 'PATCH';
    const path = (own: Entities) => (method === 'POST' ? '/transactions' : `/transactions/${own.transaction}`);
    return [
      {
        field: `${schema}.items[].price_id`,
        kind: 'price',
        method,
        path,
        body: (id, own) => transactionBody(own, { items: [{ price_id: id, quantity: 1 }] }),
      },
      {
        field: `${schema}.items[].price.product_id`,
        kind: 'product',
        method,
        path,
        body: (id, own) => transactionBody(own, { items: [nonCatalogueItem(id)] }),
      },
      {
        field: `${schema}.customer_id`,
        kind: 'customer',
        method,
        path,
        body: (id, own) => transactionBody(own, { customer_id: id, address_id: null }),
      },
      {
        field: `${schema}.address_id`,
        kind: 'address',
        method,
        path,
        body: (id, own) => transactionBody(own, { address_id: id }),
      },
      {
        field: `${schema}.business_id`,
        kind: 'business',
        method,
        path,
        body: (id, own) => transactionBody(own, { business_id: id }),
      },
      {
        field: `${schema}.discount_id`,
        kind: 'discount',
        method,
        path,
        body: (id, own) => transactionBody(own, { discount_id: id }),
      },
    ];
  }),
  ...(['PreviewTransactionBody', 'PricingPreviewBody'] as const).flatMap((schema): Reference[] => {
    const path = () => (schema === 'PreviewTransactionBody' ? '/transactions/preview' : '/pricing-preview');
    const row = (field: string, kind: Kind, changes: (id: string) => WireObject): Reference => ({
      field: `${schema}.${field}`,
      kind,
      method: 'POST',
      path,
      body: (id, own) => transactionBody(own, changes(id)),
    });
    return [
      row('items[].price_id', 'price', (id) => ({ items: [{ price_id: id, quantity: 1 }] })),
      ...(schema === 'PreviewTransactionBody'
        ? [row('items[].price.product_id', 'product', (id) => ({ items: [nonCatalogueItem(id)] }))]
        : []),
      row('customer_id', 'customer', (id) => ({ customer_id: id, address_id: null })),
      row('address_id', 'address', (id) => ({ address_id: id })),
      row('business_id', 'business', (id) => ({ business_id: id })),
      row('discount_id', 'discount', (id) => ({ discount_id: id })),
    ];
  }),
  {
    field: 'CreateDiscountBody.discount_group_id',
    kind: 'discountGroup',
    method: 'POST',
    path: () => '/discounts',
    body: (id) => ({ ...discountBody(), discount_group_id: id }),
  },
  {
    field: 'UpdateDiscountBody.discount_group_id',
    kind: 'discountGroup',
    method: 'PATCH',
    path: (own) => `/discounts/${own.discount}`,
    body: (id) => ({ discount_group_id: id }),
  },
  {
    field: 'CreateSimulationBody.notification_setting_id',
    kind: 'notificationSetting',
    method: 'POST',
    path: () => '/simulations',
    body: (id) => ({ notification_setting_id: id, name: 'Refused', type: 'customer.created' }),
  },
  {
    field: 'UpdateSimulationBody.notification_setting_id',
    kind: 'notificationSetting',
    method: 'PATCH',
    path: (own) => `/simulations/${own.simulation}`,
    body: (id) => ({ notification_setting_id: id }),
  },
  {
    field: 'SubscriptionChargeBody.items[].price_id',
    kind: 'price',
    method: 'POST',
    path: (_own, subscription) => `/subscriptions/${subscription}/charge`,
    body: (id) => ({ effective_from: 'next_billing_period', items: [{ price_id: id, quantity: 1 }] }),
  },
  {
    field: 'UpdateSubscriptionBody.customer_id',
    kind: 'customer',
    method: 'PATCH',
    path: (_own, subscription) => `/subscriptions/${subscription}`,
    body: (id, own) => ({ customer_id: id, address_id: own.otherCustomers.address ?? '' }),
  },
  {
    field: 'UpdateSubscriptionBody.business_id',
    kind: 'business',
    method: 'PATCH',
    path: (_own, subscription) => `/subscriptions/${subscription}`,
    body: (id) => ({ business_id: id }),
  },
  {
    field: 'CreateAdjustmentBody.transaction_id',
    kind: 'transaction',
    method: 'POST',
    path: () => '/adjustments',
    body: (id) => ({ action: 'credit', transaction_id: id, reason: 'r', type: 'full' }),
  },
  {
    field: 'UpdateSubscriptionBody.items[].price_id',
    kind: 'price',
    method: 'PATCH',
    path: (_own, subscription) => `/subscriptions/${subscription}`,
    body: (id) => ({ items: [{ price_id: id, quantity: 1 }], proration_billing_mode: 'full_immediately' }),
  },
  {
    field: 'UpdateSubscriptionBody.address_id',
    kind: 'address',
    method: 'PATCH',
    path: (_own, subscription) => `/subscriptions/${subscription}`,
    body: (id) => ({ address_id: id }),
  },
  {
    field: 'RecordUsageEventsBody.events[].customer_id',
    kind: 'customer',
    method: 'POST',
    path: () => '/usage-events',
    body: (id) => ({
      events: [
        { event_key: 'k', customer_id: id, action: 'api_call', quantity: '1', occurred_at: new Date().toISOString() },
      ],
    }),
    perEvent: true,
  },
];

/**
 * Body ids checked elsewhere, with where: they name a part of an entity the same body names,
 * so they are checked against that entity.
 */
const CHECKED_AGAINST_THEIR_PARENT: Readonly<Record<string, string>> = {
  // An item of the adjusted transaction: a foreign or unknown one is not on it (invalid_field).
  'CreateAdjustmentBody.items[].item_id': 'adjustments.test.ts',
};

describe.each(ENGINES)('%s: ids in request bodies', (engine) => {
  let harness: BillingHarness;
  let api: ApiClient;
  let own: Entities;
  let subscription: string;
  let meter: string;
  let otherUnit: string;
  const foreign: Record<string, Entities> = {};

  beforeAll(async () => {
    harness = await startBillingHarness({ engine });
    api = harnessClients(harness).sandbox;
    own = await seed(api);
    meter = String((await api.post('/meters', meterBody(own.unit))).id);
    otherUnit = await createUnit(api);
    subscription = await startSandboxSubscription(harness, {
      customerId: own.customer,
      items: [{ priceId: own.price, quantity: 1 }],
      currencyCode: 'EUR',
    });
    const otherAccount = await harness.createAccount({ earlyAccess: true, name: 'Other tenant' });
    foreign['another account'] = await seed(
      apiClient(
        harness.sandboxUrl,
        await harness.createKey({ environment: 'sandbox', permissions: ['all'], accountId: otherAccount }),
      ),
    );
    foreign['the other environment'] = await seed(harnessClients(harness).live);
  }, 120_000);
  afterAll(() => harness.close());

  /**
   * What a refused request could have changed: the environment's events (every write records
   * one; the page must hold them all, or the comparison would miss the newest), the walked
   * subscription, its transactions, and the simulation and discount the rows update.
   */
  async function state(): Promise<string> {
    const events = await api.get('/events?per_page=200');
    expect(events.body.meta?.pagination?.has_more, 'the events page holds every event').toBe(false);
    const reads = await Promise.all(
      [
        `/subscriptions/${subscription}`,
        `/transactions?subscription_id=${subscription}&per_page=200`,
        `/simulations/${own.simulation}`,
        `/discounts/${own.discount}`,
        `/transactions/${own.transaction}`,
      ].map(async (path) => (await api.get(path)).body.data),
    );
    return JSON.stringify([events.body.data, reads]);
  }

  it('has a row for every body field of the contract that holds an id', () => {
    const covered = new Set([
      ...REFERENCES.map((reference) => reference.field),
      ...Object.keys(CHECKED_AGAINST_THEIR_PARENT),
    ]);
    expect(BODY_ID_FIELDS.filter((field) => !covered.has(field))).toEqual([]);
    expect([...covered].filter((field) => !BODY_ID_FIELDS.includes(field))).toEqual([]);
  });

  it.each(
    REFERENCES.map((reference) => [reference.field, reference] as const),
  )('%s: refuses an id that is unknown, of another account or environment, archived, or another customer’s', async (_field, reference) => {
    const prefix = (own[reference.kind] ?? '').split('_').slice(0, -1).join('_');
    const cases: [string, string][] = [
      ['unknown', `${prefix}_${'0'.repeat(26)}`],
      ...Object.entries(foreign).map(([label, entities]): [string, string] => [label, entities[reference.kind]]),
    ];
    const archived = own.archived[reference.kind];
    if (ARCHIVABLE.has(reference.kind) && archived !== undefined) cases.push(['archived', archived]);
    const otherCustomers = own.otherCustomers[reference.kind];
    if (otherCustomers !== undefined) cases.push(['another customer’s', otherCustomers]);
    if (reference.immutable) cases.push(['the caller’s own other one', otherUnit]);
    const path = reference.path(own, subscription).replace(':meter', meter);
    const before = await state();
    for (const [label, id] of cases) {
      const response = await api.request(reference.method, path, { body: reference.body(id, own) });
      const expected =
        reference.code ??
        (label === 'archived'
          ? 'entity_archived'
          : label === 'another customer’s'
            ? (CUSTOMERS_OWN[reference.kind] ?? NOT_FOUND[reference.kind])
            : NOT_FOUND[reference.kind]);
      if (reference.perEvent) {
        expect(response.status, response.text).toBe(202);
        expect((response.entity.events as WireObject[])[0], `${label}: ${response.text}`).toMatchObject({
          status: 'rejected',
          error: { code: expected },
        });
        continue;
      }
      expect({ label, status: response.status, code: response.body.error?.code }, response.text).toEqual({
        label,
        status: 400,
        code: expected,
      });
      expectError(response, 400, expected);
    }
    // Nothing changed: no event was recorded, and a subscription still reads as before.
    expect(await state()).toBe(before);
  });
});
