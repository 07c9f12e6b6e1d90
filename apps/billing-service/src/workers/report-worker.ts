/**
 * @module
 * Generates pending reports, one at a time per process: claims a due report with a lease and
 * writes its CSV page by page (`generateReport`). A failure marks the report `failed`.
 */
import {
  type Clock,
  claimDueReports,
  generateReport,
  type IdGenerator,
  type OperationContext,
  type Scope,
  type Store,
} from '@drawdown/billing-core';
import { createPollingWorker, type Worker } from './polling-worker.js';

export function createReportWorker(
  dependencies: { store: Store; ids: IdGenerator; clock: Clock; clockFor(scope: Scope): Promise<Clock> },
  options: { pollMs: number; leaseMs: number; onError: (message: string, error: unknown) => void },
): Worker {
  const generation = {
    store: dependencies.store,
    wallClock: dependencies.clock,
    async contextFor(scope: Scope): Promise<OperationContext | undefined> {
      const account = await dependencies.store.accounts.findById(scope.accountId);
      if (!account) return undefined;
      return {
        store: dependencies.store,
        ids: dependencies.ids,
        clock: await dependencies.clockFor(scope),
        scope,
        account,
      };
    },
  };
  return createPollingWorker({
    name: 'reports',
    idleMs: options.pollMs,
    onError: options.onError,
    runBatch: async () => {
      const [claim] = await claimDueReports(generation, { limit: 1, leaseMs: options.leaseMs });
      if (!claim) return false;
      try {
        await generateReport(generation, claim);
      } catch (error) {
        options.onError(`generating report ${claim.report.id} failed`, error);
      }
      return true;
    },
  });
}
