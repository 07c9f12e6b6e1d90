/**
 * Builders for usage tests: a sandbox API client over fetch, a unit with a meter, a price with
 * an allowance, a customer with an active subscription, and a wait for drawdowns to land.
 * Tests that advance the sandbox clock get an account of their own (`newTenant`), so the clock
 * of one test never moves another's subscriptions.
 */
import {
  type CollectionMode,
  type LedgerEntry,
  type OperationContext,
  replayLedger,
  type Scope,
  startSubscription,
} from '@drawdown/billing-core';
import type { CoreServices } from '@drawdown/billing-service';
import { openDatabase, type SqlDatabase } from '@drawdown/billing-store';
import { type BillingHarness, type Engine, type HarnessOptions, startBillingHarness } from '@drawdown/testkit';
import { expect } from 'vitest';
import { type ApiClient, apiClient, type ApiResponse as SupportResponse } from '../support/api-client.js';

export interface ApiResponse {
  readonly status: number;
  readonly body: { data?: unknown; error?: { code: string; detail: string }; meta?: unknown } & Record<string, unknown>;
}

export function sandboxApi(harness: BillingHarness, key = harness.sandboxKey) {
  async function call(method: string, path: string, body?: unknown): Promise<ApiResponse> {
    const response = await fetch(`${harness.sandboxUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as ApiResponse['body'] };
  }
  async function data<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await call(method, path, body);
    expect(response.body.error, JSON.stringify(response.body.error)).toBeUndefined();
    return response.body.data as T;
  }
  return { call, data };
}

export type Api = ReturnType<typeof sandboxApi>;

export async function createUnitAndMeter(api: Api, action: string, rate = '1') {
  const unit = await api.data<{ id: string }>('POST', '/usage-balance-units', {
    name: `${action} credits`,
    unit_name: 'credits',
  });
  const meter = await api.data<{ id: string }>('POST', '/meters', {
    usage_balance_unit_id: unit.id,
    name: `${action} meter`,
    action,
    unit_name: 'credit',
    rate,
  });
  return { unitId: unit.id, meterId: meter.id };
}

export async function createAllowancePrice(
  api: Api,
  allowances: { unitId: string; amount: string }[],
  interval = 'month',
) {
  const product = await api.data<{ id: string }>('POST', '/products', { name: 'Plan', tax_category: 'saas' });
  const price = await api.data<{ id: string }>('POST', '/prices', {
    product_id: product.id,
    description: 'Plan',
    unit_price: { amount: '1000', currency_code: 'USD' },
    billing_cycle: { interval, frequency: 1 },
    allowances: allowances.map((allowance) => ({ usage_balance_unit_id: allowance.unitId, amount: allowance.amount })),
  });
  return price.id;
}

export async function createCustomer(api: Api, email = `c${Math.random().toString(36).slice(2)}@example.com`) {
  return (await api.data<{ id: string }>('POST', '/customers', { email })).id;
}

/** Starts a subscription the way a completed checkout does, through the core use case. */
export async function subscribe(
  harness: BillingHarness,
  customerId: string,
  items: { priceId: string; quantity: number }[],
  options: { readonly accountId?: string; readonly collectionMode?: CollectionMode } = {},
): Promise<string> {
  return startSubscriptionInStore(harness.services, options.accountId ?? harness.accountId, customerId, items, {
    collectionMode: options.collectionMode ?? 'automatic',
  });
}

/** Starts a sandbox subscription directly in a store (the service may run in another process). */
export async function startSubscriptionInStore(
  services: Pick<CoreServices, 'store' | 'ids'>,
  accountId: string,
  customerId: string,
  items: { priceId: string; quantity: number }[],
  options: { readonly collectionMode?: CollectionMode } = {},
): Promise<string> {
  const scope: Scope = { accountId, environment: 'sandbox' };
  const account = await services.store.accounts.findById(accountId);
  if (!account) throw new Error(`account ${accountId} missing`);
  const offset = await services.store.sandboxClocks.offsetOf(accountId);
  const context: OperationContext = {
    store: services.store,
    ids: services.ids,
    clock: { now: () => Date.now() + offset },
    scope,
    account,
  };
  const subscription = await services.store.transaction((tx) =>
    startSubscription(context, tx, {
      customerId,
      addressId: null,
      currencyCode: 'USD',
      collectionMode: options.collectionMode ?? 'automatic',
      items,
      transactionId: null,
    }),
  );
  return subscription.id;
}

export interface WireBalance {
  readonly id: string;
  readonly usage_balance_unit_id: string;
  readonly balance: {
    used: { total: string };
    remaining: { total: string };
    overage: { total: string; started_at: string | null };
  };
}

export async function balances(api: Api, customerId: string): Promise<WireBalance[]> {
  return api.data<WireBalance[]>('GET', `/customers/${customerId}/usage-balances`);
}

export async function balanceOf(
  api: Api,
  customerId: string,
  unitId: string,
): Promise<WireBalance['balance'] | undefined> {
  return (await balances(api, customerId)).find((balance) => balance.usage_balance_unit_id === unitId)?.balance;
}

export async function sendUsage(
  api: Api,
  event: { customerId: string; action: string; quantity: string; eventKey?: string; occurredAt?: string },
) {
  return api.call('POST', '/usage-events', {
    events: [
      {
        event_key: event.eventKey ?? `evt-${Math.random().toString(36).slice(2)}`,
        customer_id: event.customerId,
        action: event.action,
        quantity: event.quantity,
        occurred_at: event.occurredAt ?? new Date().toISOString(),
      },
    ],
  });
}

/** Raw connections to harness databases, for looking at rows no port exposes. */
const rawDatabases = new WeakMap<BillingHarness, SqlDatabase>();

/** How many accepted events wait for the drawdown worker, counting those it is applying now. */
async function pendingEvents(harness: BillingHarness): Promise<number> {
  const raw = rawDatabases.get(harness);
  if (raw) {
    const row = await raw.get<{ pending: number | string }>('select count(*) as pending from usage_pending');
    return Number(row?.pending ?? 0);
  }
  // SQLite reads outside a transaction see only committed rows, and a claim skips nothing.
  return (await harness.services.store.usageEvents.claimPending(1)).length;
}

/** Waits until the drawdown worker has applied everything accepted so far. */
export async function drained(harness: BillingHarness): Promise<void> {
  for (let attempt = 0; attempt < 1_000; attempt += 1) {
    if ((await pendingEvents(harness)) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('drawdowns did not drain');
}

/**
 * A harness whose pending-event count is read with plain SQL on PostgreSQL: there the worker's
 * claim uses SKIP LOCKED, so a claim made to look would miss the rows the worker is applying.
 */
export async function startUsageHarness(engine: Engine, options: HarnessOptions = {}): Promise<BillingHarness> {
  const harness = await startBillingHarness({ ...options, engine });
  if (!harness.databaseUrl) return harness;
  const raw = openDatabase({ engine: 'postgres', url: harness.databaseUrl, maxConnections: 1 });
  const wrapped: BillingHarness = {
    ...harness,
    close: async () => {
      await raw.close();
      await harness.close();
    },
  };
  rawDatabases.set(wrapped, raw);
  return wrapped;
}

/** An early-access account of its own in the harness, with an all-permission key per environment. */
export interface Tenant {
  readonly harness: BillingHarness;
  readonly accountId: string;
  readonly scope: Scope;
  /** The sandbox API with the tenant's key. */
  readonly api: ApiClient;
  /** The live API with the tenant's live key. */
  readonly live: ApiClient;
}

export async function newTenant(harness: BillingHarness): Promise<Tenant> {
  const accountId = await harness.createAccount({ earlyAccess: true, name: 'Usage tenant' });
  const sandboxKey = await harness.createKey({ environment: 'sandbox', permissions: ['all'], accountId });
  const liveKey = await harness.createKey({ environment: 'live', permissions: ['all'], accountId });
  return {
    harness,
    accountId,
    scope: { accountId, environment: 'sandbox' },
    api: apiClient(harness.sandboxUrl, sandboxKey),
    live: apiClient(harness.liveUrl, liveKey),
  };
}

let uniqueSequence = 0;

/** An action name no other call in this process returns. */
export function uniqueAction(stem = 'call'): string {
  uniqueSequence += 1;
  return `${stem}_${process.pid}_${uniqueSequence}`;
}

function created(response: SupportResponse): string {
  expect(response.status, response.text).toBe(201);
  return response.id;
}

export async function newUnit(api: ApiClient): Promise<string> {
  return created(await api.post('/usage-balance-units', { name: 'Credits', unit_name: 'credits' }));
}

export async function newMeter(api: ApiClient, unitId: string, action: string, rate = '1'): Promise<string> {
  return created(
    await api.post('/meters', {
      usage_balance_unit_id: unitId,
      name: `${action} meter`,
      action,
      unit_name: 'call',
      rate,
    }),
  );
}

/** A monthly price with the given allowances (none makes a price without allowances). */
export async function newPrice(
  api: ApiClient,
  allowances: readonly { readonly unitId: string; readonly amount: string }[],
  billingCycle: { readonly interval: string; readonly frequency: number } = { interval: 'month', frequency: 1 },
): Promise<string> {
  const productId = created(await api.post('/products', { name: 'Plan', tax_category: 'saas' }));
  return created(
    await api.post('/prices', {
      product_id: productId,
      description: 'Plan',
      unit_price: { amount: '1000', currency_code: 'USD' },
      billing_cycle: billingCycle,
      allowances: allowances.map((allowance) => ({
        usage_balance_unit_id: allowance.unitId,
        amount: allowance.amount,
      })),
    }),
  );
}

export async function newCustomer(api: ApiClient): Promise<string> {
  uniqueSequence += 1;
  return created(await api.post('/customers', { email: `usage-${process.pid}-${uniqueSequence}@example.com` }));
}

/** One unit, one meter on it, one monthly price granting `amount` of it, one customer. */
export async function newPlan(
  tenant: Tenant,
  options: { readonly rate?: string; readonly amount?: string } = {},
): Promise<{ unitId: string; meterId: string; action: string; priceId: string; customerId: string }> {
  const unitId = await newUnit(tenant.api);
  const action = uniqueAction();
  const meterId = await newMeter(tenant.api, unitId, action, options.rate ?? '1');
  const priceId = await newPrice(tenant.api, [{ unitId, amount: options.amount ?? '10' }]);
  const customerId = await newCustomer(tenant.api);
  return { unitId, meterId, action, priceId, customerId };
}

export function subscribeTenant(
  tenant: Tenant,
  customerId: string,
  items: { priceId: string; quantity: number }[],
  collectionMode: CollectionMode = 'automatic',
): Promise<string> {
  return subscribe(tenant.harness, customerId, items, { accountId: tenant.accountId, collectionMode });
}

export interface UsageEventBody {
  readonly event_key: string;
  readonly customer_id: string;
  readonly action: string;
  readonly quantity: string;
  readonly occurred_at: string;
}

/** A usage event body with a fresh key and occurred_at now (wall clock), unless given. */
export function usageEvent(
  fields: Partial<UsageEventBody> & Pick<UsageEventBody, 'customer_id' | 'action'>,
): UsageEventBody {
  uniqueSequence += 1;
  return {
    event_key: `key-${process.pid}-${uniqueSequence}`,
    quantity: '1',
    occurred_at: new Date().toISOString(),
    ...fields,
  };
}

/** Posts one event and returns its per-event result. */
export async function postUsage(
  api: ApiClient,
  fields: Partial<UsageEventBody> & Pick<UsageEventBody, 'customer_id' | 'action'>,
): Promise<{ status: string; event_key: string; error?: { code: string; detail: string } }> {
  const response = await api.post('/usage-events', { events: [usageEvent(fields)] });
  expect(response.status, response.text).toBe(202);
  const results = (response.entity.events ?? []) as {
    status: string;
    event_key: string;
    error?: { code: string; detail: string };
  }[];
  expect(results).toHaveLength(1);
  const [result] = results;
  if (!result) throw new Error('no result');
  return result;
}

/** The customer's balance of the unit as the API shows it, or undefined when none exists. */
export async function wireBalance(
  api: ApiClient,
  customerId: string,
  unitId: string,
): Promise<(WireBalance & { customer_id: string }) | undefined> {
  const response = await api.get(`/customers/${customerId}/usage-balances`);
  expect(response.status, response.text).toBe(200);
  return response.list.find((balance) => balance.usage_balance_unit_id === unitId) as
    | (WireBalance & { customer_id: string })
    | undefined;
}

/** Totals of the customer's balance of the unit, after the worker has drained. */
export async function totals(
  tenant: Tenant,
  customerId: string,
  unitId: string,
): Promise<{ used: string; remaining: string; overage: string } | undefined> {
  await drained(tenant.harness);
  const balance = await wireBalance(tenant.api, customerId, unitId);
  if (!balance) return undefined;
  return {
    used: balance.balance.used.total,
    remaining: balance.balance.remaining.total,
    overage: balance.balance.overage.total,
  };
}

/** Moves the tenant's sandbox clock forward and returns what the API answered. */
export async function advance(
  tenant: Tenant,
  body: { readonly seconds: number } | { readonly to: string },
): Promise<{ now: string; offset_seconds: number; steps_run: number }> {
  const response = await tenant.api.post('/sandbox-clock/advance', body);
  expect(response.status, response.text).toBe(200);
  return response.entity as { now: string; offset_seconds: number; steps_run: number };
}

/** The tenant's sandbox now, as epoch milliseconds. */
export async function sandboxNow(tenant: Tenant): Promise<number> {
  const response = await tenant.api.get('/sandbox-clock');
  expect(response.status, response.text).toBe(200);
  return Date.parse(String(response.entity.now));
}

/** The tenant's events of one type, oldest first. */
export async function eventsOfType(
  tenant: Tenant,
  eventType: string,
): Promise<{ event_id: string; event_type: string; occurred_at: string; data: Record<string, unknown> }[]> {
  const response = await tenant.api.get(`/events?event_type=${eventType}&per_page=200&order_by=id[ASC]`);
  expect(response.status, response.text).toBe(200);
  return response.list as {
    event_id: string;
    event_type: string;
    occurred_at: string;
    data: Record<string, unknown>;
  }[];
}

export async function subscriptionOf(tenant: Tenant, subscriptionId: string): Promise<Record<string, unknown>> {
  const response = await tenant.api.get(`/subscriptions/${subscriptionId}`);
  expect(response.status, response.text).toBe(200);
  return response.entity;
}

/**
 * Checks every balance of the customer against a recomputation: replaying its ledger gives the
 * stored state; each usage event draws at most once from a balance, by the amount resolved when
 * it was accepted; and no drawdown names an event that was never recorded.
 */
export async function expectBalancesRecomputable(
  harness: BillingHarness,
  scope: Scope,
  customerId: string,
): Promise<void> {
  await drained(harness);
  await expectStoredBalancesRecomputable(harness.services.store, scope, customerId);
}

/** `expectBalancesRecomputable` on any store, once its drawdowns are applied. */
export async function expectStoredBalancesRecomputable(
  store: CoreServices['store'],
  scope: Scope,
  customerId: string,
): Promise<void> {
  const page = await store.usageBalances.list(scope, {
    filter: { customer_id: [{ op: 'in', values: [customerId] }] },
    perPage: 200,
    direction: 'asc',
  });
  const events = new Map((await store.usageEvents.listByCustomer(scope, customerId)).map((event) => [event.id, event]));
  for (const balance of page.items) {
    const ledger = await store.usageBalances.ledger(scope, balance.id);
    expect(replayLedger(ledger), `balance ${balance.id} equals its ledger`).toEqual(balance.state);
    const drawdowns = ledger.filter(
      (entry): entry is Extract<LedgerEntry, { kind: 'drawdown' }> => entry.kind === 'drawdown',
    );
    const ids = drawdowns.map((entry) => entry.usageEventId);
    expect(new Set(ids).size, 'each event draws once').toBe(ids.length);
    for (const entry of drawdowns) {
      const event = events.get(entry.usageEventId);
      expect(event, `drawdown of ${entry.usageEventId} has its event`).toBeDefined();
      const resolved = event?.drawdowns.find((drawdown) => drawdown.usageBalanceUnitId === balance.usageBalanceUnitId);
      expect(entry.amount).toBe(resolved?.amount);
    }
  }
}
