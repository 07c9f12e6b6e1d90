/**
 * @module
 * Generates pending reports, one at a time per process: claims a due report with a lease and
 * writes its CSV page by page. A failure marks the report `failed` (ADR 1303).
 */
import type { UseCases } from '@drawdown/billing-core';
import { createPollingWorker, type Worker } from './polling-worker.js';

export function createReportWorker(
  useCases: Pick<UseCases, 'claimDueReports' | 'generateReport'>,
  options: { pollMs: number; leaseMs: number; onError: (message: string, error: unknown) => void },
): Worker {
  return createPollingWorker({
    name: 'reports',
    idleMs: options.pollMs,
    onError: options.onError,
    runBatch: async () => {
      const [claim] = await useCases.claimDueReports({ limit: 1, leaseMs: options.leaseMs });
      if (!claim) return false;
      try {
        await useCases.generateReport(claim);
      } catch (error) {
        options.onError(`generating report ${claim.report.id} failed`, error);
      }
      return true;
    },
  });
}
