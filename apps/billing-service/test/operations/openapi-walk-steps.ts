/**
 * @module
 * The happy-path walk of the OpenAPI document: one step per operation of `API_OPERATIONS`, in an
 * order where each step finds what it needs in the walk's `fixtures` (ids kept by earlier steps).
 * To cover a new operation, add one step to the group it belongs to: its key (`method path` as
 * `api-operations.ts` spells it), the concrete request, and what to keep from the answer for later steps.
 */
import { expect } from 'vitest';
import { eventually } from '../notifications/webhook-receiver.js';
import { CARDS, checkoutClient } from '../payments/checkout-client.js';
import type { ApiClient, ApiResponse, WireObject } from '../support/api-client.js';
import { LOGO_PNG_BASE64 as WALK_LOGO_PNG } from '../support/images.js';
import { type FakeStripe, stripeSignature } from '../support/stripe/fake-stripe-server.js';

/** Ids and links the walk keeps between steps. */
export type Fixtures = Record<string, string>;

export interface WalkRequest {
  /** The concrete path with its query (`/products/pro_…?include=prices`). */
  readonly path: string;
  /** A JSON body. */
  readonly body?: unknown;
  /** A form, posted `application/x-www-form-urlencoded` as a browser posts the checkout's forms. */
  readonly form?: Readonly<Record<string, string>>;
  /** A body sent byte for byte (a provider's signed webhook), with `headers`. */
  readonly rawBody?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** Which application a step calls: the walk's sandbox (the default) or live one. */
export type WalkTarget = 'sandbox' | 'live';

export interface WalkStep {
  /** `method path` exactly as in `API_OPERATIONS` (`get /products/:id`). */
  readonly operation: string;
  readonly on?: WalkTarget;
  readonly request: (fixtures: Fixtures) => WalkRequest;
  /** Runs after the documented answer was checked: keeps ids for later steps, asserts what the step must show. */
  readonly keep?: (response: ApiResponse, fixtures: Fixtures) => void;
  /** Waits (bounded) for what this step needs, such as a report becoming ready. */
  readonly before?: (fixtures: Fixtures, api: ApiClient) => Promise<void>;
}

/** Only the path and query of a signed link (the walk calls the harness's own address). */
export function localPart(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

const keepId =
  (name: string) =>
  (response: ApiResponse, fixtures: Fixtures): void => {
    fixtures[name] = response.id;
  };

const now = () => new Date().toISOString();
const dataOf = (response: ApiResponse) => response.entity as WireObject;

export const CATALOGUE_STEPS: readonly WalkStep[] = [
  { operation: 'get /currencies', request: () => ({ path: '/currencies' }) },
  { operation: 'get /ips', request: () => ({ path: '/ips' }) },
  {
    operation: 'post /products',
    request: () => ({
      path: '/products',
      body: { name: 'Plan', tax_category: 'standard', description: 'The plan', custom_data: { tier: 'one' } },
    }),
    keep: keepId('product'),
  },
  { operation: 'get /products', request: () => ({ path: '/products?include=prices' }) },
  { operation: 'get /products/:id', request: (f) => ({ path: `/products/${f.product}` }) },
  {
    operation: 'patch /products/:id',
    request: (f) => ({ path: `/products/${f.product}`, body: { description: 'Monthly', image_url: null } }),
  },
  {
    operation: 'post /usage-balance-units',
    request: () => ({ path: '/usage-balance-units', body: { name: 'Credits', unit_name: 'credits' } }),
    keep: keepId('unit'),
  },
  { operation: 'get /usage-balance-units', request: () => ({ path: '/usage-balance-units' }) },
  { operation: 'get /usage-balance-units/:id', request: (f) => ({ path: `/usage-balance-units/${f.unit}` }) },
  {
    operation: 'patch /usage-balance-units/:id',
    request: (f) => ({ path: `/usage-balance-units/${f.unit}`, body: { name: 'Tokens' } }),
  },
  {
    operation: 'post /meters',
    request: (f) => ({
      path: '/meters',
      body: { usage_balance_unit_id: f.unit, name: 'Calls', action: 'api_call', unit_name: 'call', rate: '1' },
    }),
    keep: keepId('meter'),
  },
  { operation: 'get /meters', request: () => ({ path: '/meters' }) },
  { operation: 'get /meters/:id', request: (f) => ({ path: `/meters/${f.meter}` }) },
  { operation: 'patch /meters/:id', request: (f) => ({ path: `/meters/${f.meter}`, body: { name: 'API calls' } }) },
  {
    operation: 'post /prices',
    request: (f) => ({
      path: '/prices',
      body: {
        product_id: f.product,
        description: 'Monthly',
        name: 'Monthly',
        unit_price: { amount: '1000', currency_code: 'USD' },
        billing_cycle: { interval: 'month', frequency: 1 },
        allowances: [{ usage_balance_unit_id: f.unit, amount: '100' }],
      },
    }),
    keep: keepId('price'),
  },
  { operation: 'get /prices', request: () => ({ path: '/prices?include=product' }) },
  { operation: 'get /prices/:id', request: (f) => ({ path: `/prices/${f.price}` }) },
  {
    operation: 'patch /prices/:id',
    request: (f) => ({ path: `/prices/${f.price}`, body: { description: 'Monthly plan' } }),
  },
];

export const CUSTOMER_STEPS: readonly WalkStep[] = [
  {
    operation: 'post /customers',
    request: () => ({ path: '/customers', body: { email: 'openapi@example.com', name: 'Ada', locale: 'en' } }),
    keep: keepId('customer'),
  },
  { operation: 'get /customers', request: () => ({ path: '/customers' }) },
  { operation: 'get /customers/:id', request: (f) => ({ path: `/customers/${f.customer}` }) },
  {
    operation: 'patch /customers/:id',
    request: (f) => ({ path: `/customers/${f.customer}`, body: { name: 'Ada Lovelace' } }),
  },
  {
    operation: 'post /customers/:customer/addresses',
    request: (f) => ({
      path: `/customers/${f.customer}/addresses`,
      body: { country_code: 'GB', first_line: '1 Analytical Way', city: 'London', postal_code: 'N1 9GU' },
    }),
    keep: keepId('address'),
  },
  { operation: 'get /customers/:customer/addresses', request: (f) => ({ path: `/customers/${f.customer}/addresses` }) },
  {
    operation: 'get /customers/:customer/addresses/:id',
    request: (f) => ({ path: `/customers/${f.customer}/addresses/${f.address}` }),
  },
  {
    operation: 'patch /customers/:customer/addresses/:id',
    request: (f) => ({ path: `/customers/${f.customer}/addresses/${f.address}`, body: { city: 'Leeds' } }),
  },
  {
    operation: 'post /customers/:customer/businesses',
    request: (f) => ({
      path: `/customers/${f.customer}/businesses`,
      body: {
        name: 'Ada Ltd',
        company_number: '123',
        tax_identifier: 'GB123456789',
        contacts: [{ name: 'Ada', email: 'ada@example.com' }],
      },
    }),
    keep: keepId('business'),
  },
  {
    operation: 'get /customers/:customer/businesses',
    request: (f) => ({ path: `/customers/${f.customer}/businesses` }),
  },
  {
    operation: 'get /customers/:customer/businesses/:id',
    request: (f) => ({ path: `/customers/${f.customer}/businesses/${f.business}` }),
  },
  {
    operation: 'patch /customers/:customer/businesses/:id',
    request: (f) => ({ path: `/customers/${f.customer}/businesses/${f.business}`, body: { company_number: '456' } }),
  },
];

export const TOKEN_STEPS: readonly WalkStep[] = [
  {
    operation: 'post /client-tokens',
    request: () => ({ path: '/client-tokens', body: { name: 'Storefront', description: 'The shop’s checkout' } }),
    keep: keepId('clientToken'),
  },
  { operation: 'get /client-tokens', request: () => ({ path: '/client-tokens' }) },
  { operation: 'get /client-tokens/:id', request: (f) => ({ path: `/client-tokens/${f.clientToken}` }) },
  {
    operation: 'patch /client-tokens/:id',
    request: (f) => ({ path: `/client-tokens/${f.clientToken}`, body: { status: 'revoked' } }),
  },
  {
    operation: 'post /customers/:customer/auth-token',
    request: (f) => ({ path: `/customers/${f.customer}/auth-token` }),
  },
];

export const DISCOUNT_STEPS: readonly WalkStep[] = [
  {
    operation: 'post /discount-groups',
    request: () => ({ path: '/discount-groups', body: { name: 'Launch' } }),
    keep: keepId('discountGroup'),
  },
  { operation: 'get /discount-groups', request: () => ({ path: '/discount-groups' }) },
  { operation: 'get /discount-groups/:id', request: (f) => ({ path: `/discount-groups/${f.discountGroup}` }) },
  {
    operation: 'patch /discount-groups/:id',
    request: (f) => ({ path: `/discount-groups/${f.discountGroup}`, body: { name: 'Launch week' } }),
  },
  {
    operation: 'post /discounts',
    request: (f) => ({
      path: '/discounts',
      body: {
        description: 'Ten off',
        type: 'flat',
        amount: '100',
        currency_code: 'USD',
        code: 'TENOFF',
        enabled_for_checkout: true,
        recur: true,
        maximum_recurring_intervals: 3,
        restrict_to: [f.price],
        discount_group_id: f.discountGroup,
      },
    }),
    keep: keepId('discount'),
  },
  { operation: 'get /discounts', request: () => ({ path: '/discounts?include=discount_group' }) },
  { operation: 'get /discounts/:id', request: (f) => ({ path: `/discounts/${f.discount}?include=discount_group` }) },
  {
    operation: 'patch /discounts/:id',
    request: (f) => ({ path: `/discounts/${f.discount}`, body: { description: 'Ten off, three months' } }),
  },
];

const checkoutItems = (f: Fixtures) => [{ price_id: f.price, quantity: 1 }];

/** Every relation a transaction can embed, so the walk checks each embedded shape. */
const TRANSACTION_INCLUDES =
  'address,adjustments,adjustments_totals,available_payment_methods,business,customer,discount';

export const TRANSACTION_STEPS: readonly WalkStep[] = [
  {
    operation: 'post /pricing-preview',
    request: (f) => ({
      path: '/pricing-preview',
      body: {
        items: checkoutItems(f),
        customer_id: f.customer,
        address_id: f.address,
        currency_code: 'USD',
        discount_id: f.discount,
      },
    }),
  },
  {
    operation: 'post /transactions/preview',
    request: (f) => ({
      path: '/transactions/preview',
      body: {
        items: checkoutItems(f),
        customer_id: f.customer,
        address_id: f.address,
        business_id: f.business,
        currency_code: 'USD',
        discount_id: f.discount,
      },
    }),
  },
  {
    operation: 'post /transactions',
    request: (f) => ({
      path: '/transactions',
      body: {
        items: checkoutItems(f),
        customer_id: f.customer,
        address_id: f.address,
        business_id: f.business,
        discount_id: f.discount,
      },
    }),
    keep: keepId('checkout'),
  },
  { operation: 'get /transactions', request: () => ({ path: `/transactions?include=${TRANSACTION_INCLUDES}` }) },
  {
    operation: 'get /transactions/:id',
    request: (f) => ({ path: `/transactions/${f.checkout}?include=${TRANSACTION_INCLUDES}` }),
  },
  {
    operation: 'patch /transactions/:id',
    request: (f) => ({ path: `/transactions/${f.checkout}`, body: { custom_data: { order: '42' } } }),
  },
  {
    operation: 'post /transactions/:id/simulate-payment',
    request: (f) => ({ path: `/transactions/${f.checkout}/simulate-payment`, body: { outcome: 'success' } }),
    keep: (response, f) => {
      const data = dataOf(response);
      f.subscription = String(data.subscription_id);
      const items = (data.details as { line_items: WireObject[] }).line_items;
      f.checkoutLineItem = String(items[0]?.id);
    },
  },
  {
    operation: 'get /transactions/:id/invoice',
    request: (f) => ({ path: `/transactions/${f.checkout}/invoice` }),
    keep: (response, f) => {
      f.invoiceLink = localPart(String(dataOf(response).url));
    },
  },
  { operation: 'get /invoices/:transactionId/pdf', request: (f) => ({ path: f.invoiceLink ?? '' }) },
  {
    operation: 'post /transactions/:id/revise',
    request: (f) => ({ path: `/transactions/${f.checkout}/revise`, body: { customer: { name: 'Ada K. Lovelace' } } }),
  },
  {
    operation: 'post /adjustments',
    request: (f) => ({
      path: '/adjustments',
      body: {
        action: 'refund',
        transaction_id: f.checkout,
        reason: 'Asked for a refund',
        items: [{ item_id: f.checkoutLineItem, type: 'partial', amount: '100' }],
      },
    }),
    keep: keepId('adjustment'),
  },
  {
    operation: 'post /adjustments',
    // A credit on a completed, automatically collected transaction goes to the customer's credit balance.
    request: (f) => ({
      path: '/adjustments',
      body: {
        action: 'credit',
        transaction_id: f.checkout,
        reason: 'Goodwill',
        items: [{ item_id: f.checkoutLineItem, type: 'partial', amount: '50' }],
      },
    }),
  },
  {
    operation: 'get /customers/:customer/credit-balances',
    request: (f) => ({ path: `/customers/${f.customer}/credit-balances` }),
    keep: (response) => {
      expect(response.list).toHaveLength(1);
    },
  },
  { operation: 'get /adjustments', request: () => ({ path: '/adjustments' }) },
  {
    operation: 'get /transactions/:id',
    request: (f) => ({ path: `/transactions/${f.checkout}?include=${TRANSACTION_INCLUDES}` }),
    // Every embedded relation is present, so each embedded shape was checked against the document.
    keep: (response) => {
      const data = dataOf(response);
      for (const relation of ['address', 'business', 'customer', 'discount', 'adjustments_totals']) {
        expect(data[relation], relation).toBeTypeOf('object');
        expect(data[relation], relation).not.toBeNull();
      }
      expect(data.adjustments).toHaveLength(2);
    },
  },
  {
    operation: 'get /adjustments/:id/credit-note',
    request: (f) => ({ path: `/adjustments/${f.adjustment}/credit-note` }),
    keep: (response, f) => {
      f.creditNoteLink = localPart(String(dataOf(response).url));
    },
  },
  { operation: 'get /credit-notes/:adjustmentId/pdf', request: (f) => ({ path: f.creditNoteLink ?? '' }) },
  {
    operation: 'post /transactions',
    request: (f) => ({
      path: '/transactions',
      body: {
        items: [{ price_id: f.oneOffPrice, quantity: 1 }],
        customer_id: f.customer,
        address_id: f.address,
        collection_mode: 'manual',
        billing_details: { payment_terms: { interval: 'day', frequency: 14 } },
      },
    }),
    keep: keepId('invoice'),
  },
  {
    operation: 'patch /transactions/:id',
    request: (f) => ({ path: `/transactions/${f.invoice}`, body: { status: 'billed' } }),
  },
  {
    operation: 'post /transactions/:id/payments',
    request: (f) => ({
      path: `/transactions/${f.invoice}/payments`,
      body: { amount: '500', method_type: 'bank_transfer', provider_reference: 'wire-1' },
    }),
  },
  {
    operation: 'post /transactions/:id/payments',
    request: (f) => ({
      path: `/transactions/${f.invoice}/payments`,
      body: {
        amount: '500',
        status: 'error',
        error_code: 'declined',
        method_type: 'card',
        provider_reference: 'card-1',
      },
    }),
  },
  { operation: 'get /tax-settings', request: () => ({ path: '/tax-settings' }) },
  { operation: 'patch /tax-settings', request: () => ({ path: '/tax-settings', body: { default_rate: '0.2' } }) },
  { operation: 'get /seller-details', request: () => ({ path: '/seller-details' }) },
  {
    operation: 'patch /seller-details',
    request: () => ({
      path: '/seller-details',
      body: {
        legal_name: 'Walk Ltd',
        address: { first_line: '1 Walk Street', city: 'London', postal_code: 'N1 1AA', country_code: 'GB' },
        tax_identifier: 'GB123456789',
        company_number: '01234567',
        email: 'billing@walk.example',
        logo: { data: WALK_LOGO_PNG },
      },
    }),
  },
  {
    operation: 'get /seller-details/logo',
    request: () => ({ path: '/seller-details/logo' }),
    keep: (response) => {
      expect(dataOf(response).content_type).toBe('image/png');
    },
  },
  { operation: 'get /checkout-settings', request: () => ({ path: '/checkout-settings' }) },
  {
    operation: 'patch /checkout-settings',
    request: () => ({ path: '/checkout-settings', body: { default_payment_link: 'https://shop.example.com/pay' } }),
    keep: (response) => {
      expect(dataOf(response).default_payment_link).toBe('https://shop.example.com/pay');
    },
  },
];

export const SUBSCRIPTION_STEPS: readonly WalkStep[] = [
  { operation: 'get /subscriptions', request: () => ({ path: '/subscriptions' }) },
  {
    operation: 'get /subscriptions/:id',
    request: (f) => ({
      path: `/subscriptions/${f.subscription}?include=next_transaction,recurring_transaction_details`,
    }),
  },
  {
    operation: 'get /customers/:customer/usage-balances',
    request: (f) => ({ path: `/customers/${f.customer}/usage-balances` }),
    keep: (response, f) => {
      f.usageBalance = String(response.list[0]?.id);
    },
  },
  {
    operation: 'get /customers/:customer/usage-balances/:id',
    request: (f) => ({ path: `/customers/${f.customer}/usage-balances/${f.usageBalance}` }),
  },
  {
    operation: 'get /customers/:customer/usage-balances/:id/periods',
    request: (f) => ({ path: `/customers/${f.customer}/usage-balances/${f.usageBalance}/periods` }),
    keep: (response) => {
      expect(Array.isArray(response.body.data) && response.body.data.length > 0, response.text).toBe(true);
    },
  },
  {
    operation: 'get /subscriptions/:id/update-payment-method-transaction',
    request: (f) => ({ path: `/subscriptions/${f.subscription}/update-payment-method-transaction` }),
    keep: (response, f) => {
      expect(dataOf(response).subscription_id).toBe(f.subscription);
    },
  },
  {
    operation: 'post /customers/:customer/portal-sessions',
    request: (f) => ({
      path: `/customers/${f.customer}/portal-sessions`,
      body: { subscription_ids: [f.subscription] },
    }),
    keep: (response, f) => {
      const urls = dataOf(response).urls as { general: { overview: string } };
      f.portalToken = String(new URL(urls.general.overview).searchParams.get('token'));
    },
  },
  {
    operation: 'get /customer-portal-sessions/verification-key',
    request: () => ({ path: '/customer-portal-sessions/verification-key' }),
    keep: (response) => {
      expect(dataOf(response)).toMatchObject({ environment: 'sandbox', algorithm: 'Ed25519' });
    },
  },
  {
    operation: 'post /customer-portal-sessions/verify',
    request: (f) => ({ path: '/customer-portal-sessions/verify', body: { token: f.portalToken } }),
    keep: (response, f) => {
      expect(dataOf(response).customer_id).toBe(f.customer);
      expect(dataOf(response).subscription_ids).toEqual([f.subscription]);
    },
  },
  {
    operation: 'get /checkout',
    before: async (f, api) => {
      const created = await api.post('/transactions', {
        customer_id: f.customer,
        address_id: f.address,
        items: [{ price_id: f.price, quantity: 1 }],
      });
      expect(created.status, created.text).toBe(201);
      f.payable = created.id;
    },
    request: (f) => ({ path: `/checkout?_ptxn=${f.payable}` }),
    keep: (response) => {
      expect(response.text).toContain('name="card_number"');
    },
  },
  { operation: 'get /checkout/assets/checkout.css', request: () => ({ path: '/checkout/assets/checkout.css' }) },
  {
    operation: 'get /checkout/assets/stripe-checkout.js',
    request: () => ({ path: '/checkout/assets/stripe-checkout.js' }),
    keep: (response) => {
      expect(response.text).toContain('stripe.elements(');
    },
  },
  {
    operation: 'get /customers/:customer/payment-methods',
    // The subscription bought through the hosted checkout with the sandbox success card saves that card.
    before: async (f) => {
      const paid = await checkoutClient(f.sandboxUrl ?? '').pay(f.payable ?? '', CARDS.success);
      expect(paid.status, paid.text).toBe(303);
    },
    request: (f) => ({ path: `/customers/${f.customer}/payment-methods` }),
    keep: (response, f) => {
      expect(response.list.length, response.text).toBeGreaterThan(0);
      f.paymentMethod = String(response.list[0]?.id);
    },
  },
  {
    operation: 'get /customers/:customer/payment-methods/:id',
    request: (f) => ({ path: `/customers/${f.customer}/payment-methods/${f.paymentMethod}` }),
  },
  {
    operation: 'delete /customers/:customer/payment-methods/:id',
    request: (f) => ({ path: `/customers/${f.customer}/payment-methods/${f.paymentMethod}` }),
  },
  {
    operation: 'post /usage-events',
    request: (f) => ({
      path: '/usage-events',
      body: {
        events: [
          { event_key: 'walk-1', customer_id: f.customer, action: 'api_call', quantity: '3', occurred_at: now() },
        ],
      },
    }),
  },
  {
    operation: 'post /usage-events',
    // Outside the accepted window: this event's rejection, inside a 202.
    request: (f) => ({
      path: '/usage-events',
      body: {
        events: [
          {
            event_key: 'walk-2',
            customer_id: f.customer,
            action: 'api_call',
            quantity: '1',
            occurred_at: '2020-01-01T00:00:00Z',
          },
        ],
      },
    }),
    keep: (response) => {
      expect(dataOf(response).events).toMatchObject([{ status: 'rejected' }]);
    },
  },
  {
    operation: 'patch /subscriptions/:id',
    request: (f) => ({ path: `/subscriptions/${f.subscription}`, body: { custom_data: { seat: 'one' } } }),
  },
  {
    operation: 'patch /subscriptions/:id/preview',
    request: (f) => ({
      path: `/subscriptions/${f.subscription}/preview`,
      body: { items: [{ price_id: f.price, quantity: 2 }], proration_billing_mode: 'full_immediately' },
    }),
  },
  {
    operation: 'post /subscriptions/:id/charge/preview',
    request: (f) => ({
      path: `/subscriptions/${f.subscription}/charge/preview`,
      body: { effective_from: 'immediately', items: [{ price_id: f.oneOffPrice, quantity: 1 }] },
    }),
  },
  {
    operation: 'post /subscriptions/:id/charge',
    request: (f) => ({
      path: `/subscriptions/${f.subscription}/charge`,
      body: { effective_from: 'next_billing_period', items: [{ price_id: f.oneOffPrice, quantity: 1 }] },
    }),
  },
  {
    operation: 'post /subscriptions/:id/pause',
    request: (f) => ({ path: `/subscriptions/${f.subscription}/pause`, body: { effective_from: 'immediately' } }),
  },
  {
    operation: 'post /subscriptions/:id/resume',
    request: (f) => ({ path: `/subscriptions/${f.subscription}/resume`, body: { effective_from: 'immediately' } }),
  },
  {
    operation: 'post /subscriptions/:id/cancel',
    request: (f) => ({
      path: `/subscriptions/${f.subscription}/cancel`,
      body: { effective_from: 'next_billing_period', cancellation_reason: { reason: 'too_expensive', comment: null } },
    }),
  },
  {
    operation: 'get /subscriptions/:id/cancellation-reason',
    request: (f) => ({ path: `/subscriptions/${f.subscription}/cancellation-reason` }),
    keep: (response) => {
      expect(dataOf(response).reason).toBe('too_expensive');
    },
  },
  {
    operation: 'post /subscriptions/:id/activate',
    request: (f) => ({ path: `/subscriptions/${f.trialSubscription}/activate` }),
  },
];

export const NOTIFICATION_STEPS: readonly WalkStep[] = [
  {
    operation: 'post /notification-settings',
    request: (f) => ({
      path: '/notification-settings',
      body: {
        description: 'Hooks',
        type: 'url',
        destination: f.receiverUrl,
        subscribed_events: ['product.created', 'customer.created'],
        traffic_source: 'all',
      },
    }),
    keep: keepId('setting'),
  },
  { operation: 'get /notification-settings', request: () => ({ path: '/notification-settings' }) },
  { operation: 'get /notification-settings/:id', request: (f) => ({ path: `/notification-settings/${f.setting}` }) },
  {
    operation: 'patch /notification-settings/:id',
    request: (f) => ({ path: `/notification-settings/${f.setting}`, body: { description: 'All hooks' } }),
  },
  {
    operation: 'post /notification-settings/:id/rotate-secret',
    request: (f) => ({ path: `/notification-settings/${f.setting}/rotate-secret` }),
  },
  { operation: 'get /events', request: () => ({ path: '/events' }) },
  { operation: 'get /event-types', request: () => ({ path: '/event-types' }) },
  {
    operation: 'get /notifications',
    // A product made now is an event the setting subscribes to: wait for its notification.
    before: async (f, api) => {
      await api.post('/products', { name: 'Notified', tax_category: 'standard' });
      await eventually('a notification', async () => {
        const page = await api.get(`/notifications?notification_setting_id=${f.setting}&status=delivered`);
        return page.list.length > 0;
      });
    },
    request: (f) => ({ path: `/notifications?notification_setting_id=${f.setting}` }),
    keep: (response, f) => {
      f.notification = String(response.list[0]?.id);
    },
  },
  { operation: 'get /notifications/:id', request: (f) => ({ path: `/notifications/${f.notification}` }) },
  { operation: 'get /notifications/:id/logs', request: (f) => ({ path: `/notifications/${f.notification}/logs` }) },
  {
    operation: 'post /notifications/:id/replay',
    request: (f) => ({ path: `/notifications/${f.notification}/replay` }),
  },
  { operation: 'get /simulation-types', request: () => ({ path: '/simulation-types' }) },
  {
    operation: 'post /simulations',
    request: (f) => ({
      path: '/simulations',
      body: { notification_setting_id: f.setting, name: 'Walk', type: 'customer.created' },
    }),
    keep: keepId('simulation'),
  },
  { operation: 'get /simulations', request: () => ({ path: '/simulations' }) },
  { operation: 'get /simulations/:id', request: (f) => ({ path: `/simulations/${f.simulation}` }) },
  {
    operation: 'patch /simulations/:id',
    request: (f) => ({ path: `/simulations/${f.simulation}`, body: { name: 'Walk, renamed' } }),
  },
  {
    operation: 'post /simulations/:id/runs',
    request: (f) => ({ path: `/simulations/${f.simulation}/runs` }),
    keep: keepId('run'),
  },
  {
    operation: 'get /simulations/:id/runs',
    before: async (f, api) => {
      await eventually('the simulation run to complete', async () => {
        const run = await api.get(`/simulations/${f.simulation}/runs/${f.run}`);
        return dataOf(run).status === 'completed';
      });
    },
    request: (f) => ({ path: `/simulations/${f.simulation}/runs?include=events` }),
    keep: (response) => {
      expect(response.list[0]?.events, 'include=events embeds the run’s events').toHaveLength(1);
    },
  },
  {
    operation: 'get /simulations/:id/runs/:run_id',
    request: (f) => ({ path: `/simulations/${f.simulation}/runs/${f.run}?include=events` }),
  },
  {
    operation: 'get /simulations/:id/runs/:run_id/events',
    request: (f) => ({ path: `/simulations/${f.simulation}/runs/${f.run}/events` }),
    keep: (response, f) => {
      f.runEvent = String(response.list[0]?.id);
    },
  },
  {
    operation: 'get /simulations/:id/runs/:run_id/events/:event_id',
    request: (f) => ({ path: `/simulations/${f.simulation}/runs/${f.run}/events/${f.runEvent}` }),
  },
  {
    operation: 'post /simulations/:id/runs/:run_id/events/:event_id/replay',
    request: (f) => ({ path: `/simulations/${f.simulation}/runs/${f.run}/events/${f.runEvent}/replay` }),
  },
  { operation: 'delete /notification-settings/:id', request: (f) => ({ path: `/notification-settings/${f.setting}` }) },
];

export const REPORT_STEPS: readonly WalkStep[] = [
  {
    operation: 'post /reports',
    request: () => ({ path: '/reports', body: { type: 'transactions', filters: [] } }),
    keep: keepId('report'),
  },
  { operation: 'get /reports', request: () => ({ path: '/reports' }) },
  { operation: 'get /reports/:id', request: (f) => ({ path: `/reports/${f.report}` }) },
  {
    operation: 'get /reports/:id/download-url',
    before: async (f, api) => {
      await eventually(
        'the report to be ready',
        async () => dataOf(await api.get(`/reports/${f.report}`)).status === 'ready',
      );
    },
    request: (f) => ({ path: `/reports/${f.report}/download-url` }),
    keep: (response, f) => {
      f.reportLink = localPart(String(dataOf(response).url));
    },
  },
  { operation: 'get /reports/:id/csv', request: (f) => ({ path: f.reportLink ?? '' }) },
];

export function metricSteps(endpoints: readonly string[]): WalkStep[] {
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  return endpoints.map((endpoint) => ({
    operation: `get /metrics/${endpoint}`,
    request: () => ({ path: `/metrics/${endpoint}?from=${day(-7)}&to=${day(1)}` }),
  }));
}

export const SANDBOX_STEPS: readonly WalkStep[] = [
  { operation: 'get /sandbox-clock', request: () => ({ path: '/sandbox-clock' }) },
  { operation: 'get /email-settings', request: () => ({ path: '/email-settings' }) },
  {
    operation: 'patch /email-settings',
    request: () => ({
      path: '/email-settings',
      body: {
        sender_name: 'Walk Ltd',
        sender_address: 'billing@walk.example',
        reply_to: 'help@walk.example',
        renewal_reminder_days: 14,
        renewal_reminders: 'all',
      },
    }),
  },
  {
    operation: 'get /emails',
    // The walk's completed transactions are customer-facing events: the sandbox captures their emails.
    before: async (_f, api) => {
      await eventually('a captured email', async () => (await api.get('/emails')).list.length > 0);
    },
    request: () => ({ path: '/emails' }),
    keep: (response, fixtures) => {
      fixtures.email = String(response.list[0]?.id);
    },
  },
  { operation: 'get /emails/:id', request: (f) => ({ path: `/emails/${f.email}` }) },
  {
    operation: 'get /events',
    // Last, so that the page holds an event of every kind the walk caused, each `data` checked by its type.
    request: () => ({ path: '/events?per_page=200&order_by=id[DESC]' }),
    keep: (response) => {
      const kinds = new Set(response.list.map((event) => String(event.event_type).split('.')[0]));
      for (const kind of ['product', 'price', 'customer', 'address', 'business', 'discount', 'subscription']) {
        expect(kinds, kind).toContain(kind);
      }
      for (const kind of ['transaction', 'adjustment', 'report', 'meter', 'usage_balance_unit']) {
        expect(kinds, kind).toContain(kind);
      }
      // The harness's key, the walk's client token and its saved (then deleted) card.
      for (const kind of ['api_key', 'client_token', 'payment_method']) expect(kinds, kind).toContain(kind);
      const types = new Set(response.list.map((event) => String(event.event_type)));
      for (const type of ['payment_method.saved', 'payment_method.deleted', 'client_token.revoked']) {
        expect(types, type).toContain(type);
      }
    },
  },
  { operation: 'get /sandbox-payment-outcome', request: () => ({ path: '/sandbox-payment-outcome' }) },
  {
    operation: 'put /sandbox-payment-outcome',
    request: () => ({ path: '/sandbox-payment-outcome', body: { outcome: 'success' } }),
  },
  {
    operation: 'post /sandbox-clock/advance',
    request: () => ({ path: '/sandbox-clock/advance', body: { seconds: 3600 } }),
  },
];

const locationOf = (response: ApiResponse) => String(response.headers.get('location'));

/**
 * The hosted checkout's forms on the sandbox, as a browser posts them: a new customer's details,
 * then the 3-D Secure card, whose challenge page is shown and passed.
 */
export const CHECKOUT_FORM_STEPS: readonly WalkStep[] = [
  {
    operation: 'post /checkout/details',
    before: async (f, api) => {
      const draft = await api.post('/transactions', { items: [{ price_id: f.oneOffPrice, quantity: 1 }] });
      expect(draft.entity.status, draft.text).toBe('draft');
      f.draft = draft.id;
    },
    request: (f) => ({
      path: `/checkout/details?_ptxn=${f.draft}`,
      form: { email: 'walk-shopper@example.com', country_code: 'GB', postal_code: 'N1 9GU', city: 'London' },
    }),
    keep: (response, f) => {
      expect(locationOf(response)).toBe(`/checkout?_ptxn=${f.draft}`);
    },
  },
  {
    operation: 'post /checkout/code',
    before: async (_f, api) => {
      const discount = await api.post('/discounts', {
        description: 'Walk promo',
        type: 'percentage',
        amount: '10',
        enabled_for_checkout: true,
        code: 'WALKPROMO10',
      });
      expect(discount.status, discount.text).toBe(201);
    },
    // Codes compare case-insensitively (ADR 1111).
    request: (f) => ({ path: `/checkout/code?_ptxn=${f.draft}`, form: { code: 'walkpromo10' } }),
    keep: (response, f) => {
      expect(locationOf(response)).toBe(`/checkout?_ptxn=${f.draft}`);
    },
  },
  {
    operation: 'post /checkout/pay',
    before: async (f) => {
      f.payForm = JSON.stringify(await checkoutClient(f.sandboxUrl ?? '').form(f.draft ?? '', CARDS.challenge));
    },
    request: (f) => ({ path: `/checkout/pay?_ptxn=${f.draft}`, form: JSON.parse(f.payForm ?? '{}') }),
    keep: (response, f) => {
      f.challenge = locationOf(response);
      expect(f.challenge).toMatch(/^\/checkout\/sandbox-authentication\/sbxpay_/);
    },
  },
  {
    operation: 'get /checkout/sandbox-authentication/:ref',
    request: (f) => ({ path: f.challenge ?? '' }),
    keep: (response) => {
      expect(response.text).toContain('name="outcome" value="pass"');
    },
  },
  {
    operation: 'post /checkout/sandbox-authentication/:ref',
    request: (f) => ({ path: f.challenge ?? '', form: { outcome: 'pass' } }),
    keep: (response, f) => {
      expect(locationOf(response)).toBe(`/checkout?_ptxn=${f.draft}`);
    },
  },
  {
    operation: 'get /transactions/:id',
    // The challenge passed: the checkout's payment completed the transaction.
    request: (f) => ({ path: `/transactions/${f.draft}` }),
    keep: (response) => {
      expect(dataOf(response).status).toBe('completed');
    },
  },
];

/**
 * Live, through Stripe (the local Stripe-format server) and Stripe.js's path (ADR 1424): the page's
 * script asks for the PaymentIntent; the browser confirms it at Stripe with a test card (as
 * Stripe.js does, with the publishable key); Stripe's signed `payment_intent.succeeded` webhook
 * reaches the account's route and settles the payment; the customer comes back through
 * `/checkout/return` to the checkout page.
 */
export function stripeSteps(stripe: FakeStripe, keys: { webhookSecret: string; publishableKey: string }): WalkStep[] {
  return [
    {
      operation: 'post /checkout/intent',
      on: 'live',
      request: (f) => ({
        path: `/checkout/intent?_ptxn=${f.liveTransaction}`,
        form: { submission_key: '0123456789abcdef01234567', expected_amount: f.liveAmount ?? '' },
      }),
      keep: (response, f) => {
        expect(dataOf(response)).toMatchObject({ kind: 'checkout' });
        f.clientSecret = String(dataOf(response).client_secret);
        f.intent = f.clientSecret.split('_secret_')[0] ?? '';
        expect(f.intent).toMatch(/^pi_/);
      },
    },
    {
      operation: 'post /payment-providers/:provider/webhooks/:accountId',
      on: 'live',
      before: async (f) => {
        // The browser confirms the intent at Stripe with a test card, as Stripe.js does.
        const confirmed = await fetch(`${stripe.baseUrl}/v1/payment_intents/${f.intent}/confirm`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            key: keys.publishableKey,
            client_secret: f.clientSecret ?? '',
            'payment_method_data[type]': 'card',
            'payment_method_data[card][number]': '4242424242424242',
            'payment_method_data[card][exp_month]': '12',
            'payment_method_data[card][exp_year]': '2039',
            'payment_method_data[card][cvc]': '123',
            return_url: `${f.liveUrl}/checkout/return`,
          }),
        });
        expect(confirmed.status, await confirmed.text()).toBe(200);
        const event = stripe
          .objects('evt_')
          .find(
            (candidate) =>
              candidate.type === 'payment_intent.succeeded' &&
              (candidate.data as { object: { id: string } }).object.id === f.intent,
          );
        expect(event, 'Stripe recorded payment_intent.succeeded').toBeDefined();
        f.stripeEvent = JSON.stringify(event);
      },
      request: (f) => ({
        path: `/payment-providers/stripe/webhooks/${f.liveAccount}`,
        rawBody: f.stripeEvent ?? '',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'stripe-signature': stripeSignature(f.stripeEvent ?? '', keys.webhookSecret),
        },
      }),
      keep: (response) => {
        // The webhook arrives before the customer is back: it settles the payment.
        expect(dataOf(response)).toMatchObject({ kind: 'payment_succeeded', outcome: 'applied' });
      },
    },
    {
      operation: 'get /checkout/return',
      on: 'live',
      request: (f) => ({ path: `/checkout/return?_ptxn=${f.liveTransaction}&redirect_status=succeeded` }),
      keep: (response, f) => {
        expect(locationOf(response)).toBe(`/checkout?_ptxn=${f.liveTransaction}`);
      },
    },
    {
      operation: 'get /transactions/:id',
      on: 'live',
      request: (f) => ({ path: `/transactions/${f.liveTransaction}` }),
      keep: (response) => {
        expect(dataOf(response).status).toBe('completed');
      },
    },
  ];
}
