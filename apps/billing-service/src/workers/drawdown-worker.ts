/**
 * @module
 * Applies accepted usage events to balances shortly after acceptance. It wakes as soon as a
 * batch of events commits in this process, and polls for events accepted by other processes.
 */
import type { UseCases } from '@drawdown/billing-core';
import type { Spans } from '../operations/spans.js';
import { createPollingWorker, type Worker } from './polling-worker.js';

export const DRAWDOWN_BATCH = 500;
/**
 * Under load a drawdown batch starts at most every 25 ms: events accepted meanwhile are applied
 * together, in one transaction (one commit and sync on SQLite, a few statements on PostgreSQL)
 * instead of one per ingest commit, for at most 25 ms more lag (ADRs 0713, 0735).
 */
export const DRAWDOWN_BUSY_INTERVAL_MS = 25;

export function createDrawdownWorker(
  useCases: Pick<UseCases, 'applyPendingDrawdowns'>,
  options: { pollMs: number; onError: (message: string, error: unknown) => void; spans?: Spans | undefined },
): Worker {
  return createPollingWorker({
    name: 'drawdown',
    idleMs: options.pollMs,
    busyIntervalMs: DRAWDOWN_BUSY_INTERVAL_MS,
    onError: options.onError,
    spans: options.spans,
    runBatch: async (batch) => {
      const applied = await useCases.applyPendingDrawdowns(DRAWDOWN_BATCH);
      batch.count('usage_events_applied', applied);
      return applied > 0;
    },
  });
}
