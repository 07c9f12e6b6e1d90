/**
 * Private destinations are the operator's choice, in live and in the sandbox alike (ADR 1485):
 * without `--allow-private-webhooks`, neither real webhooks nor simulations reach loopback,
 * private or link-local addresses, even through a name that resolved to a public address when
 * it was saved (DNS rebinding) or a destination stored before the rule, and nothing of a
 * private server's answer is read back. With the setting, delivery to loopback works, and what
 * is kept of an answer is what the public API shows: the status, the content type of a
 * notification log, and at most 4 KB of the body.
 *
 * The "private server" is a real HTTP server on loopback that answers every request with a
 * secret, as an internal admin endpoint would; the destination's host name is resolved by the
 * test (the service's `resolveHost` hook), every other name by the system.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RetrySchedule } from '@drawdown/billing-core';
import type { ServiceConfig } from '@drawdown/billing-service';
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemResolveHost } from '../../src/workers/webhook-delivery/destination-guard.js';
import { type ApiClient, harnessClients, type WireObject } from '../support/api-client.js';
import { eventually } from './webhook-receiver.js';

const SECRET = 'internal-admin-token-5f1d9c';
const REBOUND_HOST = 'hooks.customer.test';
const PUBLIC_ADDRESS = '93.184.216.34';

const THREE_QUICK: RetrySchedule = { maxAttempts: 3, initialDelayMs: 10, maxDelayMs: 50, minimumDelayMs: 5 };
const DELIVERY: ServiceConfig['webhookDelivery'] = {
  schedules: { live: THREE_QUICK, sandbox: THREE_QUICK },
  pollIntervalMs: 20,
};

interface PrivateServer {
  readonly port: number;
  readonly requests: number;
  close(): Promise<void>;
}

/** An internal service on loopback: it answers anything with a secret of `size` bytes or so. */
async function startPrivateServer(size = SECRET.length + 20): Promise<PrivateServer> {
  let requests = 0;
  const body = JSON.stringify({ token: SECRET, padding: 'x'.repeat(Math.max(0, size - SECRET.length - 24)) });
  const server: Server = createServer((request, response) => {
    requests += 1;
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json', 'x-internal-host': 'db-admin-1' });
      response.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    get requests() {
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A destination of real webhooks (`product.created`) and simulations alike. */
async function createSetting(client: ApiClient, destination: string): Promise<string> {
  const created = await client.post('/notification-settings', {
    description: 'private destination test',
    type: 'url',
    destination,
    subscribed_events: ['product.created'],
    traffic_source: 'all',
  });
  expect(created.status, created.text).toBe(201);
  return created.id;
}

async function finishedRunEvents(client: ApiClient, settingId: string): Promise<WireObject[]> {
  const simulation = await client.post('/simulations', {
    notification_setting_id: settingId,
    name: 'private destination',
    type: 'customer.created',
  });
  expect(simulation.status, simulation.text).toBe(201);
  const run = await client.post(`/simulations/${simulation.id}/runs`);
  expect(run.status, run.text).toBe(201);
  const path = `/simulations/${simulation.id}/runs/${run.id}?include=events`;
  await eventually('the run to finish', async () => (await client.get(path)).entity.status === 'completed');
  return [...((await client.get(path)).entity.events as WireObject[])];
}

async function failedNotificationLogs(client: ApiClient, settingId: string): Promise<WireObject[]> {
  await client.post('/products', { name: 'Webhook trigger', tax_category: 'standard' });
  const notifications = async () =>
    (await client.get(`/notifications?notification_setting_id=${settingId}&per_page=200`)).list;
  await eventually('the notification to fail', async () => (await notifications())[0]?.status === 'failed');
  const [notification] = await notifications();
  return [...(await client.get(`/notifications/${notification?.id}/logs?order_by=id[ASC]&per_page=200`)).list];
}

describe.each(ENGINES)('%s: private destinations refused in both environments', (engine) => {
  let harness: BillingHarness;
  let clients: Record<'live' | 'sandbox', ApiClient>;
  let server: PrivateServer;
  // What the destination's name resolves to at the moment: public when saved, then re-pointed.
  let answer: { address: string; family: 4 | 6 } = { address: PUBLIC_ADDRESS, family: 4 };

  beforeAll(async () => {
    harness = await startBillingHarness({
      engine,
      webhookDelivery: {
        ...DELIVERY,
        resolveHost: async (hostname) => (hostname === REBOUND_HOST ? [answer] : systemResolveHost(hostname)),
      },
    });
    clients = harnessClients(harness);
    server = await startPrivateServer();
  });
  afterAll(async () => {
    await server?.close();
    await harness?.close();
  });

  /** A destination saved while its name resolved to a public address, now resolving to `address`. */
  async function reboundSetting(client: ApiClient, address: string, family: 4 | 6): Promise<string> {
    answer = { address: PUBLIC_ADDRESS, family: 4 };
    const settingId = await createSetting(client, `http://${REBOUND_HOST}:${server.port}/admin`);
    answer = { address, family };
    return settingId;
  }

  for (const environment of ['sandbox', 'live'] as const) {
    it(`refuses every ${environment} webhook attempt to a name re-pointed at loopback, reading nothing back`, async () => {
      const client = clients[environment];
      const settingId = await reboundSetting(client, '127.0.0.1', 4);
      const logs = await failedNotificationLogs(client, settingId);
      expect(logs).toHaveLength(3);
      for (const log of logs) {
        expect(log).toMatchObject({ response_code: 0, response_content_type: null });
        expect(log.response_body).toBe(
          `Destination refused (notification_destination_not_allowed): ${REBOUND_HOST} resolves to a non-public address (loopback).`,
        );
      }
      expect(server.requests).toBe(0);
      await client.request('DELETE', `/notification-settings/${settingId}`);
    });
  }

  for (const [environment, address, family, kind] of [
    ['sandbox', '127.0.0.1', 4, 'loopback'],
    ['sandbox', '::1', 6, 'loopback'],
    ['sandbox', '10.0.0.8', 4, 'a private network'],
    ['sandbox', '169.254.169.254', 4, 'link-local'],
    ['live', '::ffff:127.0.0.1', 6, 'loopback'],
  ] as const) {
    it(`aborts a ${environment} simulated event whose destination now resolves to ${address}`, async () => {
      const client = clients[environment];
      const settingId = await reboundSetting(client, address, family);
      const [event, ...others] = await finishedRunEvents(client, settingId);
      expect(others).toEqual([]);
      expect(event).toMatchObject({ status: 'aborted', response: { status_code: 0 } });
      const response = event?.response as { body: string };
      expect(response.body).toMatch(
        new RegExp(
          `^Destination refused \\(notification_destination_not_allowed\\): ${REBOUND_HOST} resolves to a non-public address \\(${kind}`,
        ),
      );
      // The resolved address is not told: the resolver cannot be used to map a private network.
      expect(response.body).not.toContain(address);
      expect(JSON.stringify(event)).not.toContain(SECRET);
      expect(server.requests).toBe(0);
      await client.request('DELETE', `/notification-settings/${settingId}`);
    });
  }

  it('refuses a loopback destination stored before the rule applied to the sandbox, at every delivery', async () => {
    const client = clients.sandbox;
    const settingId = await createSetting(client, `https://${PUBLIC_ADDRESS}/hook`);
    // As an upgraded installation has it: saved when the sandbox allowed any destination.
    const scope = { accountId: harness.accountId, environment: 'sandbox' } as const;
    const stored = await harness.services.store.notificationSettings.findById(scope, settingId);
    if (!stored) throw new Error('the setting was not stored');
    await harness.services.store.notificationSettings.update(scope, {
      ...stored,
      destination: `http://127.0.0.1:${server.port}/admin`,
    });
    const [event] = await finishedRunEvents(client, settingId);
    expect(event).toMatchObject({
      status: 'aborted',
      response: {
        status_code: 0,
        body: 'Destination refused (notification_destination_not_allowed): 127.0.0.1 is loopback.',
      },
    });
    const logs = await failedNotificationLogs(client, settingId);
    expect(logs.map((log) => log.response_code)).toEqual([0, 0, 0]);
    expect(logs.map((log) => String(log.response_body).includes('127.0.0.1 is loopback'))).toEqual([true, true, true]);
    expect(server.requests).toBe(0);
  });
});

describe.each(ENGINES)('%s: private destinations allowed by the operator', (engine) => {
  let harness: BillingHarness;
  let sandbox: ApiClient;
  let server: PrivateServer;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine, allowPrivateWebhooks: true, webhookDelivery: DELIVERY });
    ({ sandbox } = harnessClients(harness));
    // Ten kilobytes of answer: more than is ever kept.
    server = await startPrivateServer(10_240);
  });
  afterAll(async () => {
    await server?.close();
    await harness?.close();
  });

  it('delivers to loopback and keeps the status, content type and the first 4 KB of the body, nothing else', async () => {
    const settingId = await createSetting(sandbox, `http://127.0.0.1:${server.port}/admin`);
    const [event] = await finishedRunEvents(sandbox, settingId);
    expect(event?.status).toBe('success');
    const response = event?.response as Record<string, unknown>;
    expect(Object.keys(response).sort()).toEqual(['body', 'status_code']);
    expect(response.status_code).toBe(200);
    expect(String(response.body)).toHaveLength(4_096);
    expect(String(response.body)).toContain(SECRET);

    await sandbox.post('/products', { name: 'Delivered', tax_category: 'standard' });
    const notifications = async () =>
      (await sandbox.get(`/notifications?notification_setting_id=${settingId}&per_page=200`)).list;
    await eventually(
      'the notification to be delivered',
      async () => (await notifications())[0]?.status === 'delivered',
    );
    const [notification] = await notifications();
    const [log, ...more] = (await sandbox.get(`/notifications/${notification?.id}/logs`)).list;
    expect(more).toEqual([]);
    // Of the answer, only the three response fields; the rest is the log's own.
    expect(Object.keys(log ?? {}).sort()).toEqual([
      'attempted_at',
      'id',
      'notification_id',
      'response_body',
      'response_code',
      'response_content_type',
    ]);
    expect(log).toMatchObject({ response_code: 200, response_content_type: 'application/json' });
    expect(String(log?.response_body)).toHaveLength(4_096);
    expect(JSON.stringify(log)).not.toContain('db-admin-1');
    expect(server.requests).toBe(2);
  });
});
