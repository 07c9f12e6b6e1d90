/**
 * Notification destinations and event types over HTTP, through the official SDK where it has
 * the operation: the reference's fields and secret format, rotation, deletion, refusals with
 * their codes, and the server-side request forgery rule of destinations in both environments
 * (ADR 1485; delivery-time refusals are in `private-destinations.test.ts`).
 */
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import type { Paddle } from '@paddle/paddle-node-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, apiClient, expectError, expectInvalidField, harnessClients } from '../support/api-client.js';
import { officialSdk } from '../support/official-sdk.js';

const SECRET_FORMAT = /^pdl_ntfset_([a-z\d]{26})_[A-Za-z\d]{32}$/;

const setting = (overrides: Record<string, unknown> = {}) => ({
  description: 'Orders backend',
  type: 'url',
  destination: 'https://hooks.example.com/paddle',
  subscribed_events: ['product.created', 'customer.updated'],
  ...overrides,
});

describe.each(ENGINES)('%s: notification settings', (engine) => {
  let harness: BillingHarness;
  let paddle: Paddle;
  let sandbox: ApiClient;
  let live: ApiClient;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine });
    paddle = officialSdk(harness.sandboxKey, harness.sandboxUrl);
    ({ sandbox, live } = harnessClients(harness));
  });
  afterAll(() => harness.close());

  it('creates a url destination and shows its endpoint secret key on create and on get', async () => {
    const created = await paddle.notificationSettings.create({
      description: 'Orders backend',
      type: 'url',
      destination: 'https://hooks.example.com/webhooks',
      subscribedEvents: ['product.created', 'usage_balance.depleted' as never],
    });
    expect(created.id).toMatch(/^ntfset_[a-z\d]{26}$/);
    expect(created).toMatchObject({
      type: 'url',
      active: true,
      apiVersion: 1,
      includeSensitiveFields: false,
      trafficSource: 'platform',
    });
    expect(created.subscribedEvents).toEqual([
      {
        name: 'product.created',
        description: 'Occurs when a product is created.',
        group: 'Product',
        availableVersions: [1],
      },
      expect.objectContaining({ name: 'usage_balance.depleted', group: 'Usage balance', availableVersions: [1] }),
    ]);
    expect(SECRET_FORMAT.exec(created.endpointSecretKey)?.[1]).toBe(created.id.slice('ntfset_'.length));

    const fetched = await paddle.notificationSettings.get(created.id);
    expect(fetched.endpointSecretKey).toBe(created.endpointSecretKey);
    const listed = await paddle.notificationSettings.list();
    expect(listed.map((item) => item.id)).toContain(created.id);
  });

  it('updates a destination, replacing its subscribed events', async () => {
    const created = await sandbox.post('/notification-settings', setting());
    const updated = await paddle.notificationSettings.update(created.id, {
      description: 'Renamed',
      active: false,
      subscribedEvents: ['price.updated'],
      trafficSource: 'all',
    });
    expect(updated).toMatchObject({ description: 'Renamed', active: false, trafficSource: 'all' });
    expect(updated.subscribedEvents.map((event) => event.name)).toEqual(['price.updated']);
    const inactive = await sandbox.get('/notification-settings?active=false');
    expect(inactive.list.map((item) => item.id)).toContain(created.id);
    const active = await sandbox.get('/notification-settings?active=true');
    expect(active.list.map((item) => item.id)).not.toContain(created.id);
  });

  it('rotates the endpoint secret key, keeping the id part', async () => {
    const created = await sandbox.post('/notification-settings', setting());
    const rotated = await sandbox.post(`/notification-settings/${created.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const before = String(created.entity.endpoint_secret_key);
    const after = String(rotated.entity.endpoint_secret_key);
    expect(after).toMatch(SECRET_FORMAT);
    expect(after).not.toBe(before);
    expect(after.slice(0, 'pdl_ntfset_'.length + 26)).toBe(before.slice(0, 'pdl_ntfset_'.length + 26));
    expect((await sandbox.get(`/notification-settings/${created.id}`)).entity.endpoint_secret_key).toBe(after);
  });

  it('deletes a destination with 204 and no body', async () => {
    const created = await sandbox.post('/notification-settings', setting());
    const deleted = await sandbox.request('DELETE', `/notification-settings/${created.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expectError(await sandbox.get(`/notification-settings/${created.id}`), 404, 'not_found');
    expectError(await sandbox.request('DELETE', `/notification-settings/${created.id}`), 404, 'not_found');
    const other = await sandbox.post('/notification-settings', setting());
    await expect(paddle.notificationSettings.delete(other.id)).resolves.toBeUndefined();
  });

  it('lists the event types, the usage-based ones only for early-access accounts', async () => {
    const types = await paddle.eventTypes.list();
    const names = types.map((type) => type.name as string);
    expect(names).toEqual(
      expect.arrayContaining(['product.created', 'subscription.updated', 'usage_balance.depleted']),
    );
    expect(names).toEqual(expect.arrayContaining(['meter.created', 'meter.updated', 'transaction.completed']));
    const raw = await sandbox.get('/event-types');
    expect(raw.body.meta?.pagination).toBeUndefined();
    expect(raw.list[0]).toEqual({
      name: expect.any(String),
      description: expect.any(String),
      group: expect.any(String),
      available_versions: [1],
    });

    const other = await harness.createAccount({ earlyAccess: false });
    const otherKey = await harness.createKey({ environment: 'sandbox', permissions: ['all'], accountId: other });
    const client = apiClient(harness.sandboxUrl, otherKey);
    const otherNames = (await client.get('/event-types')).list.map((type) => type.name);
    expect(otherNames).toContain('subscription.updated');
    for (const name of ['usage_balance.depleted', 'meter.created', 'meter.updated', 'usage_balance_unit.created']) {
      expect(otherNames).not.toContain(name);
    }
    const refused = await client.post('/notification-settings', setting({ subscribed_events: ['meter.created'] }));
    expectInvalidField(refused, 'subscribed_events[0]');
    expect(refused.body.error?.errors?.[0]?.message).toMatch(/early access/);
  });

  it('refuses email destinations, unknown event types and bad fields, creating nothing', async () => {
    const before = (await sandbox.get('/notification-settings')).list.length;
    expectError(
      await sandbox.post('/notification-settings', setting({ type: 'email', destination: 'ops@example.com' })),
      400,
      'notification_destination_type_unsupported',
    );
    const unknown = await sandbox.post(
      '/notification-settings',
      setting({ subscribed_events: ['product.created', 'product.exploded'] }),
    );
    expectInvalidField(unknown, 'subscribed_events[1]');
    expectInvalidField(
      await sandbox.post('/notification-settings', setting({ subscribed_events: [] })),
      'subscribed_events',
    );
    expectInvalidField(
      await sandbox.post('/notification-settings', setting({ destination: 'ftp://x.example' })),
      'destination',
    );
    expectInvalidField(
      await sandbox.post('/notification-settings', setting({ destination: 'not a url' })),
      'destination',
    );
    expectInvalidField(
      await sandbox.post('/notification-settings', setting({ destination: 'https://user:pw@hooks.example.com/' })),
      'destination',
    );
    expectInvalidField(await sandbox.post('/notification-settings', setting({ api_version: 2 })), 'api_version');
    expectInvalidField(
      await sandbox.post('/notification-settings', setting({ traffic_source: 'bots' })),
      'traffic_source',
    );
    expectInvalidField(await sandbox.post('/notification-settings', setting({ secret: 'mine' })), 'secret');
    const created = await sandbox.post('/notification-settings', setting());
    expectInvalidField(await sandbox.patch(`/notification-settings/${created.id}`, { type: 'email' }), 'type');
    expectError(await sandbox.get('/notification-settings/ntfset_nope'), 400, 'bad_request');
    expect((await sandbox.get('/notification-settings')).list.length).toBe(before + 1);
  });

  it('refuses loopback, private and link-local destinations in live and in the sandbox alike, creating nothing', async () => {
    const refused = [
      'http://127.0.0.1:8080/hook',
      'http://localhost:8080/hook',
      'http://[::1]:8080/hook',
      'http://10.0.0.7/hook',
      'http://192.168.1.20/hook',
      'http://172.20.0.5/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://[fe80::1]/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://[::ffff:a00:7]/hook',
      'http://[64:ff9b::7f00:1]/hook',
      'http://[fd00::1]/hook',
      'http://0.0.0.0/hook',
      'http://0x7f000001/hook',
      'http://2130706433/hook',
      'http://127.1/hook',
    ];
    for (const client of [live, sandbox]) {
      const before = (await client.get('/notification-settings')).list.length;
      for (const destination of refused) {
        const error = expectError(
          await client.post('/notification-settings', setting({ destination })),
          400,
          'notification_destination_not_allowed',
        );
        expect(error.detail, destination).toMatch(/refused unless the operator allows them/);
      }
      expect((await client.get('/notification-settings')).list.length).toBe(before);
      const allowed = await client.post(
        '/notification-settings',
        setting({ destination: 'https://93.184.216.34/hook' }),
      );
      expect(allowed.status).toBe(201);
      for (const destination of ['http://localhost/hook', 'http://[::1]/hook', 'http://10.1.2.3/hook']) {
        expectError(
          await client.patch(`/notification-settings/${allowed.id}`, { destination }),
          400,
          'notification_destination_not_allowed',
        );
      }
      expect((await client.get(`/notification-settings/${allowed.id}`)).entity.destination).toBe(
        'https://93.184.216.34/hook',
      );
    }
  });

  it('names the kind of address a name resolves to, never the address itself', async () => {
    const error = expectError(
      await sandbox.post('/notification-settings', setting({ destination: 'http://localhost:9/hook' })),
      400,
      'notification_destination_not_allowed',
    );
    expect(error.detail).toMatch(/localhost resolves to a non-public address \(loopback\)/);
    expect(error.detail).not.toMatch(/127\.0\.0\.1|::1/);
  });
});

describe.each(ENGINES)('%s: notification settings with private destinations allowed', (engine) => {
  let harness: BillingHarness;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine, allowPrivateWebhooks: true });
  });
  afterAll(() => harness.close());

  it('saves loopback and private destinations in both environments', async () => {
    const { sandbox, live } = harnessClients(harness);
    for (const client of [live, sandbox]) {
      for (const destination of ['http://127.0.0.1:9/hook', 'http://localhost:9/hook', 'http://10.0.0.7/hook']) {
        expect((await client.post('/notification-settings', setting({ destination }))).status).toBe(201);
      }
    }
  });
});
