import type { Migration } from './migration.js';
import { documentTable } from './migration.js';

/**
 * Payment recovery (dunning, ADR 1460): one run per declined subscription charge, keyed by the
 * transaction's id, with its status and the instant its next step falls due promoted for the
 * scheduler's lookups.
 */
export const paymentRecovery: Migration = {
  id: '0210-payment-recovery',
  statements: () => [
    documentTable('recovery_runs', ['subscription_id', 'status', 'next_retry_at']),
    'create index recovery_runs_due on recovery_runs (environment, status, next_retry_at, account_id)',
    'create index recovery_runs_by_subscription on recovery_runs (account_id, environment, subscription_id, id)',
  ],
};
