/**
 * @module
 * Payment recovery (dunning, ADR 1460): when the payment of an automatically collected
 * subscription charge is declined, the transaction goes `past_due` and a recovery run is
 * scheduled for it, in the same database transaction. The run retries the subscription's saved
 * method on a fixed schedule over 30 days from the first decline (seven retries, as the public
 * API documents), then, if nothing was recovered, cancels or pauses the subscription as the
 * environment's setting says. The runner lives in `payments/payment-recovery-runs.ts`.
 */
import type { Collection } from '../shared/collection.js';
import type { OperationContext } from '../shared/operation-context.js';
import type { Repositories } from '../shared/repository.js';
import type { Environment, Scope } from '../shared/scope.js';
import type { Transaction } from './transaction.js';

/** After how many days from the first decline each automatic retry runs: seven within 30 days. */
export const RECOVERY_RETRY_DAYS: readonly number[] = [1, 3, 5, 8, 12, 18, 25];
/** When the payment is still not recovered this many days after the first decline, the run ends. */
export const RECOVERY_WINDOW_DAYS = 30;

const DAY_MS = 86_400_000;

/** The charges payment recovery retries: the ones the off-session path charges (ADR 1425). */
export const RECOVERED_ORIGINS: ReadonlySet<string> = new Set([
  'subscription_recurring',
  'subscription_update',
  'subscription_charge',
]);

export type RecoveryRunStatus = 'scheduled' | 'recovered' | 'exhausted' | 'stopped';
export type RecoveryRunColumn = 'id' | 'subscription_id' | 'status' | 'next_retry_at';

/** One transaction's recovery (id: the transaction's id). */
export interface RecoveryRun {
  readonly id: string;
  readonly subscriptionId: string;
  readonly status: RecoveryRunStatus;
  /** The first decline: the schedule counts from it. */
  readonly startedAt: string;
  /** Retry steps passed so far, taken or (by a late scheduler) skipped: 0 to 7. */
  readonly retriesDone: number;
  /** When the next step falls due (a retry, or the end of the window); null once ended. */
  readonly nextRetryAt: string | null;
  readonly endedAt: string | null;
  readonly updatedAt: string;
}

export interface RecoveryRunRepository extends Collection<RecoveryRun, RecoveryRunColumn> {
  /** Accounts with a scheduled run due at or before `until` in `environment` (the scheduler). */
  findDueAccounts(environment: Environment, until: string): Promise<readonly string[]>;
  /** The scope's scheduled runs due at or before `until`, earliest step first. */
  findDue(scope: Scope, until: string, limit: number): Promise<readonly RecoveryRun[]>;
}

/** When the step after `retriesDone` retries falls due: the next retry, or the end of the window. */
export function recoveryStepAt(startedAt: string, retriesDone: number): string {
  const days = RECOVERY_RETRY_DAYS[retriesDone] ?? RECOVERY_WINDOW_DAYS;
  return new Date(Date.parse(startedAt) + days * DAY_MS).toISOString();
}

/** Whether a declined `transaction` enters payment recovery. */
export function isRecoverable(transaction: Transaction): boolean {
  return (
    transaction.collectionMode === 'automatic' &&
    transaction.subscriptionId !== null &&
    RECOVERED_ORIGINS.has(transaction.origin)
  );
}

/**
 * Schedules the recovery of `transaction`, declined just now, unless it already has a run (a
 * retry's own decline, or a second decline of the same charge): the schedule counts from the first.
 */
export async function scheduleRecovery(
  context: OperationContext,
  tx: Repositories,
  transaction: Transaction,
  at: string,
): Promise<void> {
  if (!isRecoverable(transaction) || transaction.subscriptionId === null) return;
  const existing = await tx.recoveryRuns.findById(context.scope, transaction.id);
  if (existing) return;
  await tx.recoveryRuns.insert(context.scope, {
    id: transaction.id,
    subscriptionId: transaction.subscriptionId,
    status: 'scheduled',
    startedAt: at,
    retriesDone: 0,
    nextRetryAt: recoveryStepAt(at, 0),
    endedAt: null,
    updatedAt: at,
  });
}
