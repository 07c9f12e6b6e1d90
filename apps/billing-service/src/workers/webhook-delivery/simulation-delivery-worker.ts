/**
 * @module
 * Sends simulation runs. Each batch claims due runs with a lease and sends each run's pending
 * events in order, one at a time, through the same signing and sending code as real webhooks
 * (`sendSignedWebhook`), recording the exact body sent and the receiver's answer. A simulated
 * event is attempted once: a failure is recorded, and a replay sends it again.
 */
import type { ClaimedSimulationRun, Clock, UseCases } from '@drawdown/billing-core';
import type { Spans } from '../../operations/spans.js';
import { createPollingWorker, type Worker } from '../polling-worker.js';
import type { DestinationGuard } from './destination-guard.js';
import { type SendOptions, sendSignedWebhook } from './send-signed-webhook.js';
import { simulatedWebhookBody } from './webhook-body.js';

export interface SimulationDeliveryOptions extends SendOptions {
  readonly pollIntervalMs: number;
  /** Runs sent at once (each run's events go one after another). */
  readonly maxRunsInFlight: number;
  readonly leaseMs: number;
}

export function createSimulationDeliveryWorker(input: {
  readonly useCases: Pick<UseCases, 'claimDueSimulationRuns' | 'recordSimulatedDelivery' | 'finishSimulationRun'>;
  readonly wallClock: Clock;
  readonly guard: DestinationGuard;
  readonly options: SimulationDeliveryOptions;
  readonly onError: (message: string, error: unknown) => void;
  /** Where batches and attempts are traced (ADR 1452); nowhere when absent. */
  readonly spans?: Spans | undefined;
}): Worker {
  const { useCases, wallClock, guard, options } = input;
  const stopping = new AbortController();
  // A run may send dozens of events, each allowed the full timeout: the lease outlasts them all.
  const leaseMs = Math.max(options.leaseMs, options.requestTimeoutMs * 40);

  async function sendRun(claim: ClaimedSimulationRun): Promise<void> {
    const setting = claim.setting;
    if (setting) {
      for (const event of claim.pending) {
        if (stopping.signal.aborted) return;
        const body = simulatedWebhookBody({
          eventId: event.eventId,
          eventType: event.eventType,
          occurredAt: event.occurredAt,
          notificationId: event.notificationId,
          data: event.payload,
        });
        const outcome = await sendSignedWebhook(
          {
            destination: setting.destination,
            environment: claim.scope.environment,
            endpointSecretKey: setting.endpointSecretKey,
            body,
            signedAt: Math.floor(wallClock.now() / 1_000),
            attempt: 1,
          },
          { guard, options, stopSignal: stopping.signal, spans: input.spans },
        );
        if (stopping.signal.aborted) return;
        await useCases.recordSimulatedDelivery(
          claim.scope,
          event,
          body,
          outcome.kind === 'response'
            ? { kind: 'response', statusCode: outcome.statusCode, body: outcome.body }
            : outcome,
        );
      }
    }
    await useCases.finishSimulationRun(claim);
  }

  const poller = createPollingWorker({
    name: 'simulation delivery',
    idleMs: options.pollIntervalMs,
    onError: input.onError,
    spans: input.spans,
    runBatch: async (batch) => {
      if (stopping.signal.aborted) return false;
      const claims = await useCases.claimDueSimulationRuns({ limit: options.maxRunsInFlight, leaseMs });
      batch.count('runs_claimed', claims.length);
      const results = await Promise.allSettled(claims.map(sendRun));
      for (const result of results) {
        if (result.status === 'rejected') input.onError('sending a simulation run failed', result.reason);
      }
      return claims.length > 0;
    },
  });

  return {
    name: poller.name,
    start: () => poller.start(),
    wake: () => poller.wake(),
    async stop() {
      stopping.abort();
      await poller.stop();
    },
  };
}
