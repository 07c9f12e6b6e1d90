/**
 * Builders for usage tests: a sandbox API client over fetch, a unit with a meter, a price with
 * an allowance, a customer with an active subscription, and a wait for drawdowns to land.
 */
import { type OperationContext, type Scope, startSubscription } from '@drawdown/billing-core';
import type { BillingHarness } from '@drawdown/testkit';
import { expect } from 'vitest';

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
): Promise<string> {
  const scope: Scope = { accountId: harness.accountId, environment: 'sandbox' };
  const account = await harness.services.store.accounts.findById(harness.accountId);
  if (!account) throw new Error('harness account missing');
  const offset = await harness.services.store.sandboxClocks.offsetOf(harness.accountId);
  const context: OperationContext = {
    store: harness.services.store,
    ids: harness.services.ids,
    clock: { now: () => Date.now() + offset },
    scope,
    account,
  };
  const subscription = await harness.services.store.transaction((tx) =>
    startSubscription(context, tx, {
      customerId,
      addressId: null,
      currencyCode: 'USD',
      collectionMode: 'automatic',
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

/** Waits until the drawdown worker has applied everything accepted so far. */
export async function drained(harness: BillingHarness): Promise<void> {
  for (let attempt = 0; attempt < 500; attempt += 1) {
    const pending = await harness.services.store.usageEvents.claimPending(1);
    if (pending.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('drawdowns did not drain');
}
