/**
 * @module
 * Generates pending reports, one at a time per process: claims a due report with a lease and
 * writes its CSV page by page. A failure marks the report `failed` (ADR 1303).
 */
import type { UseCases } from '@drawdown/billing-core';
import type { Spans } from '../operations/spans.js';
import { createPollingWorker, type Worker } from './polling-worker.js';

export function createReportWorker(
  useCases: Pick<UseCases, 'claimDueReports' | 'generateReport'>,
  options: {
    pollMs: number;
    leaseMs: number;
    onError: (message: string, error: unknown) => void;
    spans?: Spans | undefined;
  },
): Worker {
  return createPollingWorker({
    name: 'reports',
    idleMs: options.pollMs,
    onError: options.onError,
    spans: options.spans,
    runBatch: async (batch) => {
      const [claim] = await useCases.claimDueReports({ limit: 1, leaseMs: options.leaseMs });
      batch.count('reports_claimed', claim ? 1 : 0);
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
