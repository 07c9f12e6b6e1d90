/**
 * @module
 * Runs time-driven work when it falls due, for every account and both environments: renewals and
 * scheduled changes, manual invoices going past due, API keys expiring or expired, and payment
 * recovery's retries (ADR 1460), and customer email reminders (ADR 1503). Live accounts run on the wall clock;
 * each sandbox account on its own clock, so moving sandbox time forward makes its work due. Safe
 * with several processes: each step re-checks under a row lock that it is still due.
 */
import type { DueWork, UseCases } from '@drawdown/billing-core';
import type { Spans } from '../operations/spans.js';
import { createPollingWorker, type Worker } from './polling-worker.js';

const NAMES: Readonly<Record<DueWork, string>> = {
  renewals: 'renewals',
  overdue_invoices: 'overdue invoices',
  api_key_expiries: 'API key expiries',
  payment_recovery: 'payment recovery',
  payment_retries: 'payment retries',
  email_reminders: 'email reminders',
};

export function createDueWorkWorker(
  useCases: Pick<UseCases, 'runDueWork'>,
  work: DueWork,
  options: { pollMs: number; onError: (message: string, error: unknown) => void; spans?: Spans | undefined },
): Worker {
  return createPollingWorker({
    name: NAMES[work],
    idleMs: options.pollMs,
    onError: options.onError,
    spans: options.spans,
    runBatch: async (batch) => {
      const done = await useCases.runDueWork(work);
      batch.count('items_done', done);
      return done > 0;
    },
  });
}
