/**
 * A subscription starts the way it does in practice: a transaction for recurring prices is
 * created and paid (two calls in the sandbox), and each renewal issues a transaction for the new
 * period; a declined renewal sends the subscription past due, and paying it revives it.
 */
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Api,
  balanceOf,
  createAllowancePrice,
  createCustomer,
  createUnitAndMeter,
  sandboxApi,
} from '../usage/usage-fixtures.js';

interface WireTransaction {
  id: string;
  status: string;
  origin: string;
  subscription_id: string | null;
  billing_period: { starts_at: string; ends_at: string } | null;
}

interface WireSubscription {
  id: string;
  status: string;
  current_billing_period: { starts_at: string; ends_at: string } | null;
}

async function checkout(api: Api, customerId: string, priceId: string): Promise<WireTransaction> {
  const address = await api.data<{ id: string }>('POST', `/customers/${customerId}/addresses`, { country_code: 'GB' });
  const transaction = await api.data<WireTransaction>('POST', '/transactions', {
    customer_id: customerId,
    address_id: address.id,
    items: [{ price_id: priceId, quantity: 2 }],
  });
  expect(transaction.status).toBe('ready');
  return api.data<WireTransaction>('POST', `/transactions/${transaction.id}/simulate-payment`, { outcome: 'success' });
}

async function subscriptionTransactions(api: Api, subscriptionId: string): Promise<WireTransaction[]> {
  return api.data<WireTransaction[]>('GET', `/transactions?subscription_id=${subscriptionId}&order_by=id[ASC]`);
}

describe.each(ENGINES)('%s: checkout and renewal billing', (engine) => {
  let harness: BillingHarness;
  let api: Api;
  let unitId: string;
  let priceId: string;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine });
    api = sandboxApi(harness);
    ({ unitId } = await createUnitAndMeter(api, 'render'));
    priceId = await createAllowancePrice(api, [{ unitId, amount: '50' }]);
  });
  afterAll(() => harness.close());

  it('starts an active subscription when a checkout transaction is paid, with its allowance granted', async () => {
    const customerId = await createCustomer(api);
    const completed = await checkout(api, customerId, priceId);
    expect(completed.status).toBe('completed');
    expect(completed.subscription_id).toMatch(/^sub_/);

    const subscription = await api.data<WireSubscription>('GET', `/subscriptions/${completed.subscription_id}`);
    expect(subscription.status).toBe('active');
    expect(completed.billing_period).toEqual(subscription.current_billing_period);
    expect(await balanceOf(api, customerId, unitId)).toMatchObject({
      remaining: { total: '100' },
      used: { total: '0' },
    });

    const created = await api.data<{ event_type: string; data: { id: string; status: string } }[]>(
      'GET',
      '/events?event_type=subscription.created',
    );
    expect(created.find((event) => event.data.id === subscription.id)?.data.status).toBe('active');
  });

  it('issues a paid subscription_recurring transaction for each renewal', async () => {
    const customerId = await createCustomer(api);
    const completed = await checkout(api, customerId, priceId);
    const subscriptionId = completed.subscription_id as string;
    await api.data('POST', '/sandbox-clock/advance', { seconds: 32 * 86_400 });

    const transactions = await subscriptionTransactions(api, subscriptionId);
    const renewal = transactions.find((transaction) => transaction.origin === 'subscription_recurring');
    const subscription = await api.data<WireSubscription>('GET', `/subscriptions/${subscriptionId}`);
    expect(renewal).toMatchObject({ status: 'completed', billing_period: subscription.current_billing_period });
    expect(subscription.status).toBe('active');
  });

  it('sends the subscription past due when a renewal payment is declined, and revives it when paid', async () => {
    const customerId = await createCustomer(api);
    const completed = await checkout(api, customerId, priceId);
    const subscriptionId = completed.subscription_id as string;
    await api.data('POST', '/sandbox-clock/advance', { seconds: 32 * 86_400, renewal_payments: 'failure' });

    const pastDue = await api.data<WireSubscription>('GET', `/subscriptions/${subscriptionId}`);
    expect(pastDue.status).toBe('past_due');
    // Usage is never blocked: the new period's allowance is granted even while payment is due.
    expect(await balanceOf(api, customerId, unitId)).toMatchObject({ remaining: { total: '100' } });
    const renewal = (await subscriptionTransactions(api, subscriptionId)).find(
      (transaction) => transaction.origin === 'subscription_recurring',
    );
    expect(renewal?.status).toBe('past_due');

    await api.data('POST', `/transactions/${renewal?.id}/simulate-payment`, { outcome: 'success' });
    expect((await api.data<WireSubscription>('GET', `/subscriptions/${subscriptionId}`)).status).toBe('active');
  });
});
