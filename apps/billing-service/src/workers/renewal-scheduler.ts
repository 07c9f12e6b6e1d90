/**
 * @module
 * Runs renewals and scheduled changes when they fall due, for every account and both
 * environments. Safe with several processes: each step re-checks under a row lock that it is
 * still due, so none is skipped or run twice.
 */
import {
  type Clock,
  defaultRenewalPayment,
  type IdGenerator,
  runDueSubscriptions,
  type Store,
} from '@drawdown/billing-core';
import { yieldToOthers } from '../infrastructure/yield-to-others.js';
import { createPerAccountWorker } from './per-account-worker.js';
import type { Worker } from './polling-worker.js';

export function createRenewalScheduler(
  dependencies: { store: Store; ids: IdGenerator; clock: Clock },
  options: { pollMs: number; onError: (message: string, error: unknown) => void },
): Worker {
  return createPerAccountWorker(dependencies, {
    ...options,
    name: 'renewals',
    findDueAccounts: (store, environment, until) => store.subscriptions.findDueAccounts(environment, until),
    runDue: (context) => runDueSubscriptions(context, 1_000, defaultRenewalPayment(context.scope), yieldToOthers),
  });
}
