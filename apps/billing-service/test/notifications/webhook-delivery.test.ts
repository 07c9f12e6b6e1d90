/**
 * Webhooks end to end: a real service delivers to real receivers on loopback, and every
 * webhook is verified by the official SDK's `webhooks.unmarshal` as it arrives. Retry
 * schedules are shortened to milliseconds so outages play out in seconds; no assertion is
 * about time, only about what was sent, received and recorded.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RetrySchedule } from '@drawdown/billing-core';
import {
  composeServices,
  type RunningService,
  resolveServiceConfig,
  type ServiceConfig,
  startService,
} from '@drawdown/billing-service';
import { type BillingHarness, ENGINES, expectEvery, startBillingHarness } from '@drawdown/testkit';
import {
  AddressCreatedEvent,
  CustomerCreatedEvent,
  CustomerUpdatedEvent,
  type Paddle,
  PriceCreatedEvent,
  ProductCreatedEvent,
  ProductUpdatedEvent,
} from '@paddle/paddle-node-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_WEBHOOK_DELIVERY } from '../../src/workers/webhook-delivery/delivery-worker.js';
import { type ApiClient, apiClient, harnessClients, type WireObject } from '../support/api-client.js';
import { officialSdk } from '../support/official-sdk.js';
import {
  eventually,
  type ReceivedWebhook,
  startWebhookReceiver,
  startWebhookTestbed,
  type WebhookReceiver,
} from './webhook-receiver.js';

const fast = (maxAttempts: number): RetrySchedule => ({
  maxAttempts,
  initialDelayMs: 20,
  maxDelayMs: 150,
  minimumDelayMs: 10,
});

const FAST_DELIVERY: ServiceConfig['webhookDelivery'] = {
  // Live gives up after three attempts, so the failed-then-replayed path is quick to reach.
  schedules: { sandbox: fast(60), live: fast(3) },
  pollIntervalMs: 20,
  // Long enough that a hanging receiver is still hanging when the test looks.
  requestTimeoutMs: 60_000,
};

async function subscribe(client: ApiClient, receiver: WebhookReceiver, events: string[]): Promise<string> {
  const created = await client.post('/notification-settings', {
    description: 'test receiver',
    type: 'url',
    destination: receiver.url,
    subscribed_events: events,
  });
  expect(created.status, created.text).toBe(201);
  receiver.useSecret(String(created.entity.endpoint_secret_key));
  return created.id;
}

async function notificationsOf(client: ApiClient, settingId: string): Promise<WireObject[]> {
  return [...(await client.get(`/notifications?notification_setting_id=${settingId}&per_page=200`)).list];
}

async function logsOf(client: ApiClient, notificationId: string): Promise<WireObject[]> {
  return [...(await client.get(`/notifications/${notificationId}/logs?order_by=id[ASC]&per_page=200`)).list];
}

function requestsFor(receiver: WebhookReceiver, notificationId: unknown): ReceivedWebhook[] {
  return receiver.received.filter((webhook) => webhook.notificationId === notificationId);
}

function expectAllVerified(receiver: WebhookReceiver): void {
  for (const webhook of receiver.received) {
    expect(webhook.verificationError, webhook.rawBody).toBeUndefined();
    expect(webhook.verified).toBeDefined();
  }
}

describe.each(ENGINES)('%s: webhook delivery', (engine) => {
  let harness: BillingHarness;
  let sandbox: ApiClient;
  let live: ApiClient;
  let paddle: Paddle;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine, allowPrivateWebhooks: true, webhookDelivery: FAST_DELIVERY });
    ({ sandbox, live } = harnessClients(harness));
    paddle = officialSdk(harness.sandboxKey, harness.sandboxUrl);
  });
  afterAll(() => harness.close());

  it('delivers catalogue events that the official SDK verifies and types', async () => {
    const testbed = await startWebhookTestbed(harness, {
      events: [
        'product.created',
        'product.updated',
        'price.created',
        'customer.created',
        'customer.updated',
        'address.created',
      ],
    });
    try {
      const product = await paddle.products.create({ name: 'Signed', taxCategory: 'standard' });
      await paddle.products.update(product.id, { name: 'Signed again' });
      const price = await paddle.prices.create({
        productId: product.id,
        description: 'Monthly',
        unitPrice: { amount: '1500', currencyCode: 'USD' },
        billingCycle: { interval: 'month', frequency: 1 },
      });
      const customer = await paddle.customers.create({ email: 'webhooks@example.com', name: 'Hook' });
      await paddle.customers.update(customer.id, { name: 'Hook Two' });
      const address = await paddle.addresses.create(customer.id, { countryCode: 'DE', postalCode: '10115' });

      const created = await testbed.verifiedEvent('product.created');
      expect(created).toBeInstanceOf(ProductCreatedEvent);
      expect(created.data).toMatchObject({ id: product.id, name: 'Signed' });
      const updated = await testbed.verifiedEvent('product.updated');
      expect(updated).toBeInstanceOf(ProductUpdatedEvent);
      expect(updated.data).toMatchObject({ id: product.id, name: 'Signed again' });
      expect(await testbed.verifiedEvent('price.created')).toBeInstanceOf(PriceCreatedEvent);
      expect((await testbed.verifiedEvent('price.created')).data).toMatchObject({ id: price.id });
      expect(await testbed.verifiedEvent('customer.created')).toBeInstanceOf(CustomerCreatedEvent);
      const renamed = await testbed.verifiedEvent('customer.updated');
      expect(renamed).toBeInstanceOf(CustomerUpdatedEvent);
      expect(renamed.data).toMatchObject({ id: customer.id, name: 'Hook Two' });
      const located = await testbed.verifiedEvent('address.created');
      expect(located).toBeInstanceOf(AddressCreatedEvent);
      expect(located.data).toMatchObject({ id: address.id });
      expectAllVerified(testbed.receiver);
    } finally {
      await testbed.close();
    }
  });

  it('keeps a receiver answer holding NUL, with U+FFFD for it, and delivers once (PostgreSQL refuses NUL in text)', async () => {
    const nulServer = createServer((request, response) => {
      request.resume();
      request.on('end', () => response.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok\u0000done'));
    });
    await new Promise<void>((resolve) => nulServer.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = nulServer.address() as AddressInfo;
      const setting = await sandbox.post('/notification-settings', {
        description: 'answers with NUL',
        type: 'url',
        destination: `http://127.0.0.1:${port}/hook`,
        subscribed_events: ['product.created'],
      });
      expect(setting.status, setting.text).toBe(201);
      await paddle.products.create({ name: 'Answered with NUL', taxCategory: 'standard' });
      let delivered: WireObject | undefined;
      await eventually('the notification delivered', async () => {
        [delivered] = (await sandbox.get(`/notifications?notification_setting_id=${setting.id}&status=delivered`)).list;
        return delivered !== undefined;
      });
      const logs = (await sandbox.get(`/notifications/${delivered?.id}/logs`)).list;
      expect(logs.map((log) => [log.response_code, log.response_body])).toEqual([[200, 'ok\uFFFDdone']]);
    } finally {
      await new Promise((resolve) => nulServer.close(resolve));
    }
  });

  it('sends the event as GET /events lists it plus notification_id, with the documented headers', async () => {
    const receiver = await startWebhookReceiver();
    const settingId = await subscribe(sandbox, receiver, ['product.created']);
    try {
      const product = await sandbox.post('/products', { name: 'Envelope', tax_category: 'standard' });
      await receiver.waitFor('the product.created webhook', (received) => received.length === 1);
      const [webhook] = receiver.received;
      if (!webhook) throw new Error('no webhook');
      expect(webhook.contentType).toMatch(/^application\/json/);
      expect(webhook.userAgent).toContain('Drawdown');
      expect(webhook.signature).toMatch(/^ts=\d+;h1=[\da-f]{64}$/);
      const body = JSON.parse(webhook.rawBody) as WireObject;
      expect(Object.keys(body)).toEqual(['event_id', 'event_type', 'occurred_at', 'notification_id', 'data']);
      const listed = (await sandbox.get('/events?event_type=product.created&per_page=200')).list.find(
        (event) => event.event_id === body.event_id,
      );
      expect({ ...listed, notification_id: body.notification_id }).toEqual(body);
      expect((body.data as WireObject).id).toBe(product.id);

      await eventually('the notification to be marked delivered', async () => {
        const [notification] = await notificationsOf(sandbox, settingId);
        return notification?.status === 'delivered';
      });
      const [notification] = await notificationsOf(sandbox, settingId);
      expect(notification).toMatchObject({
        id: body.notification_id,
        type: 'product.created',
        status: 'delivered',
        origin: 'event',
        times_attempted: 1,
        retry_at: null,
        replayed_at: null,
        notification_setting_id: settingId,
        payload: body,
      });
      const viaSdk = await paddle.notifications.get(String(body.notification_id));
      expect(viaSdk.payload).toBeInstanceOf(ProductCreatedEvent);
      const logs = await logsOf(sandbox, String(body.notification_id));
      expect(logs).toEqual([
        {
          id: expect.stringMatching(/^ntflog_[a-z\d]{26}$/),
          notification_id: body.notification_id,
          response_code: 200,
          response_content_type: 'text/plain',
          response_body: 'ok',
          attempted_at: notification?.last_attempt_at,
        },
      ]);
    } finally {
      await receiver.close();
    }
  });

  it('keeps retrying while the receiver fails and then is down, and delivers every event exactly once', async () => {
    const receiver = await startWebhookReceiver({ answer: 500 });
    const settingId = await subscribe(sandbox, receiver, ['product.created', 'customer.created']);
    try {
      await sandbox.post('/products', { name: 'Outage one', tax_category: 'standard' });
      await sandbox.post('/products', { name: 'Outage two', tax_category: 'standard' });
      await sandbox.post('/customers', { email: 'outage@example.com' });
      const failedTwice = (received: readonly ReceivedWebhook[]) => {
        const ids = new Set(received.map((webhook) => webhook.notificationId));
        return ids.size === 3 && [...ids].every((id) => requestsFor(receiver, id).length >= 2);
      };
      await receiver.waitFor('two answered failures for each of three notifications', failedTwice);

      await receiver.goDown();
      const seenWhileUp = receiver.received.length;
      await eventually('two refused connections for each notification', async () => {
        const notifications = await notificationsOf(sandbox, settingId);
        return (
          notifications.length === 3 &&
          notifications.every(
            (notification) => Number(notification.times_attempted) >= requestsFor(receiver, notification.id).length + 2,
          )
        );
      });
      expect(receiver.received.length).toBe(seenWhileUp);

      receiver.answerWith(200);
      await receiver.comeBack();
      await eventually('every notification delivered', async () => {
        const notifications = await notificationsOf(sandbox, settingId);
        return notifications.length === 3 && notifications.every((notification) => notification.status === 'delivered');
      });

      const delivered = await notificationsOf(sandbox, settingId);
      expect(delivered).toHaveLength(3);
      for (const notification of delivered) {
        const logs = await logsOf(sandbox, String(notification.id));
        const codes = logs.map((log) => log.response_code);
        expect(notification.times_attempted).toBe(logs.length);
        expect(codes.at(-1)).toBe(200);
        expect(codes.filter((code) => code === 200)).toHaveLength(1);
        const firstRefused = codes.indexOf(0);
        // Two answered failures at least (the receiver was up), then two refused connections at least.
        expectEvery(codes.slice(0, firstRefused), (code) => code === 500, { atLeast: 2 });
        expectEvery(codes.slice(firstRefused, -1), (code) => code === 0, { atLeast: 2 });
        expect(logs.find((log) => log.response_code === 0)?.response_body).toMatch(/Connection refused|ECONNRESET/);
        // The receiver saw each answered attempt once, and nothing else.
        const seen = requestsFor(receiver, notification.id).map((webhook) => webhook.answer);
        expect(seen).toEqual(codes.filter((code) => code !== 0));
      }
      expectAllVerified(receiver);
    } finally {
      await receiver.close();
    }
  });

  it('fails a notification after its last attempt, and a replay delivers the event again, freshly signed', async () => {
    const receiver = await startWebhookReceiver({ answer: 503 });
    const settingId = await subscribe(live, receiver, ['product.created']);
    try {
      const product = await live.post('/products', { name: 'Doomed', tax_category: 'standard' });
      await eventually('the notification to fail', async () => {
        const [notification] = await notificationsOf(live, settingId);
        return notification?.status === 'failed';
      });
      const [failed] = await notificationsOf(live, settingId);
      expect(failed).toMatchObject({ status: 'failed', times_attempted: 3, retry_at: null, delivered_at: null });
      expect((await logsOf(live, String(failed?.id))).map((log) => log.response_code)).toEqual([503, 503, 503]);
      expect(requestsFor(receiver, failed?.id)).toHaveLength(3);

      receiver.answerWith(200);
      const replay = await live.post(`/notifications/${failed?.id}/replay`);
      expect(replay.status).toBe(202);
      const replayId = replay.entity.notification_id;
      expect(replayId).toMatch(/^ntf_[a-z\d]{26}$/);
      expect(replayId).not.toBe(failed?.id);
      await receiver.waitFor('the replayed webhook', () => requestsFor(receiver, replayId).length === 1);
      const [replayed] = requestsFor(receiver, replayId);
      expect(replayed?.verified).toBeInstanceOf(ProductCreatedEvent);
      expect(replayed?.eventId).toBe(requestsFor(receiver, failed?.id)[0]?.eventId);
      expect((replayed?.verified?.data as { id?: string } | undefined)?.id).toBe(product.id);

      await eventually('the replay to be marked delivered', async () => {
        return (await live.get(`/notifications/${replayId}`)).entity.status === 'delivered';
      });
      expect((await live.get(`/notifications/${replayId}`)).entity).toMatchObject({
        origin: 'replay',
        times_attempted: 1,
        notification_setting_id: settingId,
      });
      const original = (await live.get(`/notifications/${failed?.id}`)).entity;
      expect(original.status).toBe('failed');
      expect(original.replayed_at).toEqual(expect.any(String));

      const livePaddle = officialSdk(harness.liveKey, harness.liveUrl);
      // The SDK's delivery logs, two a page: the three failed attempts across two pages. (The SDK's
      // query type makes `after` required; the API and the SDK's own paging do not need it.)
      const sdkLogs = [];
      for await (const log of livePaddle.notifications.getLogs(String(failed?.id), { perPage: 2 } as Parameters<
        Paddle['notifications']['getLogs']
      >[1])) {
        sdkLogs.push(log);
      }
      expect(sdkLogs.map((log) => log.responseCode)).toEqual([503, 503, 503]);
      expectEvery(sdkLogs, (log) => /^ntflog_[a-z\d]{26}$/.test(log.id) && log.attemptedAt !== '');
      const again = await livePaddle.notifications.replay(String(failed?.id));
      await receiver.waitFor('the SDK replay', () => requestsFor(receiver, again.notificationId).length === 1);
      expectAllVerified(receiver);
    } finally {
      await receiver.close();
    }
  });

  it('signs with the new key as soon as the secret is rotated', async () => {
    const receiver = await startWebhookReceiver();
    const settingId = await subscribe(sandbox, receiver, ['product.created']);
    try {
      const rotated = await sandbox.post(`/notification-settings/${settingId}/rotate-secret`);
      receiver.useSecret(String(rotated.entity.endpoint_secret_key));
      await sandbox.post('/products', { name: 'Rotated', tax_category: 'standard' });
      await receiver.waitFor('the webhook', (received) => received.length === 1);
      expectAllVerified(receiver);
    } finally {
      await receiver.close();
    }
  });

  it('lets a receiver that never answers hold up no other destination', async () => {
    const hanging = await startWebhookReceiver({ answer: 'hang' });
    const healthy = await startWebhookReceiver();
    const hangingId = await subscribe(sandbox, hanging, ['product.created']);
    await subscribe(sandbox, healthy, ['product.created']);
    try {
      const products: string[] = [];
      for (let index = 0; index < 12; index += 1) {
        products.push((await sandbox.post('/products', { name: `Busy ${index}`, tax_category: 'standard' })).id);
      }
      await healthy.waitFor('all twelve webhooks at the healthy receiver', (received) => received.length === 12);
      expect(new Set(healthy.received.map((webhook) => (webhook.verified?.data as { id: string }).id))).toEqual(
        new Set(products),
      );
      // Still hanging: not one of its notifications has finished an attempt.
      const stuck = await notificationsOf(sandbox, hangingId);
      expectEvery(stuck, (notification) => notification.status === 'not_attempted', { atLeast: 12 });
      expect(stuck).toHaveLength(12);
      expect(hanging.openRequests).toBeGreaterThanOrEqual(1);
      expect(hanging.openRequests).toBeLessThanOrEqual(DEFAULT_WEBHOOK_DELIVERY.maxInFlightPerDestination);
      expectAllVerified(healthy);
    } finally {
      await hanging.close();
      await healthy.close();
      await sandbox.request('DELETE', `/notification-settings/${hangingId}`);
    }
  });
});

describe.each(ENGINES)('%s: live destinations whose name is re-pointed', (engine) => {
  let harness: BillingHarness;
  let live: ApiClient;
  // The test decides what the destination's host name resolves to.
  let answer = '93.184.216.34';

  beforeAll(async () => {
    harness = await startBillingHarness({
      engine,
      webhookDelivery: {
        ...FAST_DELIVERY,
        resolveHost: async (hostname) =>
          hostname === 'hooks.customer.test' ? [{ address: answer, family: 4 }] : Promise.reject(new Error('no DNS')),
      },
    });
    ({ live } = harnessClients(harness));
  });
  afterAll(() => harness.close());

  it('refuses at delivery a destination that now resolves to a loopback address', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const port = new URL(receiver.url).port;
      const created = await live.post('/notification-settings', {
        description: 're-pointed',
        type: 'url',
        destination: `http://hooks.customer.test:${port}/webhooks`,
        subscribed_events: ['product.created'],
      });
      expect(created.status, created.text).toBe(201);

      answer = '127.0.0.1';
      await live.post('/products', { name: 'Rebound', tax_category: 'standard' });
      await eventually('the notification to fail', async () => {
        const [notification] = await notificationsOf(live, created.id);
        return notification?.status === 'failed';
      });
      const [notification] = await notificationsOf(live, created.id);
      const logs = await logsOf(live, String(notification?.id));
      expect(logs).toHaveLength(3);
      for (const log of logs) {
        expect(log.response_code).toBe(0);
        expect(log.response_body).toBe(
          'Destination refused (notification_destination_not_allowed): hooks.customer.test resolves to a non-public address (loopback).',
        );
      }
      expect(receiver.received).toHaveLength(0);
    } finally {
      await receiver.close();
    }
  });
});

// Two service processes on one PostgreSQL database, each with its own delivery worker: every
// notification is fanned out once and every attempt reaches the receiver exactly once. Two SQLite
// services cannot share one file inside one test process (each would block the other's writer
// lock), so this is a PostgreSQL test; SQLite's claims rest on its single writer (ADR 0505).
const QUICK_DELIVERY: ServiceConfig['webhookDelivery'] = {
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
    harness = await startBillingHarness({ engine, allowPrivateWebhooks: true, webhookDelivery: QUICK_DELIVERY });
    const config = resolveServiceConfig(
      {
        'data-dir': harness.dataDir,
        'database-url': harness.databaseUrl ?? '',
        'live-port': '0',
        'sandbox-port': '0',
        'rate-limit': 'off',
        'allow-private-webhooks': true,
      },
      {},
    );
    second = await startService(await composeServices({ ...config, webhookDelivery: QUICK_DELIVERY }), {
      ...config,
      webhookDelivery: QUICK_DELIVERY,
    });
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
    expectEvery(receiver.received, (webhook) => webhook.verified !== undefined);
  });
});
