/**
 * The SDK against a real service, on both engines: event types, notification settings (with
 * secret rotation), webhooks delivered to a local receiver and verified with this SDK, and
 * notifications with their logs and replay.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Drawdown, type DrawdownEvent, unmarshalWebhook } from '@drawdown/sdk';
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

interface Received {
  readonly body: string;
  readonly signature: string | undefined;
}

async function startReceiver(): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const signature = request.headers['paddle-signature'];
      received.push({
        body: Buffer.concat(chunks).toString('utf8'),
        signature: Array.isArray(signature) ? signature[0] : signature,
      });
      response.writeHead(200);
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function eventually<T>(read: () => Promise<T | undefined>): Promise<T> {
  for (let attempt = 0; attempt < 500; attempt += 1) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('The condition never held.');
}

describe.each(ENGINES)('%s: event types, notification settings and notifications', (engine) => {
  let harness: BillingHarness;
  let drawdown: Drawdown;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine, allowPrivateWebhooks: true });
    drawdown = new Drawdown(harness.sandboxKey, { baseUrl: harness.sandboxUrl });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await harness.close();
  });

  it('lists event types, the usage ones included for an early-access account', async () => {
    const types = await drawdown.eventTypes.list();
    const names = types.map((type) => type.name);
    expect(names).toEqual(expect.arrayContaining(['usage_balance.depleted', 'meter.created', 'subscription.updated']));
    expect(types[0]).toEqual({
      name: expect.any(String),
      description: expect.any(String),
      group: expect.any(String),
      availableVersions: expect.any(Array),
    });
  });

  it('creates, lists, updates, rotates and deletes a notification setting', async () => {
    const setting = await drawdown.notificationSettings.create({
      description: 'Audit',
      destination: `${receiver.url}?audit`,
      type: 'url',
      subscribedEvents: ['product.created'],
    });
    expect(setting.endpointSecretKey).toMatch(/^pdl_ntfset_/);
    expect(setting.subscribedEvents.map((event) => event.name)).toEqual(['product.created']);
    const listed: string[] = [];
    for await (const item of drawdown.notificationSettings.list()) listed.push(item.id);
    expect(listed).toContain(setting.id);
    expect((await drawdown.notificationSettings.update(setting.id, { active: false })).active).toBe(false);
    const rotated = await drawdown.notificationSettings.rotateSecret(setting.id);
    expect(rotated.endpointSecretKey).not.toBe(setting.endpointSecretKey);
    await drawdown.notificationSettings.delete(setting.id);
    await expect(drawdown.notificationSettings.get(setting.id)).rejects.toMatchObject({ status: 404 });
  });

  it('delivers signed webhooks that this SDK verifies and types; notifications list, log and replay', async () => {
    const setting = await drawdown.notificationSettings.create({
      description: 'Meters',
      destination: receiver.url,
      type: 'url',
      subscribedEvents: ['meter.created'],
    });
    const unit = await drawdown.usageBalanceUnits.create({ name: 'Hooked', unitName: 'hooks' });
    const meter = await drawdown.meters.create({
      usageBalanceUnitId: unit.id,
      name: 'Hooked meter',
      action: 'hooked_call',
      unitName: 'hook',
      rate: '1',
    });
    const delivered = await eventually(async () => receiver.received.find((item) => item.body.includes(meter.id)));
    const event: DrawdownEvent = await unmarshalWebhook(
      delivered.body,
      setting.endpointSecretKey,
      delivered.signature,
      {
        toleranceSeconds: 60,
      },
    );
    expect(event.known && event.eventType === 'meter.created' && event.data.id).toBe(meter.id);
    expect(event.notificationId).toMatch(/^ntf_/);

    const notification = await eventually(async () => {
      const page = await drawdown.notifications.list({ notificationSettingId: [setting.id] }).next();
      return page.find((item) => item.status === 'delivered');
    });
    expect(notification.payload.eventId).toBe(event.eventId);
    expect((await drawdown.notifications.get(notification.id)).id).toBe(notification.id);
    const logs = await drawdown.notifications.listLogs(notification.id).next();
    expect(logs[0]?.responseCode).toBe(200);
    const replay = await drawdown.notifications.replay(notification.id);
    expect(replay.notificationId).toMatch(/^ntf_/);
    await eventually(async () => {
      const count = receiver.received.filter((item) => item.body.includes(meter.id)).length;
      return count >= 2 ? count : undefined;
    });
  });
});
