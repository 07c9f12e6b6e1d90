/**
 * @module
 * Quotas on what a sandbox jump makes (ADR 1487). Every renewal a jump runs writes a
 * transaction, its events and ledger entries (about 30 KB on SQLite): one ten-year jump over
 * 100 monthly subscriptions wrote 350 MB, and nothing stopped the next one. A jump is planned
 * before anything changes: the steps it would run are counted from the subscriptions' own
 * schedules and the payment recovery runs already waiting, and a jump that would run more than
 * the operator allows per jump, or more than the account has left of its day, is refused with
 * its code while the clock stays where it was. The day's count is then corrected to the steps
 * the jump really ran.
 */
import { BillingError } from '../shared/billing-error.js';
import { type Clock, toTimestamp } from '../shared/clock.js';
import type { Scope } from '../shared/scope.js';
import { RECOVERY_RETRY_DAYS, RECOVERY_WINDOW_DAYS, recoveryStepAt } from '../transactions/payment-recovery.js';
import { periodAt } from './billing-period.js';
import { awaitsPaymentMethod } from './cardless-trial.js';
import { canceledAt, pausedAt, resumedAt } from './pause-resume-cancel.js';
import type { SubscriptionSlice } from './repositories.js';
import { nextDueAt, type Subscription } from './subscription.js';

/** How much one account's sandbox jumps may run; the operator's settings (`docs/configuration.md`). */
export interface SandboxJumpQuotas {
  /** The most due steps (renewals, scheduled changes, payment retries) one jump may run. */
  readonly stepsPerJump: number;
  /** The most due steps one account's jumps may run in a UTC day of the wall clock. */
  readonly stepsPerDay: number;
}

/**
 * 1,000 steps a jump is ten years of eight monthly subscriptions, or a year of 83, in about
 * 30 MB; 5,000 a day bounds one account's sandbox to about 150 MB a day (ADR 1487).
 */
export const DEFAULT_SANDBOX_JUMP_QUOTAS: SandboxJumpQuotas = { stepsPerJump: 1_000, stepsPerDay: 5_000 };

const DAY_MS = 86_400_000;

/** The steps of a recovery run from `retriesDone` on (its retries, then its window's end) due by `until`. */
function recoveryStepsBy(startedAt: string, retriesDone: number, until: string): number {
  let steps = 0;
  for (let done = retriesDone; done <= RECOVERY_RETRY_DAYS.length; done += 1) {
    if (recoveryStepAt(startedAt, done) > until) break;
    steps += 1;
  }
  return steps;
}

/** The subscription after its next due step, as `applyDueStep` leaves it when the renewal is paid. */
function afterDueStep(subscription: Subscription): Subscription {
  const change = subscription.scheduledChange;
  const renewalAt = subscription.nextBilledAt;
  if (change && (renewalAt === null || change.effectiveAt <= renewalAt)) {
    switch (change.action) {
      case 'cancel':
        return canceledAt(subscription, change.effectiveAt);
      case 'pause':
        return pausedAt(subscription, change.effectiveAt, change.resumeAt);
      case 'resume':
        return resumedAt(subscription, change.effectiveAt, subscription.internal.onResume);
    }
  }
  const at = renewalAt ?? '';
  if (awaitsPaymentMethod(subscription)) return canceledAt(subscription, at);
  const periodIndex = subscription.internal.periodIndex + 1;
  const period = periodAt(subscription.internal.billingAnchor, subscription.billingCycle, periodIndex);
  return {
    ...subscription,
    status: subscription.status === 'trialing' ? 'active' : subscription.status,
    currentBillingPeriod: period,
    nextBilledAt: period.endsAt,
    internal: { ...subscription.internal, periodIndex },
  };
}

/**
 * How many steps a jump to `until` runs for the subscription, counting at most `atMost`: its
 * renewals and scheduled changes, walked with the same transitions the steps apply. With
 * renewal payments that fail, each automatically collected renewal also starts a recovery run
 * (its retries and its window's end are counted), and dunning ends the subscription when the
 * first run's window closes, so nothing after that is counted: an upper bound either way.
 */
export function plannedSubscriptionSteps(
  subscription: Subscription,
  until: string,
  renewalPayments: 'success' | 'failure',
  atMost: number,
): number {
  let current = subscription;
  let steps = 0;
  let dunningEnds: string | undefined;
  while (steps < atMost) {
    const due = nextDueAt(current);
    if (due === null || due > until || (dunningEnds !== undefined && due > dunningEnds)) break;
    steps += 1;
    const renewal = current.nextBilledAt === due && !(current.scheduledChange?.effectiveAt === due);
    if (renewal && renewalPayments === 'failure' && current.collectionMode === 'automatic') {
      steps += recoveryStepsBy(due, 0, until);
      dunningEnds ??= toTimestamp(Date.parse(due) + RECOVERY_WINDOW_DAYS * DAY_MS);
    }
    current = afterDueStep(current);
  }
  return Math.min(steps, atMost);
}

/**
 * The steps a jump of the scope's sandbox to `until` would run, counting at most `atMost`
 * (a jump over the quota is refused whatever its exact size, so the count stops there).
 */
export async function planSandboxJump(
  repositories: Pick<SubscriptionSlice, 'subscriptions' | 'recoveryRuns'>,
  scope: Scope,
  until: string,
  renewalPayments: 'success' | 'failure',
  atMost: number,
): Promise<number> {
  let steps = 0;
  // Every recovery run already waiting takes its retries and its window's end on the way.
  for (const run of await repositories.recoveryRuns.findDue(scope, until, atMost)) {
    steps += recoveryStepsBy(run.startedAt, run.retriesDone, until);
    if (steps >= atMost) return atMost;
  }
  // Each subscription due in the jump runs at least one step, so no more than `atMost` are read.
  for (const id of await repositories.subscriptions.findDue(scope, until, atMost)) {
    const subscription = await repositories.subscriptions.findById(scope, id);
    if (!subscription) continue;
    steps += plannedSubscriptionSteps(subscription, until, renewalPayments, atMost - steps);
    if (steps >= atMost) return atMost;
  }
  return steps;
}

/** The wall clock's UTC day, which the daily quota counts in. */
export function quotaDay(wallClock: Clock): string {
  return toTimestamp(wallClock.now()).slice(0, 10);
}

/** Refuses a jump planned at `planned` steps when one jump may run fewer. */
export function requireWithinJumpQuota(planned: number, quotas: SandboxJumpQuotas): void {
  if (planned <= quotas.stepsPerJump) return;
  throw new BillingError(
    'sandbox_jump_too_large',
    `This jump would run more than ${quotas.stepsPerJump} renewals, scheduled changes and payment retries, the most one sandbox jump may run on this service; nothing changed. Move the clock in shorter jumps.`,
  );
}

/** The refusal of a jump that does not fit in what is left of the account's day. */
export function dailyQuotaExceeded(
  planned: number,
  used: number,
  quotas: SandboxJumpQuotas,
  day: string,
): BillingError {
  const left = Math.max(0, quotas.stepsPerDay - used);
  const resets = toTimestamp(Date.parse(`${day}T00:00:00.000Z`) + DAY_MS);
  return new BillingError(
    'sandbox_daily_quota_exceeded',
    `This jump would run ${planned} renewals, scheduled changes and payment retries; this account's sandbox jumps may run ${quotas.stepsPerDay} a day and ${left} are left until ${resets}.`,
  );
}
