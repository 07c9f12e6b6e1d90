/**
 * @module
 * Runs time-driven work when it falls due, for every account and both environments: renewals and
 * scheduled changes, and manual invoices going past due. Live accounts run on the wall clock;
 * each sandbox account on its own clock, so moving sandbox time forward makes its work due. Safe
 * with several processes: each step re-checks under a row lock that it is still due.
 */
import type { DueWork, UseCases } from '@drawdown/billing-core';
import { createPollingWorker, type Worker } from './polling-worker.js';

const NAMES: Readonly<Record<DueWork, string>> = { renewals: 'renewals', overdue_invoices: 'overdue invoices' };

export function createDueWorkWorker(
  useCases: Pick<UseCases, 'runDueWork'>,
  work: DueWork,
  options: { pollMs: number; onError: (message: string, error: unknown) => void },
): Worker {
  return createPollingWorker({
    name: NAMES[work],
    idleMs: options.pollMs,
    onError: options.onError,
    runBatch: async () => (await useCases.runDueWork(work)) > 0,
  });
}
