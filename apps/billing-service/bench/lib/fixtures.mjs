/**
 * @module
 * What the usage bench ingests against: on the live environment of the demo account, one usage
 * balance unit with a meter for the bench action, a monthly price with a large allowance of
 * that unit, and a handful of customers, each with an active subscription to it. The catalogue
 * goes through the HTTP API; the subscriptions start through the core's `startSubscription`, the
 * way a completed checkout starts them (the service has no transaction routes yet).
 */
import { serviceModules } from './billing-service.mjs';

export const BENCH_ACTION = 'api_call';

/** Large enough that no bench run depletes it: every event draws from the allowance. */
const ALLOWANCE = '1000000000';

function api(baseUrl, token) {
  return async (method, path, body) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const payload = await response.json();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(payload)}`);
    return payload.data;
  };
}

/**
 * On the live environment, or on the one named by `environment` with its `baseUrl` and `key`.
 * @param {{ serviceDir: string, liveUrl: string, liveKey: string, accountId: string, storage: { dataDir: string, databaseUrl: string | undefined }, customers: number, environment?: 'live' | 'sandbox', baseUrl?: string, key?: string }} options
 * @returns {Promise<{ action: string, unitId: string, customerIds: string[] }>}
 */
export async function setUpUsageFixtures(options) {
  const environment = options.environment ?? 'live';
  const call = api(options.baseUrl ?? options.liveUrl, options.key ?? options.liveKey);
  const unit = await call('POST', '/usage-balance-units', { name: 'Bench credits', unit_name: 'credits' });
  await call('POST', '/meters', {
    usage_balance_unit_id: unit.id,
    name: 'Bench API calls',
    action: BENCH_ACTION,
    unit_name: 'call',
    rate: '1',
  });
  const product = await call('POST', '/products', { name: 'Bench plan', tax_category: 'saas' });
  const price = await call('POST', '/prices', {
    product_id: product.id,
    description: 'Bench plan',
    unit_price: { amount: '1000', currency_code: 'USD' },
    billing_cycle: { interval: 'month', frequency: 1 },
    allowances: [{ usage_balance_unit_id: unit.id, amount: ALLOWANCE }],
  });
  const customerIds = [];
  for (let index = 0; index < options.customers; index += 1) {
    const customer = await call('POST', '/customers', { email: `bench-${index}@example.com` });
    customerIds.push(customer.id);
  }

  const { composeServices, startSubscription } = await serviceModules(options.serviceDir);
  const services = await composeServices(options.storage);
  try {
    const account = await services.store.accounts.findById(options.accountId);
    if (!account) throw new Error(`account ${options.accountId} missing`);
    const context = {
      store: services.store,
      ids: services.ids,
      clock: services.clock,
      scope: { accountId: account.id, environment },
      account,
    };
    for (const customerId of customerIds) {
      await services.store.transaction((tx) =>
        startSubscription(context, tx, {
          customerId,
          addressId: null,
          currencyCode: 'USD',
          collectionMode: 'automatic',
          items: [{ priceId: price.id, quantity: 1 }],
          transactionId: null,
        }),
      );
    }
  } finally {
    await services.store.close();
  }
  return { action: BENCH_ACTION, unitId: unit.id, customerIds };
}

/**
 * The units drawn so far from each customer's balance of `unitId` (used plus overage), on the
 * live environment or on the one whose `baseUrl` and `key` are given.
 */
export async function drawnUnits(options, customerIds, unitId) {
  const call = api(options.baseUrl ?? options.liveUrl, options.key ?? options.liveKey);
  let total = 0n;
  for (const customerId of customerIds) {
    const balances = await call('GET', `/customers/${customerId}/usage-balances`);
    const balance = balances.find((item) => item.usage_balance_unit_id === unitId);
    if (!balance) throw new Error(`customer ${customerId} has no balance of ${unitId}`);
    total += wholeUnits(balance.balance.used.total) + wholeUnits(balance.balance.overage.total);
  }
  return total;
}

/** A decimal string of whole units ("42" or "42.000") as a BigInt; the bench draws whole units only. */
function wholeUnits(text) {
  const [whole, fraction = ''] = text.split('.');
  if (/[^0]/.test(fraction)) throw new Error(`expected whole units, got ${text}`);
  return BigInt(whole ?? '0');
}
