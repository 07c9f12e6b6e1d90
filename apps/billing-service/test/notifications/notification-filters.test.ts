/**
 * The notification list's `search`, `filter`, `from` and `to` (ADR 1101) through the official
 * SDK, on both engines: each narrows the list as documented, and malformed values are refused.
 */
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import type { Paddle } from '@paddle/paddle-node-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, harnessClients } from '../support/api-client.js';
import { officialSdk } from '../support/official-sdk.js';
import { eventually, startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

describe.each(ENGINES)('%s: notification list filters', (engine) => {
  let harness: BillingHarness;
  let paddle: Paddle;
  let sandbox: ApiClient;
  let receiver: WebhookReceiver;
  let settingId: string;
  let customerId: string;
  let productId: string;
  let between: string;

  beforeAll(async () => {
    harness = await startBillingHarness({
      engine,
      allowPrivateWebhooks: true,
      webhookDelivery: { pollIntervalMs: 20 },
    });
    ({ sandbox } = harnessClients(harness));
    paddle = officialSdk(harness.sandboxKey, harness.sandboxUrl);
    receiver = await startWebhookReceiver();
    const setting = await sandbox.post('/notification-settings', {
      description: 'filters',
      type: 'url',
      destination: receiver.url,
      subscribed_events: ['customer.created', 'product.created'],
    });
    expect(setting.status, setting.text).toBe(201);
    settingId = setting.id;
    customerId = (await paddle.customers.create({ email: 'filters@example.com' })).id;
    await eventually('the customer notification', async () => (await listIds({})).length === 1);
    between = new Date(Date.now() + 1).toISOString();
    await sandbox.post('/sandbox-clock/advance', { seconds: 60 });
    productId = (await paddle.products.create({ name: 'Filtered', taxCategory: 'standard' })).id;
    await eventually('both notifications', async () => (await listIds({})).length === 2);
  });
  afterAll(async () => {
    await harness.close();
    await receiver.close();
  });

  async function listIds(query: Record<string, string>): Promise<string[]> {
    const params = new URLSearchParams({ notification_setting_id: settingId, ...query });
    const response = await sandbox.get(`/notifications?${params.toString()}`);
    expect(response.status, response.text).toBe(200);
    return response.list.map((notification) => String(notification.type));
  }

  it('filters by an id the event names, by search text, and by when the event occurred', async () => {
    expect(await listIds({ filter: customerId })).toEqual(['customer.created']);
    expect(await listIds({ filter: productId })).toEqual(['product.created']);
    expect(await listIds({ search: 'product.' })).toEqual(['product.created']);
    expect(await listIds({ to: between })).toEqual(['customer.created']);
    expect(await listIds({ from: between })).toEqual(['product.created']);

    const viaSdk: string[] = [];
    for await (const notification of paddle.notifications.list({
      notificationSettingId: [settingId],
      filter: customerId,
    })) {
      viaSdk.push(notification.type);
    }
    expect(viaSdk).toEqual(['customer.created']);
  });

  it("names each event's notification in GET /events (notification_id), null where none was made", async () => {
    const notifications = (await sandbox.get(`/notifications?notification_setting_id=${settingId}`)).list;
    const byEvent = new Map(
      notifications.map((notification) => [
        String((notification.payload as { event_id?: string }).event_id),
        notification.id,
      ]),
    );
    expect(byEvent.size).toBe(2);
    const sdkEvents = await paddle.events.list({ perPage: 200 }).next();
    const created = sdkEvents.filter((event) => byEvent.has(event.eventId));
    expect(created.map((event) => event.eventType).sort()).toEqual(['customer.created', 'product.created']);
    for (const event of created) expect(event.notificationId, event.eventType).toBe(byEvent.get(event.eventId));
    // No destination subscribes to price.created: its event has no notification.
    const price = await paddle.prices.create({
      productId,
      description: 'Unsubscribed',
      unitPrice: { amount: '100', currencyCode: 'USD' },
    });
    const events = (await sandbox.get('/events?event_type=price.created')).list;
    const priceEvent = events.find((event) => (event.data as { id?: string }).id === price.id);
    expect(priceEvent).toHaveProperty('notification_id', null);
  });

  it('refuses a malformed filter, search or time with invalid_field', async () => {
    for (const query of ['filter=nothing', 'search=', 'from=yesterday', 'to=2026-02-30T00:00:00Z']) {
      const response = await sandbox.get(`/notifications?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.body.error?.code, query).toBe('invalid_field');
    }
  });
});
