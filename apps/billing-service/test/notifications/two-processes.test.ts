/**
 * Two service processes on one PostgreSQL database, each with its own delivery worker: every
 * notification is fanned out once and every attempt reaches the receiver exactly once. Two
 * SQLite services cannot share one file inside one test process (each would block the
 * other's writer lock), so this is a PostgreSQL test; SQLite's claims rest on its single writer.
 */
import {
  composeServices,
  type RunningService,
  resolveServiceConfig,
  type ServiceConfig,
  startService,
} from '@drawdown/billing-service';
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, apiClient } from '../support/api-client.js';
import { eventually, startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

const FAST_DELIVERY: ServiceConfig['webhookDelivery'] = {
  schedules: {
    live: { maxAttempts: 10, initialDelayMs: 10, maxDelayMs: 50, minimumDelayMs: 5 },
    sandbox: { maxAttempts: 10, initialDelayMs: 10, maxDelayMs: 50, minimumDelayMs: 5 },
  },
  pollIntervalMs: 10,
};
const FAILURES_BEFORE_SUCCESS = 2;

describe.each(ENGINES.filter((engine) => engine === 'postgres'))('%s: two service processes', (engine) => {
  let harness: BillingHarness;
  let second: RunningService;
  let first: ApiClient;
  let other: ApiClient;
  let receiver: WebhookReceiver;
  const answered = new Map<string, number>();

  beforeAll(async () => {
    harness = await startBillingHarness({ engine, webhookDelivery: FAST_DELIVERY });
    const config = resolveServiceConfig(
      {
        'data-dir': harness.dataDir,
        'database-url': harness.databaseUrl ?? '',
        'live-port': '0',
        'sandbox-port': '0',
        'rate-limit': 'off',
      },
      {},
    );
    second = await startService(await composeServices(config), { ...config, webhookDelivery: FAST_DELIVERY });
    first = apiClient(harness.sandboxUrl, harness.sandboxKey);
    other = apiClient(second.sandboxUrl, harness.sandboxKey);
    // Each notification fails twice, then succeeds: three attempts, each to be seen once.
    receiver = await startWebhookReceiver({
      answer: ({ notificationId }) => {
        const count = (answered.get(notificationId) ?? 0) + 1;
        answered.set(notificationId, count);
        return count > FAILURES_BEFORE_SUCCESS ? 200 : 500;
      },
    });
  });
  afterAll(async () => {
    await receiver.close();
    await second.close();
    await harness.close();
  });

  it('delivers each notification once per attempt', async () => {
    const created = await first.post('/notification-settings', {
      description: 'shared receiver',
      type: 'url',
      destination: receiver.url,
      subscribed_events: ['product.created'],
    });
    receiver.useSecret(String(created.entity.endpoint_secret_key));
    const writes: Promise<unknown>[] = [];
    for (let index = 0; index < 15; index += 1) {
      writes.push(first.post('/products', { name: `First ${index}`, tax_category: 'standard' }));
      writes.push(other.post('/products', { name: `Second ${index}`, tax_category: 'standard' }));
    }
    await Promise.all(writes);

    const list = async () =>
      (await first.get(`/notifications?notification_setting_id=${created.id}&per_page=200`)).list;
    await eventually('all thirty notifications delivered', async () => {
      const notifications = await list();
      return notifications.length === 30 && notifications.every((notification) => notification.status === 'delivered');
    });

    const notifications = await list();
    expect(
      new Set(notifications.map((notification) => (notification.payload as { event_id: string }).event_id)).size,
    ).toBe(30);
    for (const notification of notifications) {
      const seen = receiver.received.filter((webhook) => webhook.notificationId === notification.id);
      expect(seen.map((webhook) => webhook.answer)).toEqual([500, 500, 200]);
      expect(notification.times_attempted).toBe(3);
      const logs = (await first.get(`/notifications/${notification.id}/logs?order_by=id[ASC]`)).list;
      expect(logs.map((log) => log.response_code)).toEqual([500, 500, 200]);
    }
    expect(receiver.received).toHaveLength(90);
    expect(receiver.received.every((webhook) => webhook.verified !== undefined)).toBe(true);
  });
});
