/**
 * Nothing accepted and ignored: every field of every request body the official SDK can send to
 * a subscription or transaction endpoint is read from the SDK's own type declarations and
 * classified here, either as having its documented effect (the named test proves it) or as
 * refused with a specific code, which this test then sends and checks, with nothing written.
 * A field the SDK gains and this table does not classify fails the test.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, expectError, harnessClients, type WireObject } from '../support/api-client.js';
import { createProduct } from '../support/catalogue-fixtures.js';
import { type Buyer, createBuyer } from '../transactions/transaction-fixtures.js';

const require = createRequire(import.meta.url);
// The package's entry is dist/cjs/index…js; its declarations sit beside, in dist/types.
const SDK_RESOURCES = join(dirname(require.resolve('@paddle/paddle-node-sdk')), '..', 'types', 'resources');
const SDK_TYPES = join(dirname(require.resolve('@paddle/paddle-node-sdk')), '..', 'types', 'types');
const TEST_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The property names of `interface <name> { … }` in an SDK declaration file (under
 * `types/resources`, or `types/types` for the shapes nested in request bodies).
 */
function sdkFields(file: string, name: string, root: Walk['root'] = 'resources'): string[] {
  const text = readFileSync(join(root === 'types' ? SDK_TYPES : SDK_RESOURCES, file), 'utf8');
  const body = new RegExp(`interface ${name}(?: extends [^{]+)? \\{([^}]*)\\}`).exec(text)?.[1];
  if (body === undefined) throw new Error(`${name} not found in ${file}`);
  return [...body.matchAll(/^\s*(\w+)\??:/gm)].map((match) => match[1] ?? '');
}

function snake(field: string): string {
  return field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** Proven by the named test file (relative to the service's test folder), which sends the field. */
type Verdict =
  | { readonly effect: string }
  | { readonly refused: 'field_not_supported' | 'invalid_field'; readonly value: unknown };

interface Walk {
  /** Where `file` is: the request types (default), or the shared shapes nested in them. */
  readonly root?: 'resources' | 'types';
  readonly file: string;
  readonly name: string;
  readonly endpoint: string;
  readonly fields: Readonly<Record<string, Verdict>>;
}

/** The non-catalogue items of transaction bodies and previews (ADR 1108): each field has its effect. */
const NON_CATALOGUE = 'transactions/non-catalogue-items.test.ts';
const NON_CATALOGUE_WALKS: readonly Walk[] = [
  {
    root: 'types',
    file: 'transaction/transaction-item.d.ts',
    name: 'ITransactionItemWithPrice',
    endpoint: 'POST /transactions, PATCH /transactions/{transaction} items[]',
    fields: {
      priceId: { effect: NON_CATALOGUE },
      price: { effect: NON_CATALOGUE },
      quantity: { effect: NON_CATALOGUE },
    },
  },
  {
    root: 'types',
    file: 'transaction/transaction-preview-item.d.ts',
    name: 'ITransactionItemWithPrice',
    endpoint: 'POST /transactions/preview items[]',
    fields: { priceId: { effect: NON_CATALOGUE }, price: { effect: NON_CATALOGUE } },
  },
  {
    root: 'types',
    file: 'price/non-catalog-price-request.d.ts',
    name: 'INonCatalogBasePriceRequestBody',
    endpoint: 'items[].price',
    fields: {
      name: { effect: NON_CATALOGUE },
      description: { effect: NON_CATALOGUE },
      unitPrice: { effect: NON_CATALOGUE },
      billingCycle: { effect: NON_CATALOGUE },
      trialPeriod: { effect: NON_CATALOGUE },
      taxMode: { effect: NON_CATALOGUE },
      unitPriceOverrides: { effect: NON_CATALOGUE },
      quantity: { effect: NON_CATALOGUE },
      customData: { effect: NON_CATALOGUE },
    },
  },
  ...(['INonCatalogBasePriceRequestBodyWithProductId', 'INonCatalogBasePriceRequestBodyWithProduct'] as const).map(
    (name): Walk => ({
      root: 'types',
      file: 'price/non-catalog-price-request.d.ts',
      name,
      endpoint: 'items[].price',
      fields: { productId: { effect: NON_CATALOGUE }, product: { effect: NON_CATALOGUE } },
    }),
  ),
];

const WALKS: readonly Walk[] = [
  ...NON_CATALOGUE_WALKS,
  {
    file: 'subscriptions/operations/list-subscription-query-parameters.d.ts',
    name: 'ListSubscriptionQueryParameters',
    endpoint: 'GET /subscriptions',
    fields: {
      addressId: { effect: 'compatibility/nothing-accepted-and-ignored.test.ts' },
      after: { effect: 'subscriptions/subscriptions-api.test.ts' },
      collectionMode: { effect: 'subscriptions/subscriptions-api.test.ts' },
      customerId: { effect: 'subscriptions/subscriptions-api.test.ts' },
      id: { effect: 'subscriptions/subscriptions-api.test.ts' },
      orderBy: { effect: 'compatibility/nothing-accepted-and-ignored.test.ts' },
      perPage: { effect: 'subscriptions/subscriptions-api.test.ts' },
      priceId: { effect: 'subscriptions/subscriptions-api.test.ts' },
      scheduledChangeAction: { effect: 'subscriptions/subscriptions-api.test.ts' },
      status: { effect: 'subscriptions/subscriptions-api.test.ts' },
    },
  },
  {
    file: 'subscriptions/operations/get-subscription-query-parameters.d.ts',
    name: 'GetSubscriptionQueryParameters',
    endpoint: 'GET /subscriptions/{subscription}',
    fields: { include: { effect: 'subscriptions/previews-and-credit.test.ts' } },
  },
  {
    file: 'customers/operations/get-credit-balance-query-parameters.d.ts',
    name: 'GetCreditBalanceQueryParameters',
    endpoint: 'GET /customers/{customer}/credit-balances',
    fields: { currencyCode: { effect: 'subscriptions/previews-and-credit.test.ts' } },
  },
  {
    file: 'subscriptions/operations/update-subscription-request-body.d.ts',
    name: 'UpdateSubscriptionRequestBody',
    endpoint: 'PATCH /subscriptions/{subscription}',
    fields: {
      customerId: { effect: 'subscriptions/subscription-parties.test.ts' },
      addressId: { effect: 'subscriptions/proration.test.ts' },
      businessId: { effect: 'subscriptions/subscription-parties.test.ts' },
      currencyCode: { effect: 'subscriptions/billing-cycle.test.ts' },
      nextBilledAt: { effect: 'subscriptions/billing-date.test.ts' },
      discount: { effect: 'discounts/subscription-discounts.test.ts' },
      collectionMode: { effect: 'subscriptions/subscriptions-api.test.ts' },
      billingDetails: { effect: 'subscriptions/proration.test.ts' },
      scheduledChange: { effect: 'subscriptions/subscriptions-api.test.ts' },
      items: { effect: 'subscriptions/proration.test.ts' },
      customData: { effect: 'subscriptions/subscriptions-api.test.ts' },
      prorationBillingMode: { effect: 'subscriptions/proration.test.ts' },
      onPaymentFailure: { effect: 'subscriptions/proration.test.ts' },
    },
  },
  {
    file: 'subscriptions/operations/create-subscription-charge-request-object.d.ts',
    name: 'CreateSubscriptionCharge',
    endpoint: 'POST /subscriptions/{subscription}/charge',
    fields: {
      effectiveFrom: { effect: 'subscriptions/one-time-charges.test.ts' },
      items: { effect: 'subscriptions/one-time-charges.test.ts' },
      onPaymentFailure: { effect: 'subscriptions/one-time-charges.test.ts' },
    },
  },
  {
    file: 'subscriptions/operations/pause-subscription-request-object.d.ts',
    name: 'PauseSubscription',
    endpoint: 'POST /subscriptions/{subscription}/pause',
    fields: {
      effectiveFrom: { effect: 'subscriptions/subscriptions-api.test.ts' },
      resumeAt: { effect: 'subscriptions/subscriptions-api.test.ts' },
      onResume: { effect: 'usage/subscription-effects.test.ts' },
    },
  },
  {
    file: 'subscriptions/operations/resume-subscription-request-object.d.ts',
    name: 'ResumeSubscription',
    endpoint: 'POST /subscriptions/{subscription}/resume',
    fields: {
      effectiveFrom: { effect: 'subscriptions/subscriptions-api.test.ts' },
      onResume: { effect: 'usage/subscription-effects.test.ts' },
    },
  },
  {
    file: 'subscriptions/operations/cancel-subscription-request-object.d.ts',
    name: 'CancelSubscription',
    endpoint: 'POST /subscriptions/{subscription}/cancel',
    fields: { effectiveFrom: { effect: 'subscriptions/subscriptions-api.test.ts' } },
  },
  {
    file: 'customer-portal-sessions/operations/create-customer-portal-session-request-object.d.ts',
    name: 'CreateCustomerPortalSessionRequestBody',
    endpoint: 'POST /customers/{customer}/portal-sessions',
    fields: { subscriptionIds: { effect: 'customers/portal-sessions.test.ts' } },
  },
  {
    file: 'transactions/operations/create-transaction-request-body.d.ts',
    name: 'CreateTransactionRequestBody',
    endpoint: 'POST /transactions',
    fields: {
      items: { effect: 'transactions/transaction-lifecycle.test.ts' },
      status: { effect: 'transactions/transaction-lifecycle.test.ts' },
      customerId: { effect: 'transactions/transaction-lifecycle.test.ts' },
      addressId: { effect: 'transactions/transaction-lifecycle.test.ts' },
      businessId: { effect: 'customers/official-sdk-businesses-and-includes.test.ts' },
      customData: { effect: 'compatibility/nothing-accepted-and-ignored.test.ts' },
      currencyCode: { effect: 'transactions/transaction-lifecycle.test.ts' },
      collectionMode: { effect: 'transactions/transaction-lifecycle.test.ts' },
      discountId: { effect: 'discounts/official-sdk-discounts.test.ts' },
      billingDetails: { effect: 'transactions/transaction-lifecycle.test.ts' },
      billingPeriod: { effect: 'compatibility/nothing-accepted-and-ignored.test.ts' },
      checkout: { effect: 'compatibility/official-sdk-wrong-answers.test.ts' },
      discount: { effect: 'discounts/official-sdk-discounts.test.ts' },
    },
  },
  {
    file: 'transactions/operations/update-transaction-request-body.d.ts',
    name: 'UpdateTransactionRequestBody',
    endpoint: 'PATCH /transactions/{transaction}',
    fields: {
      status: { effect: 'transactions/transaction-lifecycle.test.ts' },
      customerId: { effect: 'transactions/transaction-lifecycle.test.ts' },
      addressId: { effect: 'transactions/transaction-lifecycle.test.ts' },
      businessId: { effect: 'customers/official-sdk-businesses-and-includes.test.ts' },
      customData: { effect: 'compatibility/nothing-accepted-and-ignored.test.ts' },
      currencyCode: { effect: 'transactions/transaction-lifecycle.test.ts' },
      collectionMode: { effect: 'transactions/transaction-lifecycle.test.ts' },
      discountId: { effect: 'discounts/official-sdk-discounts.test.ts' },
      billingDetails: { effect: 'transactions/transaction-lifecycle.test.ts' },
      billingPeriod: { effect: 'compatibility/nothing-accepted-and-ignored.test.ts' },
      items: { effect: 'transactions/transaction-lifecycle.test.ts' },
      checkout: { effect: 'compatibility/official-sdk-wrong-answers.test.ts' },
      discount: { effect: 'discounts/official-sdk-discounts.test.ts' },
    },
  },
  {
    file: 'transactions/operations/transaction-preview-request-body.d.ts',
    name: 'TransactionPreviewRequestBody',
    endpoint: 'POST /transactions/preview',
    fields: {
      items: { effect: 'transactions/previews.test.ts' },
      customerId: { effect: 'transactions/previews.test.ts' },
      addressId: { effect: 'transactions/previews.test.ts' },
      businessId: { effect: 'transactions/location-tax.test.ts' },
      currencyCode: { effect: 'transactions/previews.test.ts' },
      discountId: { effect: 'transactions/previews.test.ts' },
      customerIpAddress: { effect: 'transactions/ip-location-previews.test.ts' },
      address: { effect: 'transactions/previews.test.ts' },
      ignoreTrials: { effect: 'subscriptions/trials.test.ts' },
      discount: { effect: 'transactions/previews.test.ts' },
    },
  },
  {
    file: 'payment-methods/operations/list-customer-payment-method-query-parameters.d.ts',
    name: 'ListCustomerPaymentMethodQueryParameters',
    endpoint: 'GET /customers/{customer}/payment-methods',
    fields: {
      addressId: { effect: 'payments/official-sdk-payment-methods.test.ts' },
      after: { effect: 'payments/official-sdk-payment-methods.test.ts' },
      orderBy: { effect: 'payments/official-sdk-payment-methods.test.ts' },
      perPage: { effect: 'payments/official-sdk-payment-methods.test.ts' },
      supportsCheckout: { effect: 'payments/official-sdk-payment-methods.test.ts' },
    },
  },
  {
    file: 'pricing-preview/operations/pricing-preview-request-body.d.ts',
    name: 'PricingPreviewRequestBody',
    endpoint: 'POST /pricing-preview',
    fields: {
      items: { effect: 'transactions/previews.test.ts' },
      customerId: { effect: 'transactions/previews.test.ts' },
      addressId: { effect: 'transactions/previews.test.ts' },
      businessId: { effect: 'transactions/location-tax.test.ts' },
      currencyCode: { effect: 'transactions/previews.test.ts' },
      discountId: { effect: 'transactions/previews.test.ts' },
      address: { effect: 'transactions/previews.test.ts' },
      customerIpAddress: { effect: 'transactions/ip-location-previews.test.ts' },
    },
  },
];

describe('the walk covers the official SDK’s request types', () => {
  it.each(WALKS.map((walk) => [walk.name, walk] as const))('classifies every field of %s', (_name, walk) => {
    expect(Object.keys(walk.fields).sort()).toEqual(sdkFields(walk.file, walk.name, walk.root).sort());
  });

  it('names, for every field with an effect, a test that sends it', () => {
    for (const walk of WALKS) {
      for (const [field, verdict] of Object.entries(walk.fields)) {
        if (!('effect' in verdict)) continue;
        const file = join(TEST_ROOT, verdict.effect);
        expect(existsSync(file), `${walk.name}.${field}: ${verdict.effect}`).toBe(true);
        const text = readFileSync(file, 'utf8');
        expect(text.includes(snake(field)) || text.includes(field), `${walk.name}.${field} in ${verdict.effect}`).toBe(
          true,
        );
      }
    }
  });
});

describe.each(ENGINES)('%s: every refused field is refused with its code, and nothing changes', (engine) => {
  let harness: BillingHarness;
  let sandbox: ApiClient;
  let buyer: Buyer;
  let subscriptionId: string;
  let transactionId: string;
  let priceId: string;

  beforeAll(async () => {
    // A configured portal: portal sessions are made, not refused (ADR 1472).
    harness = await startBillingHarness({ engine, portalUrl: 'https://portal.example/billing' });
    ({ sandbox } = harnessClients(harness));
    buyer = await createBuyer(sandbox, 'US');
    const productId = await createProduct(sandbox, { name: 'Walked' });
    const price = await sandbox.post('/prices', {
      product_id: productId,
      description: 'Walked monthly',
      unit_price: { amount: '1200', currency_code: 'USD' },
      billing_cycle: { interval: 'month', frequency: 1 },
    });
    priceId = price.id;
    const checkout = await sandbox.post('/transactions', {
      customer_id: buyer.customerId,
      address_id: buyer.addressId,
      items: [{ price_id: priceId, quantity: 1 }],
    });
    const paid = await sandbox.post(`/transactions/${checkout.id}/simulate-payment`, { outcome: 'success' });
    subscriptionId = String(paid.entity.subscription_id);
    transactionId = (
      await sandbox.post('/transactions', {
        customer_id: buyer.customerId,
        address_id: buyer.addressId,
        items: [{ price_id: priceId, quantity: 1 }],
      })
    ).id;
  });
  afterAll(() => harness.close());

  function request(walk: Walk): { method: string; path: string; base: WireObject } {
    const [method = 'GET', template = '/'] = walk.endpoint.split(' ');
    const path = template
      .replace('{subscription}', subscriptionId)
      .replace('{transaction}', transactionId)
      .replace('{customer}', buyer.customerId);
    const items = [{ price_id: priceId, quantity: 1 }];
    const base: WireObject = method === 'POST' && !path.includes('/subscriptions/') ? { items } : {};
    return { method, path, base };
  }

  const refusals = WALKS.flatMap((walk) =>
    Object.entries(walk.fields).flatMap(([field, verdict]) =>
      'refused' in verdict ? [[`${walk.endpoint} ${snake(field)}`, walk, field, verdict] as const] : [],
    ),
  );

  it('filters subscriptions by address_id and orders them by order_by=id', async () => {
    const other = await createBuyer(sandbox, 'US');
    const checkout = await sandbox.post('/transactions', {
      customer_id: other.customerId,
      address_id: other.addressId,
      items: [{ price_id: priceId, quantity: 1 }],
    });
    const second = String(
      (await sandbox.post(`/transactions/${checkout.id}/simulate-payment`, { outcome: 'success' })).entity
        .subscription_id,
    );
    const byAddress = await sandbox.get(`/subscriptions?address_id=${other.addressId}`);
    expect(byAddress.list.map((subscription) => subscription.id)).toEqual([second]);
    const ascending = await sandbox.get('/subscriptions?order_by=id[ASC]');
    expect(ascending.list.map((subscription) => subscription.id)).toEqual([subscriptionId, second]);
    const descending = await sandbox.get('/subscriptions?order_by=id[DESC]');
    expect(descending.list.map((subscription) => subscription.id)).toEqual([second, subscriptionId]);
  });

  it('stores a transaction’s custom_data and billing_period on create and replaces them on update', async () => {
    const march = { starts_at: '2026-03-01T00:00:00.000Z', ends_at: '2026-04-01T00:00:00.000Z' };
    const april = { starts_at: '2026-04-01T00:00:00.000Z', ends_at: '2026-05-01T00:00:00.000Z' };
    const created = await sandbox.post('/transactions', {
      items: [{ price_id: priceId, quantity: 1 }],
      custom_data: { order: 'A-1' },
      billing_period: march,
    });
    expect(created.entity).toMatchObject({ custom_data: { order: 'A-1' }, billing_period: march });
    const updated = await sandbox.patch(`/transactions/${created.id}`, {
      custom_data: { order: 'A-2' },
      billing_period: april,
    });
    expect(updated.entity).toMatchObject({ custom_data: { order: 'A-2' }, billing_period: april });
    expect((await sandbox.get(`/transactions/${created.id}`)).entity).toMatchObject({
      custom_data: { order: 'A-2' },
      billing_period: april,
    });
  });

  it.each(refusals)('%s', async (_label, walk, field, verdict) => {
    const { method, path, base } = request(walk);
    const before = {
      subscription: (await sandbox.get(`/subscriptions/${subscriptionId}`)).entity,
      transactions: (await sandbox.get(`/transactions?customer_id=${buyer.customerId}`)).list.length,
    };
    const response =
      method === 'GET'
        ? await sandbox.get(`${path}?${snake(field)}=${encodeURIComponent(String(verdict.value))}`)
        : await sandbox.request(method, path, { body: { ...base, [snake(field)]: verdict.value } });
    const error = expectError(response, 400, verdict.refused);
    expect(JSON.stringify(error)).toContain(snake(field));
    expect((await sandbox.get(`/subscriptions/${subscriptionId}`)).entity).toEqual(before.subscription);
    expect((await sandbox.get(`/transactions?customer_id=${buyer.customerId}`)).list).toHaveLength(before.transactions);
  });
});
