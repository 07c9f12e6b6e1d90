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
  type OperationContext,
  type RetrySchedule,
  type Store,
} from '@drawdown/billing-core';
import { openStore } from '@drawdown/billing-store';
import { createTestStorage, ENGINES, fixedClock, storeConfigOf, type TestStorage } from '@drawdown/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
  const ids = createUlidIds();
  // Stands still between the test's moves: each attempt is signed exactly an hour after the last.
  const clock = fixedClock(0);
  const errors: unknown[] = [];

  beforeEach(async () => {
    storage = await createTestStorage(engine);
    clock.set(Date.now());
    store = await openStore(storeConfigOf(storage));
    receiver = await startWebhookReceiver({ answer: 500 });
    worker = createWebhookDeliveryWorker({
      useCases: createUseCases({
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
      }),
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
});
