/**
 * @module
 * Applies accepted usage events to balances shortly after acceptance. It wakes as soon as a
 * batch of events commits in this process, and polls for events accepted by other processes.
 */
import { applyPendingDrawdowns, type Clock, type IdGenerator, type Store } from '@drawdown/billing-core';
import { createPollingWorker, type Worker } from './polling-worker.js';

export const DRAWDOWN_BATCH = 500;

export function createDrawdownWorker(
  dependencies: { store: Store; ids: IdGenerator; clock: Clock },
  options: { pollMs: number; onError: (message: string, error: unknown) => void },
): Worker {
  const worker = createPollingWorker({
    name: 'drawdown',
    idleMs: options.pollMs,
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
