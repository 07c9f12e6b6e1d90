/**
 * @module
 * Applies accepted usage events to balances shortly after acceptance. It wakes as soon as a
 * batch of events commits in this process, and polls for events accepted by other processes.
 */
import { applyPendingDrawdowns, type Clock, type IdGenerator, type Store } from '@drawdown/billing-core';
import { createPollingWorker, type Worker } from './polling-worker.js';

export const DRAWDOWN_BATCH = 500;
/**
 * Under load a drawdown batch starts at most every 10 ms: events accepted meanwhile are applied
 * together, in one transaction (one fsync on SQLite, a few statements on PostgreSQL) instead of
 * one per ingest commit, for at most 10 ms more lag (ADR 0713).
 */
export const DRAWDOWN_BUSY_INTERVAL_MS = 10;

export function createDrawdownWorker(
  dependencies: { store: Store; ids: IdGenerator; clock: Clock },
  options: { pollMs: number; onError: (message: string, error: unknown) => void },
): Worker {
  const worker = createPollingWorker({
    name: 'drawdown',
    idleMs: options.pollMs,
    busyIntervalMs: DRAWDOWN_BUSY_INTERVAL_MS,
    onError: options.onError,
    runBatch: async () => {
      const applied = await applyPendingDrawdowns(
        { store: dependencies.store, ids: dependencies.ids, now: () => dependencies.clock.now() },
        { limit: DRAWDOWN_BATCH },
      );
      return applied > 0;
    },
  });
  dependencies.store.usageIngest.onRecorded(() => worker.wake());
  return worker;
}
