import type { Context } from '../shared/context.js';
import type { TransactionSlice } from './repositories.js';
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
  context: Context<TransactionSlice>,
  tx: TransactionSlice,
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
