/**
 * A Pro key billed by Drawdown, end to end: a real billing service (sandbox), a customer subscribed through
 * checkout, and the real price-search HTTP service metering the key through the SDK and receiving Drawdown's
 * webhooks. The key runs out when Drawdown reports its balance depleted, and works again after the sandbox
 * renews the subscription. On both billing storage engines.
 */
import type { AddressInfo } from 'node:net';
import { Drawdown, type UsageBalance } from '@drawdown/sdk';
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { BILLING_WEBHOOK_EVENTS, BILLING_WEBHOOK_PATH } from '../../src/billing/billing-webhooks.js';
import { setupDrawdownPlans } from '../../src/billing/setup-drawdown-plans.js';
import { composeService, type PriceSearchService } from '../../src/compose-service.js';

const TEST_ALLOWANCE = 3;

async function eventually(what: string, condition: () => boolean | Promise<boolean>, limitMs = 20_000) {
  const deadline = Date.now() + limitMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.each(ENGINES)('%s: Pro key metered by Drawdown', (engine) => {
  let harness: BillingHarness;
  let drawdown: Drawdown;
  let service: PriceSearchService;
  let server: ReturnType<typeof serve>;
  let baseUrl: string;
  let customerId: string;
  let unitId: string;
  let key: string;

  async function sandbox<T>(method: string, path: string, body: unknown): Promise<T> {
    const response = await fetch(`${harness.sandboxUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${harness.sandboxKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const parsed = (await response.json()) as { data?: T; error?: unknown };
    expect(parsed.error, JSON.stringify(parsed.error)).toBeUndefined();
    return parsed.data as T;
  }

  function lookup(): Promise<Response> {
    return fetch(`${baseUrl}/api/query`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'kettle' }),
    });
  }

  async function balance(): Promise<UsageBalance['balance'] | undefined> {
    for await (const item of drawdown.usageBalances.list(customerId, { usageBalanceUnitId: [unitId] })) {
      return item.balance;
    }
    return undefined;
  }

  beforeAll(async () => {
    harness = await startBillingHarness({ engine, allowPrivateWebhooks: true });
    drawdown = new Drawdown(harness.sandboxKey, { baseUrl: harness.sandboxUrl });
    const plans = await setupDrawdownPlans(drawdown);
    unitId = plans.lookupsUnitId;
    // A Pro price with a tiny allowance, so the test runs out in three lookups rather than 5,000.
    const testPrice = await drawdown.prices.create({
      productId: plans.productId,
      name: 'Pro (test)',
      description: `Pro with ${TEST_ALLOWANCE} lookups`,
      unitPrice: { amount: '2900', currencyCode: 'GBP' },
      billingCycle: { interval: 'month', frequency: 1 },
      allowances: [{ usageBalanceUnitId: unitId, amount: String(TEST_ALLOWANCE) }],
    });

    const customer = await drawdown.customers.create({ email: 'buyer@example.co.uk' });
    customerId = customer.id;
    const address = await drawdown.addresses.create(customerId, { countryCode: 'GB' });
    const transaction = await sandbox<{ id: string }>('POST', '/transactions', {
      customer_id: customerId,
      address_id: address.id,
      items: [{ price_id: testPrice.id, quantity: 1 }],
    });
    const paid = await sandbox<{ status: string; subscription_id: string | null }>(
      'POST',
      `/transactions/${transaction.id}/simulate-payment`,
      { outcome: 'success' },
    );
    expect(paid).toMatchObject({ status: 'completed', subscription_id: expect.stringMatching(/^sub_/) });

    // The destination is known only once price search listens, and the secret only once the setting exists.
    const setting = await drawdown.notificationSettings.create({
      description: 'price search',
      type: 'url',
      destination: 'http://127.0.0.1:9/unused',
      subscribedEvents: [...BILLING_WEBHOOK_EVENTS],
    });
    service = await composeService({
      cataloguePath: ':memory:',
      statePath: ':memory:',
      requestsPerMinute: { free: 100_000, pro: 100_000, scale: 100_000 },
      drawdown: {
        baseUrl: harness.sandboxUrl,
        apiKey: harness.sandboxKey,
        webhookSecret: setting.endpointSecretKey,
        lookupsUnitId: unitId,
      },
    });
    const app = createApp(service.deps);
    const port = await new Promise<number>((resolve) => {
      server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => resolve(info.port));
    });
    baseUrl = `http://127.0.0.1:${port}`;
    await drawdown.notificationSettings.update(setting.id, { destination: `${baseUrl}${BILLING_WEBHOOK_PATH}` });

    const created = service.keys.create({ plan: 'pro', label: 'buyer', now: new Date() });
    service.billing?.links.link(created.id, customerId, new Date());
    key = created.key;
  });

  afterAll(async () => {
    await service?.billing?.meter.close();
    await new Promise<void>((resolve) => {
      if (server === undefined) return resolve();
      server.close(() => resolve());
      if ('closeAllConnections' in server) server.closeAllConnections();
    });
    service?.close();
    await harness?.close();
  });

  it('creates the plans once: a second setup finds the same unit, meter, product and prices', async () => {
    const again = await setupDrawdownPlans(drawdown);
    expect(again.lookupsUnitId).toBe(unitId);
    const pro = await drawdown.prices.get(again.proPriceId);
    expect(pro).toMatchObject({
      unitPrice: { amount: '2900', currencyCode: 'GBP' },
      allowances: [{ usageBalanceUnitId: unitId, amount: '5000' }],
    });
    const scale = await drawdown.prices.get(again.scalePriceId);
    expect(scale).toMatchObject({ unitPrice: { amount: '9900', currencyCode: 'GBP' }, allowances: [] });
  });

  it('serves the allowance, refuses the key once Drawdown reports depletion, and serves it again after renewal', async () => {
    for (let answered = 1; answered <= TEST_ALLOWANCE; answered += 1) {
      const response = await lookup();
      expect(response.status).toBe(200);
    }
    const meter = service.billing?.meter;
    expect(meter).toBeDefined();
    await eventually('the usage_balance.depleted webhook', () => meter?.stateOf(customerId)?.blocked === true);

    const refused = await lookup();
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('monthly_quota_exceeded');
    const periodEndsAt = meter?.stateOf(customerId)?.periodEndsAt;
    expect(periodEndsAt).toBeInstanceOf(Date);

    // Every answered lookup counted exactly once; the refused one not at all.
    await meter?.close();
    await eventually('the drawdowns of three lookups', async () => (await balance())?.used.total === '3');
    expect(await balance()).toMatchObject({ remaining: { total: '0' }, overage: { total: '0' } });

    await drawdown.sandboxClock.advance({ seconds: 32 * 86_400 });
    await eventually(
      'the subscription.updated webhook and a refilled balance',
      () => meter?.stateOf(customerId)?.blocked === false,
    );

    const served = await lookup();
    expect(served.status).toBe(200);
    expect(served.headers.get('x-quota-limit')).toBe(String(TEST_ALLOWANCE));
    await meter?.close();
    await eventually('the drawdown of the lookup after renewal', async () => (await balance())?.used.total === '1');
    expect(await balance()).toMatchObject({ remaining: { total: String(TEST_ALLOWANCE - 1) } });
  });
});
