/**
 * @module
 * Marks manual invoices past due once they are unpaid 24 hours after their due date, for every
 * account and both environments. Safe with several processes: each change re-checks the invoice
 * under a row lock.
 */
import { type Clock, type IdGenerator, markOverdueInvoices, type Store } from '@drawdown/billing-core';
import { createPerAccountWorker } from './per-account-worker.js';
import type { Worker } from './polling-worker.js';

export function createOverdueInvoicesWorker(
  dependencies: { store: Store; ids: IdGenerator; clock: Clock },
  options: { pollMs: number; onError: (message: string, error: unknown) => void },
): Worker {
  return createPerAccountWorker(dependencies, {
    ...options,
    name: 'overdue-invoices',
    findDueAccounts: (store, environment, until) => store.transactions.findOverdueAccounts(environment, until),
    runDue: (context) => markOverdueInvoices(context),
  });
}
