/**
 * @module
 * The webhook delivery worker. Each batch fans new outbox events out into notifications, then
 * claims due notifications up to the free attempt slots and starts their attempts without
 * waiting for them: at most `maxInFlight` attempts run at once, at most
 * `maxInFlightPerDestination` per destination, and each is cut off after `requestTimeoutMs`,
 * so a receiver that hangs holds its share of the slots for five seconds and no more
 * (ADR 0505). A finished attempt wakes the loop to fill its slot. Finished attempts are recorded
 * through the `DeliveryRecorder` the composition root hands in (ADR 0925).
 */
import { randomUUID } from 'node:crypto';
import {
  type Clock,
  DEFAULT_RETRY_SCHEDULES,
  type DeliveryClaim,
  type DeliveryOutcome,
  type Environment,
  type FinishedAttempt,
  type RetrySchedule,
  type UseCases,
} from '@drawdown/billing-core';
import type { Spans } from '../../operations/spans.js';
import { type BatchRecord, createPollingWorker } from '../polling-worker.js';
import type { DestinationGuard, ResolveHost } from './destination-guard.js';
import { sendSignedWebhook } from './send-signed-webhook.js';
import { webhookBody } from './webhook-body.js';

export interface WebhookDeliveryOptions {
  /** The retry schedule of each environment. */
  readonly schedules: Readonly<Record<Environment, RetrySchedule>>;
  /** A receiver must answer within this time; the reference gives receivers 5 seconds. */
  readonly requestTimeoutMs: number;
  readonly maxInFlight: number;
  readonly maxInFlightPerDestination: number;
  /** How long the worker sleeps when it finds no work and nothing wakes it. */
  readonly pollIntervalMs: number;
  readonly fanOutBatchSize: number;
  /** How much of a receiver's answer the log keeps. */
  readonly maxResponseBytes: number;
  /**
   * How long a claim holds a notification. A process that dies mid-attempt leaves the
   * notification claimed; it becomes due again when the lease runs out.
   */
  readonly leaseMs: number;
  readonly userAgent: string;
  /** Replaces DNS resolution of destinations (tests). */
  readonly resolveHost?: ResolveHost | undefined;
}

export const DEFAULT_WEBHOOK_DELIVERY: WebhookDeliveryOptions = {
  schedules: DEFAULT_RETRY_SCHEDULES,
  requestTimeoutMs: 5_000,
  maxInFlight: 16,
  maxInFlightPerDestination: 4,
  pollIntervalMs: 200,
  fanOutBatchSize: 200,
  maxResponseBytes: 4_096,
  leaseMs: 60_000,
  userAgent: 'Drawdown-Webhooks/1.0 (+https://drawdown.dev/docs/webhooks)',
};

export interface WebhookDeliveryWorker {
  start(): void;
  /** Stops claiming, cuts in-flight attempts short and waits until each is recorded. */
  stop(): Promise<void>;
  /** New events were written: run a batch now rather than at the end of the idle sleep. */
  wake(): void;
}

/**
 * Where the worker records finished attempts (`recordDeliveryAttempts` behind it). Attempts that
 * end together may share one commit; each promise settles once its attempt is committed: true
 * when written, false when the claim was lost (the destination was deleted, or the lease ran out
 * and another worker holds the notification), rejected when it could not be recorded.
 */
export interface DeliveryRecorder {
  submit(attempt: FinishedAttempt): Promise<boolean>;
}

export interface WebhookDeliveryWorkerInput {
  readonly useCases: Pick<UseCases, 'fanOutEvents' | 'claimDueNotifications'>;
  /** The composition root's group-committing recorder (ADR 0925). */
  readonly recorder: DeliveryRecorder;
  /** Times attempts and signatures. */
  readonly wallClock: Clock;
  readonly guard: DestinationGuard;
  readonly options: WebhookDeliveryOptions;
  readonly onError: (message: string, error: unknown) => void;
  /** Hears how each attempt ended: `delivered` (2xx), `rejected` (another status) or `failed` (no response). */
  readonly onAttempt?: ((outcome: 'delivered' | 'rejected' | 'failed') => void) | undefined;
  /** The billing portal's address per environment, for subscriptions' `management_urls` (ADR 1440). */
  readonly portalUrlFor?: ((environment: Environment) => string) | undefined;
  /** Where batches and attempts are traced (ADR 1452); nowhere when absent. */
  readonly spans?: Spans | undefined;
}

function outcomeLabel(outcome: DeliveryOutcome): 'delivered' | 'rejected' | 'failed' {
  if (outcome.kind !== 'response') return 'failed';
  return outcome.statusCode >= 200 && outcome.statusCode < 300 ? 'delivered' : 'rejected';
}

export function createWebhookDeliveryWorker(input: WebhookDeliveryWorkerInput): WebhookDeliveryWorker {
  const { useCases, wallClock, guard, options } = input;
  const inFlight = new Map<string, Promise<void>>();
  const perDestination = new Map<string, number>();
  const stopping = new AbortController();
  // The lease must outlast an attempt and its recording, or two workers could hold one attempt.
  const leaseMs = Math.max(options.leaseMs, options.requestTimeoutMs * 2 + 10_000);

  function attempt(claim: DeliveryClaim): Promise<DeliveryOutcome> {
    return sendSignedWebhook(
      {
        destination: claim.setting.destination,
        environment: claim.scope.environment,
        endpointSecretKey: claim.setting.endpointSecretKey,
        body: webhookBody(claim.event, claim.notification.id, input.portalUrlFor?.(claim.scope.environment)),
        signedAt: Math.floor(wallClock.now() / 1_000),
        attempt: claim.notification.timesAttempted + 1,
      },
      { guard, options, stopSignal: stopping.signal, spans: input.spans },
    );
  }

  async function deliver(claim: DeliveryClaim): Promise<void> {
    const startedAt = wallClock.now();
    const outcome = await attempt(claim);
    const endedAt = wallClock.now();
    input.onAttempt?.(outcomeLabel(outcome));
    try {
      // False when the destination was deleted meanwhile, or (with a stalled process) the lease
      // ran out and another worker holds the notification: its state wins, so nothing is written.
      await input.recorder.submit({
        claim,
        outcome,
        schedule: options.schedules[claim.scope.environment],
        times: { startedAt, endedAt },
        random: Math.random(),
      });
    } catch (error) {
      // Unrecorded, the notification stays claimed until its lease runs out, then is retried.
      input.onError(`recording the attempt for notification ${claim.notification.id} failed`, error);
    }
  }

  function launch(claim: DeliveryClaim): void {
    const settingId = claim.setting.id;
    perDestination.set(settingId, (perDestination.get(settingId) ?? 0) + 1);
    const running = deliver(claim).finally(() => {
      inFlight.delete(claim.notification.id);
      const remaining = (perDestination.get(settingId) ?? 1) - 1;
      if (remaining > 0) perDestination.set(settingId, remaining);
      else perDestination.delete(settingId);
      if (!stopping.signal.aborted) poller.wake();
    });
    inFlight.set(claim.notification.id, running);
  }

  async function runBatch(batch: BatchRecord): Promise<boolean> {
    const fannedOut = await useCases.fanOutEvents(options.fanOutBatchSize);
    batch.count('events_fanned_out', fannedOut);
    const free = options.maxInFlight - inFlight.size;
    let claimed = 0;
    if (free > 0 && !stopping.signal.aborted) {
      const claims = await useCases.claimDueNotifications({
        limit: free,
        leaseMs,
        claimToken: randomUUID(),
        inFlight: perDestination,
        maxPerDestination: options.maxInFlightPerDestination,
      });
      for (const claim of claims) launch(claim);
      claimed = claims.length;
      batch.count('notifications_claimed', claimed);
    }
    return fannedOut >= options.fanOutBatchSize || (free > 0 && claimed === free);
  }

  const poller = createPollingWorker({
    name: 'webhook delivery',
    runBatch,
    idleMs: options.pollIntervalMs,
    onError: input.onError,
    spans: input.spans,
  });

  return {
    start: () => poller.start(),
    wake: () => poller.wake(),
    async stop() {
      await poller.stop();
      stopping.abort();
      await Promise.allSettled([...inFlight.values()]);
    },
  };
}
