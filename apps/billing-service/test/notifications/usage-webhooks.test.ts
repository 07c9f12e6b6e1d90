/**
 * The usage engine's events reach receivers signed and verifiable by the official SDK:
 * `usage_balance.depleted` after a real drawdown, and `subscription.updated` after a sandbox
 * renewal (the event receivers use to refresh their view of the balance).
 */
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAllowancePrice,
  createCustomer,
  createUnitAndMeter,
  sandboxApi,
  sendUsage,
  subscribe,
} from '../usage/usage-fixtures.js';
import { startWebhookTestbed, type WebhookTestbed } from './webhook-receiver.js';

describe.each(ENGINES)('%s: usage webhooks verified by the official SDK', (engine) => {
  let harness: BillingHarness;
  let testbed: WebhookTestbed;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine, allowPrivateWebhooks: true });
    testbed = await startWebhookTestbed(harness, { events: ['usage_balance.depleted', 'subscription.updated'] });
  });
  afterAll(async () => {
    await testbed.close();
    await harness.close();
  });

  it('delivers usage_balance.depleted when a drawdown takes remaining to zero', async () => {
    const api = sandboxApi(harness);
    const { unitId } = await createUnitAndMeter(api, 'transcode_minute');
    const priceId = await createAllowancePrice(api, [{ unitId, amount: '3' }]);
    const customerId = await createCustomer(api);
    await subscribe(harness, customerId, [{ priceId, quantity: 1 }]);
    await sendUsage(api, { customerId, action: 'transcode_minute', quantity: '3' });

    const event = await testbed.verifiedEvent('usage_balance.depleted');
    expect(event.eventType).toBe('usage_balance.depleted');
    // Unknown to the official SDK, it arrives as a generic event with camel-cased data.
    expect(event.data).toMatchObject({
      customerId,
      usageBalanceUnitId: unitId,
      balance: { remaining: { total: '0' }, used: { total: '3' } },
    });
  });

  it('delivers subscription.updated when the sandbox clock renews a subscription', async () => {
    const api = sandboxApi(harness);
    const { unitId } = await createUnitAndMeter(api, 'upload_gigabyte');
    const priceId = await createAllowancePrice(api, [{ unitId, amount: '10' }]);
    const customerId = await createCustomer(api);
    const subscriptionId = await subscribe(harness, customerId, [{ priceId, quantity: 1 }]);
    const before = await api.data<{ current_billing_period: { ends_at: string } }>(
      'GET',
      `/subscriptions/${subscriptionId}`,
    );
    await api.data('POST', '/sandbox-clock/advance', { seconds: 32 * 86_400 });

    const event = await testbed.verifiedEvent(
      'subscription.updated',
      (webhook) =>
        webhook.rawBody.includes(subscriptionId) &&
        webhook.rawBody.includes(`"starts_at":"${before.current_billing_period.ends_at}"`),
    );
    expect(event.data).toMatchObject({ id: subscriptionId, status: 'active' });
  });
});
