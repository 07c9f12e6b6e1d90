/**
 * The webhook simulator through the official SDK: simulation types, single events with the
 * example or a custom payload, scenarios with their option sets, runs, run events and replays.
 * Every delivery arrives at a real receiver on loopback and is verified there by the SDK's
 * `webhooks.unmarshal`; each run event records the exact body sent and the answer. Simulations
 * change nothing real: entities, events and balances stay as they were.
 */
import {
  type BillingHarness,
  ENGINES,
  expectEvery,
  startBillingHarness,
  startSandboxSubscription,
} from '@drawdown/testkit';
import type { Paddle } from '@paddle/paddle-node-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startWebhookReceiver, type WebhookReceiver } from '../notifications/webhook-receiver.js';
import { type ApiClient, expectError, harnessClients, type WireObject } from '../support/api-client.js';
import { createCustomer, createPrice, createProduct } from '../support/catalogue-fixtures.js';
import { officialSdk } from '../support/official-sdk.js';

describe.each(ENGINES)('webhook simulations on %s', (engine) => {
  let harness: BillingHarness;
  let sandbox: ApiClient;
  let paddle: Paddle;
  let receiver: WebhookReceiver;
  let settingId: string;

  beforeAll(async () => {
    harness = await startBillingHarness({
      engine,
      allowPrivateWebhooks: true,
      webhookDelivery: { pollIntervalMs: 20 },
    });
    sandbox = harnessClients(harness).sandbox;
    paddle = officialSdk(harness.sandboxKey, harness.sandboxUrl);
    receiver = await startWebhookReceiver();
    const setting = await paddle.notificationSettings.create({
      description: 'simulations',
      type: 'url',
      destination: receiver.url,
      subscribedEvents: ['product.created'],
      trafficSource: 'simulation',
    });
    settingId = setting.id;
    receiver.useSecret(setting.endpointSecretKey);
  });
  afterAll(async () => {
    await receiver?.close();
    await harness?.close();
  });

  async function finishedRun(simulationId: string, runId: string) {
    await eventually('the run to complete', async () => {
      const run = await paddle.simulationRuns.get(simulationId, runId, { include: ['events'] });
      return run.status === 'completed';
    });
    return paddle.simulationRuns.get(simulationId, runId, { include: ['events'] });
  }

  function expectVerified(eventIds: readonly string[]): void {
    for (const eventId of eventIds) {
      const webhook = receiver.received.find((candidate) => candidate.eventId === eventId);
      expect(webhook, eventId).toBeDefined();
      expect(webhook?.verificationError, webhook?.rawBody).toBeUndefined();
      expect(webhook?.verified?.eventId).toBe(eventId);
    }
  }

  it('lists every event type as a single-event simulation type, and the five scenarios with their events', async () => {
    const types = await paddle.simulationTypes.list();
    const single = types.find((type) => type.name === 'transaction.completed');
    expect(single).toMatchObject({ type: 'single_event', group: 'Transaction', events: ['transaction.completed'] });
    const scenarios = types.filter((type) => type.type === 'scenario').map((type) => type.name);
    expect(scenarios).toEqual([
      'subscription_creation',
      'subscription_renewal',
      'subscription_pause',
      'subscription_resume',
      'subscription_cancellation',
    ]);
    const renewal = types.find((type) => type.name === 'subscription_renewal');
    expect(renewal?.events).toEqual([
      'subscription.updated',
      'transaction.created',
      'transaction.billed',
      'transaction.updated',
      'transaction.paid',
      'transaction.updated',
      'transaction.completed',
    ]);
  });

  it('sends a single event with the example payload, signed like a real webhook, and records request and response', async () => {
    const simulation = await paddle.simulations.create({
      notificationSettingId: settingId,
      name: 'customer created',
      type: 'customer.created',
    });
    expect(simulation).toMatchObject({ status: 'active', type: 'customer.created', payload: null, lastRunAt: null });
    const started = await paddle.simulationRuns.create(simulation.id);
    expect(started.status).toBe('pending');
    const run = await finishedRun(simulation.id, started.id);
    const [event] = run.events ?? [];
    expect(event).toMatchObject({ status: 'success', eventType: 'customer.created', response: { statusCode: 200 } });
    const webhook = receiver.received.find((candidate) => candidate.rawBody === event?.request?.body);
    expect(webhook?.verificationError).toBeUndefined();
    expect(webhook?.verified?.eventType).toBe('customer.created');
    expect(JSON.parse(webhook?.rawBody ?? '{}').data).toEqual(event?.payload);
    expect((await paddle.simulations.get(simulation.id)).lastRunAt).not.toBeNull();
  });

  it('overlays a custom payload on the example, and copies a real entity named by id without changing it', async () => {
    const productId = await createProduct(sandbox, { name: 'Real product' });
    const custom = await paddle.simulations.create({
      notificationSettingId: settingId,
      name: 'custom product',
      type: 'product.updated',
      payload: { name: 'Simulated name', custom_data: { plan_tier: 1 } } as never,
    });
    const customRun = await finishedRun(custom.id, (await paddle.simulationRuns.create(custom.id)).id);
    const customBody = JSON.parse(customRun.events?.[0]?.request?.body ?? '{}');
    expect(customBody.data).toMatchObject({ name: 'Simulated name', custom_data: { plan_tier: 1 }, type: 'standard' });

    const copy = await paddle.simulations.create({
      notificationSettingId: settingId,
      name: 'real product',
      type: 'product.updated',
      payload: { id: productId, description: 'Only in the simulation' } as never,
    });
    const copyRun = await finishedRun(copy.id, (await paddle.simulationRuns.create(copy.id)).id);
    const copyBody = JSON.parse(copyRun.events?.[0]?.request?.body ?? '{}');
    expect(copyBody.data).toMatchObject({ id: productId, name: 'Real product', description: 'Only in the simulation' });
    expectVerified([customBody.event_id, copyBody.event_id]);
    const real = await paddle.products.get(productId);
    expect(real.description).toBeNull();
  });

  it('runs a renewal scenario on a real subscription with a failed payment, touching nothing real', async () => {
    const productId = await createProduct(sandbox);
    const price = await createPrice(sandbox, productId);
    const customerId = await createCustomer(sandbox);
    const subscriptionId = await startSandboxSubscription(harness, {
      customerId,
      items: [{ priceId: String(price.id), quantity: 1 }],
    });
    const eventsBefore = (await sandbox.get('/events?per_page=200')).list.length;
    const simulation = await paddle.simulations.create({
      notificationSettingId: settingId,
      name: 'failed renewal',
      type: 'subscription_renewal',
      config: {
        subscriptionRenewal: {
          entities: { subscriptionId },
          options: { paymentOutcome: 'failed', dunningExhaustedAction: 'subscription_paused' },
        },
      } as never,
    });
    const run = await finishedRun(simulation.id, (await paddle.simulationRuns.create(simulation.id)).id);
    const events = run.events ?? [];
    expect(events.map((event) => event.eventType)).toEqual([
      'subscription.updated',
      'transaction.created',
      'transaction.billed',
      'transaction.payment_failed',
      'transaction.updated',
      'transaction.past_due',
      'subscription.updated',
      'subscription.past_due',
      'transaction.updated',
      'transaction.canceled',
      'subscription.updated',
      'subscription.paused',
    ]);
    expectEvery(events, (event) => event.status === 'success', { atLeast: 6 });
    const bodies = events.map((event) => JSON.parse(event.request?.body ?? '{}'));
    expectVerified(bodies.map((body) => body.event_id));
    expect(bodies[0].data).toMatchObject({ id: subscriptionId, customer_id: customerId });
    expect(bodies.at(-1).data).toMatchObject({ id: subscriptionId, status: 'paused' });
    expect(bodies[1].data).toMatchObject({
      subscription_id: subscriptionId,
      customer_id: customerId,
      status: 'billed',
    });
    expect((await paddle.subscriptions.get(subscriptionId)).status).toBe('active');
    expect((await sandbox.get('/events?per_page=200')).list.length).toBe(eventsBefore);
  });

  it('sends the creation scenario for its option sets', async () => {
    const create = async (options: WireObject) => {
      const simulation = await paddle.simulations.create({
        notificationSettingId: settingId,
        name: 'creation',
        type: 'subscription_creation',
        config: { subscription_creation: { options } } as never,
      });
      const run = await finishedRun(simulation.id, (await paddle.simulationRuns.create(simulation.id)).id);
      expectVerified((run.events ?? []).map((event) => JSON.parse(event.request?.body ?? '{}').event_id));
      return (run.events ?? []).map((event) => event.eventType);
    };
    const fresh = await create({});
    expect(fresh.slice(0, 3)).toEqual(['transaction.created', 'customer.created', 'address.created']);
    expect(fresh).toContain('subscription.created');
    const existing = await create({ customer_simulated_as: 'existing_email_matched', business_simulated_as: 'new' });
    expect(existing).not.toContain('customer.created');
    expect(existing).toContain('business.created');
  });

  it('lists runs and run events; a replay is a new run event with the same event id and a new notification id', async () => {
    const simulation = await paddle.simulations.create({
      notificationSettingId: settingId,
      name: 'replayed',
      type: 'address.created',
    });
    const run = await finishedRun(simulation.id, (await paddle.simulationRuns.create(simulation.id)).id);
    const runs = [];
    for await (const listed of paddle.simulationRuns.list(simulation.id)) runs.push(listed.id);
    expect(runs).toEqual([run.id]);
    const listedEvents = [];
    for await (const listed of paddle.simulationRunEvents.list(simulation.id, run.id)) listedEvents.push(listed);
    expect(listedEvents.map((event) => event.id)).toEqual([run.events?.[0]?.id]);
    const first = JSON.parse(listedEvents[0]?.request?.body ?? '{}');

    receiver.answerWith(500);
    const replayed = await paddle.simulationRunEvents.replay(simulation.id, run.id, listedEvents[0]?.id ?? '');
    expect(replayed.status).toBe('pending');
    // A new run event, as the public API makes one; the replayed event keeps its delivery (issue 36).
    expect(replayed.id).toMatch(/^ntfsimevt_[a-z\d]{26}$/);
    expect(replayed.id).not.toBe(listedEvents[0]?.id);
    const original = await paddle.simulationRunEvents.get(simulation.id, run.id, listedEvents[0]?.id ?? '');
    expect(original.status).toBe(listedEvents[0]?.status);
    expect(original.request?.body).toBe(listedEvents[0]?.request?.body);
    await eventually('the replay to fail', async () => {
      const event = await paddle.simulationRunEvents.get(simulation.id, run.id, replayed.id);
      return event.status === 'failed';
    });
    receiver.answerWith(200);
    const failed = await paddle.simulationRunEvents.get(simulation.id, run.id, replayed.id);
    expect(failed.response).toMatchObject({ statusCode: 500, body: 'answered 500' });
    const second = JSON.parse(failed.request?.body ?? '{}');
    expect(second.event_id).toBe(first.event_id);
    expect(second.notification_id).not.toBe(first.notification_id);
    expectVerified([second.event_id]);
    const afterReplay = [];
    for await (const listed of paddle.simulationRunEvents.list(simulation.id, run.id)) afterReplay.push(listed.id);
    expect(afterReplay.sort()).toEqual([listedEvents[0]?.id, replayed.id].sort());
  });

  it('updates and archives a simulation; an archived one does not run', async () => {
    const simulation = await paddle.simulations.create({
      notificationSettingId: settingId,
      name: 'to archive',
      type: 'product.created',
    });
    const updated = await paddle.simulations.update(simulation.id, {
      name: 'pause scenario',
      type: 'subscription_pause',
      config: { subscriptionPause: { options: { effectiveFrom: 'next_billing_period' } } } as never,
    });
    expect(updated).toMatchObject({ name: 'pause scenario', type: 'subscription_pause', payload: null });
    expect(updated.config?.subscriptionPause?.options?.effectiveFrom).toBe('next_billing_period');
    await paddle.simulations.update(simulation.id, { status: 'archived' });
    expectError(await sandbox.post(`/simulations/${simulation.id}/runs`), 409, 'simulation_archived');
    const listed = [];
    for await (const item of paddle.simulations.list({ status: ['archived'] })) listed.push(item.id);
    expect(listed).toEqual([simulation.id]);
  });

  it('refuses bad simulations with specific codes and creates nothing', async () => {
    const countBefore = (await sandbox.get('/simulations?per_page=200')).list.length;
    const other = await harness.createAccount({ earlyAccess: true });
    const otherKey = await harness.createKey({ environment: 'sandbox', permissions: ['all'], accountId: other });
    const otherSetting = await fetch(`${harness.sandboxUrl}/notification-settings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${otherKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        description: 'other',
        type: 'url',
        destination: receiver.url,
        subscribed_events: ['product.created'],
        traffic_source: 'all',
      }),
    });
    const otherSettingId = ((await otherSetting.json()) as { data: { id: string } }).data.id;
    const platformOnly = await sandbox.post('/notification-settings', {
      description: 'platform',
      type: 'url',
      destination: receiver.url,
      subscribed_events: ['product.created'],
    });
    const base = { notification_setting_id: settingId, name: 'bad', type: 'product.created' };
    const cases: [WireObject, number, string][] = [
      [{ ...base, notification_setting_id: otherSettingId }, 400, 'simulation_destination_not_found'],
      [{ ...base, notification_setting_id: platformOnly.id }, 400, 'simulation_destination_platform_only'],
      [{ ...base, type: 'product.exploded' }, 400, 'invalid_field'],
      [{ ...base, config: { subscription_renewal: null } }, 400, 'invalid_field'],
      [{ ...base, type: 'subscription_renewal', payload: { id: 'x' } }, 400, 'invalid_field'],
      [
        {
          ...base,
          type: 'subscription_renewal',
          config: {
            subscription_renewal: {
              options: { payment_outcome: 'success', dunning_exhausted_action: 'subscription_paused' },
            },
          },
        },
        400,
        'simulation_options_conflict',
      ],
      [
        { ...base, type: 'subscription_renewal', config: { subscription_pause: { options: {} } } },
        400,
        'simulation_options_conflict',
      ],
      [
        {
          ...base,
          type: 'subscription_pause',
          config: { subscription_pause: { options: { effective_from: 'tomorrow' } } },
        },
        400,
        'invalid_field',
      ],
      [
        {
          ...base,
          type: 'subscription_renewal',
          config: { subscription_renewal: { entities: { subscription_id: 'sub_01h00000000000000000000000' } } },
        },
        400,
        'simulation_entity_not_found',
      ],
      [
        {
          ...base,
          type: 'subscription_creation',
          config: { subscription_creation: { entities: { discount_id: 'dsc_01h00000000000000000000000' } } },
        },
        400,
        'simulation_entity_not_supported',
      ],
    ];
    for (const [body, status, code] of cases) {
      expectError(await sandbox.post('/simulations', body), status, code);
    }
    expect((await sandbox.get('/simulations?per_page=200')).list.length).toBe(countBefore);
  });
});
