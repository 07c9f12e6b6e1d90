/**
 * The simulation budget (ADR 1486) over HTTP on both engines: runs and replays per minute,
 * events per run, and events and bytes per rolling day, each refused with 429
 * `simulation_budget_exceeded` (and `Retry-After` where waiting helps) while nothing is written
 * or sent; counted per account and environment on the wall clock, so neither another account
 * nor a moved sandbox clock refreshes it; and exact under concurrent runs.
 */
import { DEFAULT_SIMULATION_BUDGET } from '@drawdown/billing-core';
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveServiceConfig } from '../../src/config.js';
import { startWebhookReceiver, type WebhookReceiver } from '../notifications/webhook-receiver.js';
import { type ApiClient, apiClient, expectError, harnessClients } from '../support/api-client.js';

async function simulationOf(
  client: ApiClient,
  receiver: WebhookReceiver,
  body: Record<string, unknown> = { type: 'customer.created' },
): Promise<string> {
  const setting = await client.post('/notification-settings', {
    description: 'budget',
    type: 'url',
    destination: receiver.url,
    subscribed_events: ['customer.created'],
    traffic_source: 'simulation',
  });
  expect(setting.status, setting.text).toBe(201);
  const simulation = await client.post('/simulations', {
    notification_setting_id: setting.id,
    name: 'budget',
    ...body,
  });
  expect(simulation.status, simulation.text).toBe(201);
  return simulation.id;
}

async function runCount(client: ApiClient, simulationId: string): Promise<number> {
  return (await client.get(`/simulations/${simulationId}/runs?per_page=200`)).list.length;
}

/** Another account of the harness with its own sandbox key: its budget is its own. */
async function otherAccount(harness: BillingHarness): Promise<ApiClient> {
  const accountId = await harness.createAccount({ earlyAccess: true });
  return apiClient(
    harness.sandboxUrl,
    await harness.createKey({ environment: 'sandbox', permissions: ['all'], accountId }),
  );
}

describe.each(ENGINES)('%s: the shipped simulation budget', (engine) => {
  let harness: BillingHarness;
  let sandbox: ApiClient;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    harness = await startBillingHarness({
      engine,
      allowPrivateWebhooks: true,
      webhookDelivery: { pollIntervalMs: 20 },
    });
    ({ sandbox } = harnessClients(harness));
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await harness?.close();
  });

  it('refuses the eleventh run or replay within a minute, writing and sending nothing', async () => {
    const simulationId = await simulationOf(sandbox, receiver);
    const runs: string[] = [];
    for (let index = 0; index < 10; index += 1) {
      const run = await sandbox.post(`/simulations/${simulationId}/runs`);
      expect(run.status, run.text).toBe(201);
      runs.push(run.id);
    }
    const refused = await sandbox.post(`/simulations/${simulationId}/runs`);
    const error = expectError(refused, 429, 'simulation_budget_exceeded');
    expect(error.detail).toMatch(/At most 10 simulation runs and replays a minute/);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await runCount(sandbox, simulationId)).toBe(10);

    // A replay sends an event again: it is charged like a run.
    const [firstRun] = runs;
    const [event] = (await sandbox.get(`/simulations/${simulationId}/runs/${firstRun}/events`)).list;
    const replay = await sandbox.post(`/simulations/${simulationId}/runs/${firstRun}/events/${event?.id}/replay`);
    expectError(replay, 429, 'simulation_budget_exceeded');
    expect(
      (await sandbox.get(`/simulations/${simulationId}/runs/${firstRun}/events/${event?.id}`)).entity,
    ).toMatchObject({ id: event?.id });

    // The budget runs on the wall clock: moving the sandbox's clock a day on refreshes nothing.
    expect((await sandbox.post('/sandbox-clock/advance', { seconds: 86_400 })).status).toBe(200);
    expectError(await sandbox.post(`/simulations/${simulationId}/runs`), 429, 'simulation_budget_exceeded');
    expect(await runCount(sandbox, simulationId)).toBe(10);
  });

  it('charges each account its own budget, exactly, under concurrent runs', async () => {
    const other = await otherAccount(harness);
    const simulationId = await simulationOf(other, receiver);
    const answers = await Promise.all(
      Array.from({ length: 16 }, () => other.post(`/simulations/${simulationId}/runs`)),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(6);
    for (const answer of answers.filter((candidate) => candidate.status === 429)) {
      expectError(answer, 429, 'simulation_budget_exceeded');
    }
    expect(await runCount(other, simulationId)).toBe(10);
  });
});

describe.each(ENGINES)('%s: a simulation budget set by the operator', (engine) => {
  let harness: BillingHarness;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    harness = await startBillingHarness({
      engine,
      allowPrivateWebhooks: true,
      webhookDelivery: { pollIntervalMs: 20 },
      simulationBudget: 'runs-per-minute=100,events-per-run=5,events-per-day=9,bytes-per-day=200KiB',
    });
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await harness?.close();
  });

  it('refuses a run of more events than a run may send, with no Retry-After', async () => {
    const sandbox = await otherAccount(harness);
    const renewal = await simulationOf(sandbox, receiver, { type: 'subscription_renewal' });
    const refused = await sandbox.post(`/simulations/${renewal}/runs`);
    const error = expectError(refused, 429, 'simulation_budget_exceeded');
    expect(error.detail).toMatch(/would send 7 events; a simulation run may send at most 5/);
    expect(refused.headers.get('retry-after')).toBeNull();
    expect(await runCount(sandbox, renewal)).toBe(0);
  });

  it('refuses the run that would pass the events of the day', async () => {
    const sandbox = await otherAccount(harness);
    const single = await simulationOf(sandbox, receiver);
    for (let index = 0; index < 9; index += 1) {
      expect((await sandbox.post(`/simulations/${single}/runs`)).status).toBe(201);
    }
    const refused = await sandbox.post(`/simulations/${single}/runs`);
    const error = expectError(refused, 429, 'simulation_budget_exceeded');
    expect(error.detail).toMatch(/at most 9 events a day; 9 were sent in the last 24 hours and this would send 1/);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(23 * 3600 - 60);
    expect(retryAfter).toBeLessThanOrEqual(24 * 3600);
    expect(await runCount(sandbox, single)).toBe(9);
  });

  it('refuses the run that would pass the bytes of the day: a large payload is not sent over and over', async () => {
    const sandbox = await otherAccount(harness);
    const large = await simulationOf(sandbox, receiver, {
      type: 'customer.created',
      payload: { custom_data: { padding: 'x'.repeat(150 * 1024) } },
    });
    expect((await sandbox.post(`/simulations/${large}/runs`)).status).toBe(201);
    const error = expectError(await sandbox.post(`/simulations/${large}/runs`), 429, 'simulation_budget_exceeded');
    expect(error.detail).toMatch(/at most 204800 bytes of webhooks a day/);
    expect(await runCount(sandbox, large)).toBe(1);
  });
});

describe('the --simulation-budget setting', () => {
  const budgetOf = (text: string | undefined) =>
    resolveServiceConfig(text === undefined ? {} : { 'simulation-budget': text }, {}).simulationBudget;

  it('ships the default budget, spelled out in the documentation', () => {
    expect(budgetOf(undefined)).toEqual(DEFAULT_SIMULATION_BUDGET);
    expect(
      budgetOf('runs-per-minute=10,runs-per-hour=100,events-per-run=50,events-per-day=1000,bytes-per-day=10MiB'),
    ).toEqual(DEFAULT_SIMULATION_BUDGET);
  });

  it('changes the limits it names, keeps the others, and turns off with off', () => {
    expect(budgetOf('runs-per-minute=3, bytes-per-day=512KiB')).toEqual({
      ...DEFAULT_SIMULATION_BUDGET,
      runsPerMinute: 3,
      bytesPerDay: 512 * 1024,
    });
    expect(resolveServiceConfig({}, { DRAWDOWN_SIMULATION_BUDGET: 'events-per-day=5' }).simulationBudget).toEqual({
      ...DEFAULT_SIMULATION_BUDGET,
      eventsPerDay: 5,
    });
    expect(budgetOf('off')).toBeNull();
  });

  it('refuses unknown limits, zero, units on counts and malformed text', () => {
    for (const text of ['runs-per-day=5', 'runs-per-minute=0', 'events-per-run=5MiB', 'runs-per-minute', 'x', '']) {
      expect(() => budgetOf(text), text).toThrow(/--simulation-budget/);
    }
  });
});
