/**
 * @module
 * Applies accepted usage events to balances shortly after acceptance. It wakes as soon as a
 * batch of events commits in this process, and polls for events accepted by other processes.
 */
import type { UseCases } from '@drawdown/billing-core';
import type { Spans } from '../operations/spans.js';
import { createPollingWorker, type Worker } from './polling-worker.js';

export const DRAWDOWN_BATCH = 500;

export function createDrawdownWorker(
  useCases: Pick<UseCases, 'applyPendingDrawdowns'>,
  options: {
    pollMs: number;
    /**
     * Under load a batch starts at most this often: events accepted meanwhile are applied
     * together, in one transaction, for at most this much more lag (ADRs 0713, 0735; the
     * composition root picks it per engine, `drawdownBusyIntervalMs`).
     */
    busyIntervalMs: number;
    onError: (message: string, error: unknown) => void;
    spans?: Spans | undefined;
  },
): Worker {
  return createPollingWorker({
    name: 'drawdown',
    idleMs: options.pollMs,
    busyIntervalMs: options.busyIntervalMs,
    onError: options.onError,
    spans: options.spans,
    runBatch: async (batch) => {
      const applied = await useCases.applyPendingDrawdowns(DRAWDOWN_BATCH);
      batch.count('usage_events_applied', applied);
      return applied > 0;
    },
  });
}
