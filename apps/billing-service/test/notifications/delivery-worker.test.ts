/**
 * The delivery worker on a hand-moved wall clock: each retry waits its turn on the schedule,
 * and every attempt is signed afresh with the time it is sent (a stale signature would fail the
 * receiver's five-second tolerance).
 */
import { createHmac } from 'node:crypto';
import {
  createAccount,
  createNotificationSetting,
  createProduct,
  createUseCases,
  DEFAULT_SANDBOX_JUMP_QUOTAS,
  DEFAULT_SIMULATION_BUDGET,
  type DeliveryClaim,
  type OperationContext,
  type RetrySchedule,
  type Store,
  type UseCases,
} from '@drawdown/billing-core';
import { openStore } from '@drawdown/billing-store';
import { createTestStorage, ENGINES, fixedClock, storeConfigOf, type TestStorage } from '@drawdown/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDeliveryRecorder } from '../../src/compose-services.js';
import { wirePresenter } from '../../src/http/presenters.js';
import { createAuthenticatedKeyCache } from '../../src/infrastructure/authenticated-key-cache.js';
import { keySecrets } from '../../src/infrastructure/key-secrets.js';
import { createUlidIds } from '../../src/infrastructure/ulid-ids.js';
import { createDocumentPool } from '../../src/rendering/document-pool.js';
import {
  createWebhookDeliveryWorker,
  DEFAULT_WEBHOOK_DELIVERY,
  type WebhookDeliveryWorker,
} from '../../src/workers/webhook-delivery/delivery-worker.js';
import { createDestinationGuard } from '../../src/workers/webhook-delivery/destination-guard.js';
import { eventually, startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

const HOUR_MS = 3_600_000;
const HOURLY: RetrySchedule = { maxAttempts: 5, initialDelayMs: HOUR_MS, maxDelayMs: HOUR_MS, minimumDelayMs: HOUR_MS };

describe.each(ENGINES)('%s: the delivery worker', (engine) => {
  let storage: TestStorage;
  let store: Store;
  let receiver: WebhookReceiver;
  let worker: WebhookDeliveryWorker;
  let useCases: UseCases;
  const ids = createUlidIds();
  // Stands still between the test's moves: each attempt is signed exactly an hour after the last.
  const clock = fixedClock(0);
  const errors: unknown[] = [];

  beforeEach(async () => {
    storage = await createTestStorage(engine);
    clock.set(Date.now());
    store = await openStore(storeConfigOf(storage));
    receiver = await startWebhookReceiver({ answer: 500 });
    useCases = createUseCases({
      store,
      ids,
      wallClock: clock,
      clockFor: async () => clock,
      secrets: keySecrets,
      authenticatedKeys: createAuthenticatedKeyCache(),
      webhookDestinations: createDestinationGuard({ allowPrivate: true }),
      pause: async () => {},
      yieldToOthers: async () => {},
      reportError: (_message, error) => errors.push(error),
      entityPresenter: wirePresenter,
      simulationBudget: DEFAULT_SIMULATION_BUDGET,
      sandboxJumpQuotas: DEFAULT_SANDBOX_JUMP_QUOTAS,
      dueStepsPerTransaction: 1,
      // Never reached: no logo is set here, and the pool starts no thread until one is.
      images: createDocumentPool({ threads: 1, queue: 1, memoryMb: 64 }).images,
    });
    worker = createWebhookDeliveryWorker({
      useCases,
      recorder: createDeliveryRecorder(useCases),
      wallClock: clock,
      // The receiver is on loopback: allowed, as `--allow-private-webhooks` does (ADR 1485).
      guard: createDestinationGuard({ allowPrivate: true }),
      options: { ...DEFAULT_WEBHOOK_DELIVERY, schedules: { live: HOURLY, sandbox: HOURLY }, pollIntervalMs: 10 },
      onError: (_message, error) => errors.push(error),
    });
  });
  afterEach(async () => {
    await worker.stop();
    await receiver.close();
    await store.close();
    await storage.dispose();
  });

  it('retries on the schedule and signs each attempt with the time it is sent', async () => {
    const account = await createAccount({ store, ids, clock, secrets: keySecrets }, { name: 'A', earlyAccess: false });
    const context: OperationContext = {
      store,
      ids,
      clock,
      account,
      scope: { accountId: account.id, environment: 'sandbox' },
    };
    const setting = await createNotificationSetting(
      { ...context, secrets: keySecrets, destinations: { check: async () => ({ allowed: true }) } },
      { description: 'hourly', type: 'url', destination: receiver.url, subscribedEvents: ['product.created'] },
    );
    await createProduct(context, { name: 'Ticking', taxCategory: 'standard' });
    worker.start();

    const start = Math.floor(clock.now() / 1_000);
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      await receiver.waitFor(`attempt ${attempt}`, (received) => received.length === attempt);
      // Time moves only once the attempt is recorded; moving it sooner would end the attempt's lease.
      await eventually(`attempt ${attempt} recorded`, async () => {
        const page = await store.notifications.list(context.scope, { filter: {}, perPage: 1, direction: 'asc' });
        return page.items[0]?.notification.timesAttempted === attempt;
      });
      clock.advance(HOUR_MS);
      worker.wake();
    }

    const [first, second, third] = receiver.received;
    expect(second?.rawBody).toBe(first?.rawBody);
    expect(third?.rawBody).toBe(first?.rawBody);
    const stamps = receiver.received.map((webhook) => {
      const [, ts, h1] = /^ts=(\d+);h1=([\da-f]{64})$/.exec(webhook.signature) ?? [];
      const expected = createHmac('sha256', setting.endpointSecretKey)
        .update(`${ts}:${webhook.rawBody}`, 'utf8')
        .digest('hex');
      expect(h1).toBe(expected);
      return Number(ts) - start;
    });
    expect(stamps).toEqual([0, 3_600, 7_200]);
    expect(errors).toEqual([]);
  });

  it('records attempts that end together once each, and one that cannot be recorded fails alone', async () => {
    const account = await createAccount({ store, ids, clock, secrets: keySecrets }, { name: 'B', earlyAccess: false });
    const context: OperationContext = {
      store,
      ids,
      clock,
      account,
      scope: { accountId: account.id, environment: 'sandbox' },
    };
    const setting = await createNotificationSetting(
      { ...context, secrets: keySecrets, destinations: { check: async () => ({ allowed: true }) } },
      { description: 'batched', type: 'url', destination: receiver.url, subscribedEvents: ['product.created'] },
    );
    for (const name of ['One', 'Two', 'Three']) await createProduct(context, { name, taxCategory: 'standard' });
    await useCases.fanOutEvents(10);
    const claims = await useCases.claimDueNotifications({
      limit: 3,
      leaseMs: HOUR_MS,
      claimToken: 'batch-claim',
      inFlight: new Map(),
      maxPerDestination: 3,
    });
    expect(claims.map((claim) => claim.setting.id)).toEqual([setting.id, setting.id, setting.id]);
    const recorder = createDeliveryRecorder(useCases);
    const finished = (startedAt: number) => ({
      outcome: { kind: 'response', statusCode: 200, contentType: 'text/plain', body: 'ok' } as const,
      schedule: HOURLY,
      times: { startedAt, endedAt: startedAt },
      random: 0.5,
    });
    // Submitted in one turn, the three share a commit; the middle one (no start time) fails it,
    // so each is recorded again on its own: the other two are written once each.
    const settled = await Promise.allSettled(
      claims.map((claim, index) => recorder.submit({ claim, ...finished(index === 1 ? Number.NaN : clock.now()) })),
    );
    expect(settled.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(settled.map((result) => (result.status === 'fulfilled' ? result.value : 'unrecorded'))).toEqual([
      true,
      'unrecorded',
      true,
    ]);
    const stored = await Promise.all(
      claims.map(async (claim) => {
        const found = await store.notifications.findById(context.scope, claim.notification.id);
        const logs = await store.notifications.listLogs(context.scope, claim.notification.id, {
          filter: {},
          perPage: 10,
          direction: 'asc',
        });
        return {
          status: found?.notification.status,
          attempts: found?.notification.timesAttempted,
          logs: logs.items.length,
        };
      }),
    );
    expect(stored).toEqual([
      { status: 'delivered', attempts: 1, logs: 1 },
      { status: 'not_attempted', attempts: 0, logs: 0 },
      { status: 'delivered', attempts: 1, logs: 1 },
    ]);
    // Recording the same claims again writes nothing: the claim was spent by the first record.
    expect(await recorder.submit({ claim: claims[0] as DeliveryClaim, ...finished(clock.now()) })).toBe(false);
    const again = await store.notifications.listLogs(context.scope, claims[0]?.notification.id ?? '', {
      filter: {},
      perPage: 10,
      direction: 'asc',
    });
    expect(again.items).toHaveLength(1);
  });
});
