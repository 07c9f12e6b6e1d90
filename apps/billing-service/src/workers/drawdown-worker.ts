/**
 * @module
 * Applies accepted usage events to balances shortly after acceptance. It wakes as soon as a
 * batch of events commits in this process, and polls for events accepted by other processes.
 */
import type { UseCases } from '@drawdown/billing-core';
import { createPollingWorker, type Worker } from './polling-worker.js';

export const DRAWDOWN_BATCH = 500;

export function createDrawdownWorker(
  useCases: Pick<UseCases, 'applyPendingDrawdowns'>,
  options: { pollMs: number; onError: (message: string, error: unknown) => void },
): Worker {
  return createPollingWorker({
    name: 'drawdown',
    idleMs: options.pollMs,
    onError: options.onError,
    runBatch: async () => (await useCases.applyPendingDrawdowns(DRAWDOWN_BATCH)) > 0,
  });
}
