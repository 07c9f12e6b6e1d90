/**
 * Every endpoint of the sandbox address refuses every kind of bad credential with its own
 * 403 code, refuses a key without the endpoint's permission with `forbidden`, and lets the
 * right permission through. The endpoint table is checked against the app's routes, so a new
 * route without a row here fails this test.
 */
import { ALL_PERMISSIONS, type Permission } from '@drawdown/billing-core';
import { createApp } from '@drawdown/billing-service';
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, expectError, expectErrorEnvelope } from '../support/api-client.js';

interface Endpoint {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The route as registered, with `:name` parameters. */
  readonly route: string;
  /** The permission the route needs; `null` for a public route that answers without an API key. */
  readonly permission: Permission | null;
}

const ENDPOINTS: readonly Endpoint[] = [
  { method: 'GET', route: '/products', permission: 'product.read' },
  { method: 'POST', route: '/products', permission: 'product.write' },
  { method: 'GET', route: '/products/:id', permission: 'product.read' },
  { method: 'PATCH', route: '/products/:id', permission: 'product.write' },
  { method: 'GET', route: '/prices', permission: 'price.read' },
  { method: 'POST', route: '/prices', permission: 'price.write' },
  { method: 'GET', route: '/prices/:id', permission: 'price.read' },
  { method: 'PATCH', route: '/prices/:id', permission: 'price.write' },
  { method: 'GET', route: '/customers', permission: 'customer.read' },
  { method: 'POST', route: '/customers', permission: 'customer.write' },
  { method: 'GET', route: '/customers/:id', permission: 'customer.read' },
  { method: 'PATCH', route: '/customers/:id', permission: 'customer.write' },
  { method: 'GET', route: '/customers/:customer/addresses', permission: 'address.read' },
  { method: 'POST', route: '/customers/:customer/addresses', permission: 'address.write' },
  { method: 'GET', route: '/customers/:customer/addresses/:id', permission: 'address.read' },
  { method: 'PATCH', route: '/customers/:customer/addresses/:id', permission: 'address.write' },
  { method: 'GET', route: '/customers/:customer/credit-balances', permission: 'customer.read' },
  { method: 'POST', route: '/customers/:customer/portal-sessions', permission: 'customer_portal_session.write' },
  { method: 'POST', route: '/customer-portal-sessions/verify', permission: 'customer_portal_session.read' },
  {
    method: 'GET',
    route: '/customer-portal-sessions/verification-key',
    permission: 'customer_portal_session.read',
  },
  { method: 'GET', route: '/customers/:customer/businesses', permission: 'business.read' },
  { method: 'POST', route: '/customers/:customer/businesses', permission: 'business.write' },
  { method: 'GET', route: '/customers/:customer/businesses/:id', permission: 'business.read' },
  { method: 'PATCH', route: '/customers/:customer/businesses/:id', permission: 'business.write' },
  { method: 'POST', route: '/customers/:customer/auth-token', permission: 'customer_auth_token.write' },
  { method: 'GET', route: '/client-tokens', permission: 'client_token.read' },
  { method: 'POST', route: '/client-tokens', permission: 'client_token.write' },
  { method: 'GET', route: '/client-tokens/:id', permission: 'client_token.read' },
  { method: 'PATCH', route: '/client-tokens/:id', permission: 'client_token.write' },
  { method: 'GET', route: '/customers/:customer/usage-balances', permission: 'usage_balance.read' },
  { method: 'GET', route: '/customers/:customer/usage-balances/:id', permission: 'usage_balance.read' },
  { method: 'GET', route: '/customers/:customer/usage-balances/:id/periods', permission: 'usage_balance.read' },
  { method: 'GET', route: '/discounts', permission: 'discount.read' },
  { method: 'POST', route: '/discounts', permission: 'discount.write' },
  { method: 'GET', route: '/discounts/:id', permission: 'discount.read' },
  { method: 'PATCH', route: '/discounts/:id', permission: 'discount.write' },
  { method: 'GET', route: '/discount-groups', permission: 'discount.read' },
  { method: 'POST', route: '/discount-groups', permission: 'discount.write' },
  { method: 'GET', route: '/discount-groups/:id', permission: 'discount.read' },
  { method: 'PATCH', route: '/discount-groups/:id', permission: 'discount.write' },
  { method: 'GET', route: '/usage-balance-units', permission: 'usage_balance_unit.read' },
  { method: 'POST', route: '/usage-balance-units', permission: 'usage_balance_unit.write' },
  { method: 'GET', route: '/usage-balance-units/:id', permission: 'usage_balance_unit.read' },
  { method: 'PATCH', route: '/usage-balance-units/:id', permission: 'usage_balance_unit.write' },
  { method: 'GET', route: '/meters', permission: 'meter.read' },
  { method: 'POST', route: '/meters', permission: 'meter.write' },
  { method: 'GET', route: '/meters/:id', permission: 'meter.read' },
  { method: 'PATCH', route: '/meters/:id', permission: 'meter.write' },
  { method: 'POST', route: '/usage-events', permission: 'usage_event.write' },
  { method: 'GET', route: '/events', permission: 'event.read' },
  { method: 'GET', route: '/event-types', permission: 'notification_setting.read' },
  { method: 'GET', route: '/notification-settings', permission: 'notification_setting.read' },
  { method: 'POST', route: '/notification-settings', permission: 'notification_setting.write' },
  { method: 'GET', route: '/notification-settings/:id', permission: 'notification_setting.read' },
  { method: 'PATCH', route: '/notification-settings/:id', permission: 'notification_setting.write' },
  { method: 'DELETE', route: '/notification-settings/:id', permission: 'notification_setting.write' },
  { method: 'POST', route: '/notification-settings/:id/rotate-secret', permission: 'notification_setting.write' },
  { method: 'GET', route: '/notifications', permission: 'notification.read' },
  { method: 'GET', route: '/notifications/:id', permission: 'notification.read' },
  { method: 'GET', route: '/notifications/:id/logs', permission: 'notification.read' },
  { method: 'POST', route: '/notifications/:id/replay', permission: 'notification.write' },
  { method: 'GET', route: '/subscriptions', permission: 'subscription.read' },
  { method: 'GET', route: '/subscriptions/:id', permission: 'subscription.read' },
  { method: 'PATCH', route: '/subscriptions/:id', permission: 'subscription.write' },
  { method: 'PATCH', route: '/subscriptions/:id/preview', permission: 'subscription.read' },
  { method: 'POST', route: '/subscriptions/:id/activate', permission: 'subscription.write' },
  { method: 'POST', route: '/subscriptions/:id/charge', permission: 'subscription.write' },
  { method: 'POST', route: '/subscriptions/:id/charge/preview', permission: 'subscription.read' },
  { method: 'POST', route: '/subscriptions/:id/pause', permission: 'subscription.write' },
  { method: 'POST', route: '/subscriptions/:id/resume', permission: 'subscription.write' },
  { method: 'POST', route: '/subscriptions/:id/cancel', permission: 'subscription.write' },
  { method: 'GET', route: '/subscriptions/:id/cancellation-reason', permission: 'subscription.read' },
  { method: 'GET', route: '/sandbox-clock', permission: 'sandbox_clock.read' },
  { method: 'POST', route: '/sandbox-clock/advance', permission: 'sandbox_clock.write' },
  { method: 'GET', route: '/sandbox-payment-outcome', permission: 'sandbox_clock.read' },
  { method: 'PUT', route: '/sandbox-payment-outcome', permission: 'sandbox_clock.write' },
  { method: 'GET', route: '/currencies', permission: null },
  { method: 'GET', route: '/ips', permission: null },
  { method: 'GET', route: '/invoices/:transactionId/pdf', permission: null },
  { method: 'GET', route: '/transactions', permission: 'transaction.read' },
  { method: 'POST', route: '/transactions', permission: 'transaction.write' },
  { method: 'POST', route: '/transactions/preview', permission: 'transaction.read' },
  { method: 'POST', route: '/pricing-preview', permission: 'price.read' },
  { method: 'GET', route: '/transactions/:id', permission: 'transaction.read' },
  { method: 'PATCH', route: '/transactions/:id', permission: 'transaction.write' },
  { method: 'POST', route: '/transactions/:id/revise', permission: 'transaction.write' },
  { method: 'POST', route: '/transactions/:id/simulate-payment', permission: 'transaction.write' },
  { method: 'POST', route: '/transactions/:id/payments', permission: 'transaction.write' },
  { method: 'GET', route: '/transactions/:id/invoice', permission: 'transaction.read' },
  { method: 'POST', route: '/adjustments', permission: 'adjustment.write' },
  { method: 'GET', route: '/adjustments', permission: 'adjustment.read' },
  { method: 'GET', route: '/adjustments/:id/credit-note', permission: 'adjustment.read' },
  { method: 'GET', route: '/credit-notes/:adjustmentId/pdf', permission: null },
  { method: 'GET', route: '/tax-settings', permission: 'transaction.read' },
  { method: 'PATCH', route: '/tax-settings', permission: 'transaction.write' },
  { method: 'GET', route: '/seller-details', permission: 'transaction.read' },
  { method: 'GET', route: '/seller-details/logo', permission: 'transaction.read' },
  { method: 'PATCH', route: '/seller-details', permission: 'transaction.write' },
  { method: 'GET', route: '/email-settings', permission: 'notification_setting.read' },
  { method: 'PATCH', route: '/email-settings', permission: 'notification_setting.write' },
  { method: 'GET', route: '/emails', permission: 'notification.read' },
  { method: 'GET', route: '/emails/:id', permission: 'notification.read' },
  { method: 'GET', route: '/simulation-types', permission: 'notification_simulation.read' },
  { method: 'GET', route: '/simulations', permission: 'notification_simulation.read' },
  { method: 'POST', route: '/simulations', permission: 'notification_simulation.write' },
  { method: 'GET', route: '/simulations/:id', permission: 'notification_simulation.read' },
  { method: 'PATCH', route: '/simulations/:id', permission: 'notification_simulation.write' },
  { method: 'GET', route: '/simulations/:id/runs', permission: 'notification_simulation.read' },
  { method: 'POST', route: '/simulations/:id/runs', permission: 'notification_simulation.write' },
  { method: 'GET', route: '/simulations/:id/runs/:run_id', permission: 'notification_simulation.read' },
  { method: 'GET', route: '/simulations/:id/runs/:run_id/events', permission: 'notification_simulation.read' },
  {
    method: 'GET',
    route: '/simulations/:id/runs/:run_id/events/:event_id',
    permission: 'notification_simulation.read',
  },
  {
    method: 'POST',
    route: '/simulations/:id/runs/:run_id/events/:event_id/replay',
    permission: 'notification_simulation.write',
  },
  { method: 'GET', route: '/metrics/revenue', permission: 'metrics.read' },
  { method: 'GET', route: '/metrics/refunds', permission: 'metrics.read' },
  { method: 'GET', route: '/metrics/chargebacks', permission: 'metrics.read' },
  { method: 'GET', route: '/metrics/checkout-conversion', permission: 'metrics.read' },
  { method: 'GET', route: '/metrics/active-subscribers', permission: 'metrics.read' },
  { method: 'GET', route: '/metrics/monthly-recurring-revenue', permission: 'metrics.read' },
  { method: 'GET', route: '/metrics/monthly-recurring-revenue-change', permission: 'metrics.read' },
  { method: 'GET', route: '/reports', permission: 'report.read' },
  { method: 'POST', route: '/reports', permission: 'report.write' },
  { method: 'GET', route: '/reports/:id', permission: 'report.read' },
  { method: 'GET', route: '/reports/:id/download-url', permission: 'report.read' },
  { method: 'GET', route: '/reports/:id/csv', permission: null },
  { method: 'GET', route: '/customers/:customer/payment-methods', permission: 'payment_method.read' },
  { method: 'GET', route: '/customers/:customer/payment-methods/:id', permission: 'payment_method.read' },
  { method: 'DELETE', route: '/customers/:customer/payment-methods/:id', permission: 'payment_method.write' },
  { method: 'GET', route: '/subscriptions/:id/update-payment-method-transaction', permission: 'transaction.write' },
  { method: 'GET', route: '/checkout-settings', permission: 'transaction.read' },
  { method: 'PATCH', route: '/checkout-settings', permission: 'transaction.write' },
  { method: 'GET', route: '/checkout', permission: null },
  { method: 'GET', route: '/checkout/assets/checkout.css', permission: null },
  { method: 'GET', route: '/checkout/assets/stripe-checkout.js', permission: null },
  { method: 'POST', route: '/checkout/intent', permission: null },
  { method: 'POST', route: '/checkout/details', permission: null },
  { method: 'POST', route: '/checkout/code', permission: null },
  { method: 'POST', route: '/checkout/pay', permission: null },
  { method: 'GET', route: '/checkout/return', permission: null },
  { method: 'GET', route: '/checkout/sandbox-authentication/:ref', permission: null },
  { method: 'POST', route: '/checkout/sandbox-authentication/:ref', permission: null },
];

/** A well-formed id for each path parameter, so requests reach the handler. */
const SAMPLE_IDS: Readonly<Record<string, string>> = {
  products: 'pro_00000000000000000000000000',
  prices: 'pri_00000000000000000000000000',
  customers: 'ctm_00000000000000000000000000',
  addresses: 'add_00000000000000000000000000',
  businesses: 'biz_00000000000000000000000000',
  'client-tokens': 'ctkn_00000000000000000000000000',
  'usage-balances': 'ubl_00000000000000000000000000',
  'usage-balance-units': 'ubu_00000000000000000000000000',
  meters: 'mtr_00000000000000000000000000',
  discounts: 'dsc_00000000000000000000000000',
  'discount-groups': 'dsg_00000000000000000000000000',
  subscriptions: 'sub_00000000000000000000000000',
  'notification-settings': 'ntfset_00000000000000000000000000',
  notifications: 'ntf_00000000000000000000000000',
  emails: 'eml_00000000000000000000000000',
  transactions: 'txn_00000000000000000000000000',
  invoices: 'txn_00000000000000000000000000',
  simulations: 'ntfsim_00000000000000000000000000',
  runs: 'ntfsimrun_00000000000000000000000000',
  events: 'ntfsimevt_00000000000000000000000000',
  reports: 'rep_00000000000000000000000000',
  adjustments: 'adj_00000000000000000000000000',
  'credit-notes': 'adj_00000000000000000000000000',
  'payment-methods': 'paymtd_00000000000000000000000000',
  'sandbox-authentication': 'sbxpay_00000000000000000000000000',
  'payment-providers': 'sandbox',
};

/** The route with each `:parameter` replaced by a sample id of the collection before it. */
function samplePath(route: string): string {
  const segments = route.split('/');
  return segments
    .map((segment, index) => (segment.startsWith(':') ? (SAMPLE_IDS[segments[index - 1] ?? ''] ?? 'unknown') : segment))
    .join('/');
}

const label = (endpoint: Endpoint) => `${endpoint.method} ${endpoint.route}`;

/** Every permission except `needed` and any that would imply it. */
function allBut(needed: Permission): Permission[] {
  const implying = needed.endsWith('.read') ? needed.replace(/\.read$/, '.write') : needed;
  return ALL_PERMISSIONS.filter((permission) => permission !== needed && permission !== implying);
}

describe('the endpoint table', () => {
  it('lists exactly the routes the sandbox app serves', () => {
    const app = createApp({} as Parameters<typeof createApp>[0], {
      environment: 'sandbox',
      publicBaseUrl: () => 'http://127.0.0.1',
    });
    const served = new Set(
      app.routes.filter((route) => route.method !== 'ALL').map((route) => `${route.method} ${route.path}`),
    );
    expect([...served].sort()).toEqual(ENDPOINTS.map(label).sort());
  });

  it('gives every sample path a well-formed id', () => {
    for (const endpoint of ENDPOINTS) expect(samplePath(endpoint.route)).not.toContain('unknown');
  });
});

describe.each(ENGINES)('%s: authorization on every endpoint', (engine) => {
  let harness: BillingHarness;
  let revokedKey: string;
  let expiredKey: string;
  const keysWithout = new Map<Permission, string>();
  const keysWith = new Map<Permission, string>();

  beforeAll(async () => {
    // A configured portal: portal sessions are made, not refused (ADR 1472).
    harness = await startBillingHarness({ engine, portalUrl: 'https://portal.example/billing' });
    revokedKey = await harness.createKey({ environment: 'sandbox', permissions: ['all'] });
    await harness.services.useCases.revokeApiKey(`apikey_${revokedKey.split('_')[3]}`);
    expiredKey = await insertExpiredKey(harness);
    for (const permission of new Set(ENDPOINTS.flatMap((endpoint) => endpoint.permission ?? []))) {
      keysWith.set(permission, await harness.createKey({ environment: 'sandbox', permissions: [permission] }));
      keysWithout.set(permission, await harness.createKey({ environment: 'sandbox', permissions: allBut(permission) }));
    }
  });
  afterAll(() => harness.close());

  it.each(ENDPOINTS)('guards $method $route', async (endpoint) => {
    const path = samplePath(endpoint.route);
    const call = (authorization: string | null) =>
      apiClient(harness.sandboxUrl, '').request(endpoint.method, path, {
        authorization,
        ...(endpoint.method === 'GET' ? {} : { body: {} }),
      });
    const unknownKey = `pdl_sdbx_apikey_${'0'.repeat(26)}_${'a'.repeat(32)}`;
    if (endpoint.permission === null) {
      // Public routes (signed links, reference data) answer without a key, whatever they answer.
      const response = await call(null);
      expect(response.status, response.text).not.toBe(403);
      expect(response.status, response.text).toBeLessThan(500);
      return;
    }

    expectError(await call(null), 403, 'authentication_missing');
    expectError(await call(''), 403, 'authentication_missing');
    for (const malformed of ['Basic xyz', 'Bearer not-a-key', 'Bearer', `Token ${harness.sandboxKey}`]) {
      expectError(await call(malformed), 403, 'authentication_malformed');
    }
    expectError(await call(`Bearer ${unknownKey}`), 403, 'invalid_token');
    expectError(await call(`Bearer ${revokedKey}`), 403, 'invalid_token');
    expectError(await call(`Bearer ${expiredKey}`), 403, 'expired_token');
    expectError(await call(`Bearer ${harness.liveKey}`), 403, 'invalid_token');
    expectError(await call(`Bearer ${keysWithout.get(endpoint.permission)}`), 403, 'forbidden');

    const allowed = await call(`Bearer ${keysWith.get(endpoint.permission)}`);
    expect(allowed.status, allowed.text).not.toBe(403);
    expect(allowed.status, allowed.text).toBeLessThan(500);
    if (allowed.status >= 400) expectErrorEnvelope(allowed);
  });
});

/** A sandbox key whose expiry has passed, written straight to the store (the use case refuses past expiries). */
async function insertExpiredKey(harness: BillingHarness): Promise<string> {
  const { secrets, store } = harness.services;
  const body = 'expired'.padEnd(26, '0');
  const secret = secrets.generateSecret();
  await store.apiKeys.insert({
    id: `apikey_${body}`,
    accountId: harness.accountId,
    environment: 'sandbox',
    name: 'expired',
    permissions: [...ALL_PERMISSIONS],
    secretHash: secrets.hash(secret),
    createdAt: '2020-01-01T00:00:00.000Z',
    expiresAt: '2020-01-02T00:00:00.000Z',
    revokedAt: null,
  });
  return `pdl_sdbx_apikey_${body}_${secret}`;
}
