/**
 * @module
 * Sandbox time control. An account's sandbox clock runs ahead of the wall clock by an offset
 * the account moves forward; moving it first draws down the usage already accepted, then runs
 * every renewal, scheduled change and expiry that falls due, in time order, as if the time had
 * really passed. The live environment has no such control.
 */

import { BillingError } from '../shared/billing-error.js';
import { type Clock, toTimestamp } from '../shared/clock.js';
import type { StoreOf } from '../shared/context.js';
import type { IdGenerator } from '../shared/ids.js';
import type { Account } from '../shared/scope.js';
import type { TaxIdVerification } from '../tax/tax-id-checks.js';
import { markOverdueInvoices, OVERDUE_BATCH_SIZE } from '../transactions/overdue-invoices.js';
import { applyPendingDrawdowns } from '../usage/apply-drawdowns.js';
import { runDueSubscriptions } from './process-due.js';
import type { SubscriptionSlice } from './repositories.js';
import {
  dailyQuotaExceeded,
  planSandboxJump,
  quotaDay,
  requireWithinJumpQuota,
  type SandboxJumpQuotas,
} from './sandbox-jump-quotas.js';
import type { RenewalPayment } from './subscription-billing.js';

/** How long to wait, at most, for another worker's drawdowns before a jump (rounds × pause). */
const MAX_DRAIN_ROUNDS = 1_000;
const DRAIN_PAUSE_MS = 10;

/** The furthest one advance may move the clock: ten years of 366 days (ADR 0900). */
export const MAX_SANDBOX_ADVANCE_MS = 10 * 366 * 86_400_000;

export interface SandboxClockDependencies {
  /** Waits a while; the core has no timers of its own. */
  pause(milliseconds: number): Promise<void>;
  /**
   * Lets the rest of the process run (other accounts' requests) before the jump goes on; the
   * service resolves it on the next turn of the event loop (ADR 0900).
   */
  yieldToOthers(): Promise<void>;
  readonly store: StoreOf<SubscriptionSlice>;
  readonly ids: IdGenerator;
  readonly wallClock: Clock;
  readonly account: Account;
  /** VAT ids checked with VIES before renewals reverse charge (ADR 1437). */
  readonly taxIds: TaxIdVerification | undefined;
  /**
   * Payment recovery (ADR 1460), given by the use cases (it charges through the payments
   * module): when its next step falls due, and taking the steps due on a clock.
   */
  readonly recoveries: SandboxRecoveries;
  /** What one jump, and one account's jumps in a day, may run (ADR 1487). */
  readonly quotas: SandboxJumpQuotas;
  /**
   * Due steps run in one database transaction: 1 on SQLite (a step never waits, so each is
   * followed by a yield), more on PostgreSQL, where a commit per step is the jump's cost (ADR 1488).
   */
  readonly stepsPerTransaction: number;
}

export interface SandboxRecoveries {
  /** The earliest scheduled recovery step of the sandbox at or before `until`, if any. */
  nextDueAt(until: string): Promise<string | undefined>;
  /** Takes the steps due on `clock`, settling retries without a saved card as `payments`. */
  run(clock: Clock, payments: 'success' | 'failure'): Promise<number>;
}

export interface SandboxClockReading {
  readonly now: number;
  readonly offsetMs: number;
}

export async function readSandboxClock(dependencies: SandboxClockDependencies): Promise<SandboxClockReading> {
  const offsetMs = await dependencies.store.sandboxClocks.offsetOf(dependencies.account.id);
  return { now: dependencies.wallClock.now() + offsetMs, offsetMs };
}

/**
 * Moves the account's sandbox clock to `to` (epoch ms), or forward `by` milliseconds from the
 * reading taken here, and runs everything that fell due.
 */
export async function advanceSandboxClock(
  dependencies: SandboxClockDependencies,
  to: number | { readonly by: number },
  renewalPayments: Extract<RenewalPayment, 'success' | 'failure'>,
): Promise<SandboxClockReading & { readonly stepsRun: number }> {
  const scope = { accountId: dependencies.account.id, environment: 'sandbox' as const };
  const current = await readSandboxClock(dependencies);
  // A relative move counts from this same reading, so "forward 0 seconds" is never "back".
  const target = typeof to === 'number' ? to : current.now + to.by;
  if (target < current.now) {
    throw new BillingError('sandbox_clock_cannot_go_back', 'The sandbox clock only moves forward.', [
      { field: 'to', message: `must not be before ${new Date(current.now).toISOString()}` },
    ]);
  }
  // One jump runs every step that falls due in it: bounded like `seconds`, so no jump is endless.
  if (target - current.now > MAX_SANDBOX_ADVANCE_MS) {
    const field = typeof to === 'number' ? 'to' : 'seconds';
    throw BillingError.invalidField(
      field,
      `must move the sandbox clock at most 3660 days ahead (to ${new Date(current.now + MAX_SANDBOX_ADVANCE_MS).toISOString()})`,
    );
  }
  // The jump is planned before anything changes: too many steps for one jump, or for what is left
  // of the account's day, is refused and the clock stays where it was (ADR 1487).
  const quotas = dependencies.quotas;
  const planned = await planSandboxJump(
    dependencies.store,
    scope,
    toTimestamp(target),
    renewalPayments,
    quotas.stepsPerJump + 1,
  );
  requireWithinJumpQuota(planned, quotas);
  const day = quotaDay(dependencies.wallClock);
  const clocks = dependencies.store.sandboxClocks;
  if (planned > 0 && !(await clocks.reserveJumpSteps(dependencies.account.id, day, planned, quotas.stepsPerDay))) {
    throw dailyQuotaExceeded(planned, await clocks.jumpStepsOn(dependencies.account.id, day), quotas, day);
  }
  const result = await runJump(dependencies, scope, current, to, target, renewalPayments);
  // The day counts what the jump ran, not what it planned (another process may have taken some
  // steps; a failing renewal may start fewer retries). A jump that failed keeps its plan counted.
  if (result.stepsRun !== planned) {
    await clocks.adjustJumpSteps(dependencies.account.id, day, result.stepsRun - planned);
  }
  return result;
}

async function runJump(
  dependencies: SandboxClockDependencies,
  scope: { readonly accountId: string; readonly environment: 'sandbox' },
  current: SandboxClockReading,
  to: number | { readonly by: number },
  target: number,
  renewalPayments: Extract<RenewalPayment, 'success' | 'failure'>,
): Promise<SandboxClockReading & { readonly stepsRun: number }> {
  // Usage accepted before the jump belongs to the period it was accepted in. A worker may hold
  // some of it (claims skip each other's rows), so wait until none of the account's is pending.
  const drawdowns = dependencies;
  for (let round = 0; round < MAX_DRAIN_ROUNDS; round += 1) {
    if ((await applyPendingDrawdowns(drawdowns, { limit: 500, scope })) > 0) {
      await dependencies.yieldToOthers();
      continue;
    }
    if (!(await dependencies.store.usageEvents.hasPending(scope))) break;
    await dependencies.pause(DRAIN_PAUSE_MS);
  }
  // The steps run before the clock moves: a background scheduler, which reads the stored offset,
  // then finds nothing due and cannot take steps from under this call, so `stepsRun` counts them all.
  // Payment recovery steps interleave with renewals in time order: the jump stops at each one.
  let stepsRun = 0;
  let stalled = false;
  for (;;) {
    const nextRecovery = stalled ? undefined : await dependencies.recoveries.nextDueAt(new Date(target).toISOString());
    const until = nextRecovery === undefined ? target : Math.min(target, Date.parse(nextRecovery));
    const stop: Clock = { now: () => until };
    stepsRun += await runDueSubscriptions(
      { ...dependencies, clock: stop, scope },
      Number.POSITIVE_INFINITY,
      renewalPayments,
      dependencies.yieldToOthers,
      dependencies.stepsPerTransaction,
    );
    const recovered = await dependencies.recoveries.run(stop, renewalPayments);
    stepsRun += recovered;
    if (until >= target) break;
    // Another process took the step due here: go on to the target rather than wait on it.
    stalled = recovered === 0;
    await dependencies.yieldToOthers();
  }
  const frozen: Clock = { now: () => target };
  // A relative move adds exactly its length to the offset, so the time spent running the steps is
  // not lost from the sandbox clock; an absolute one lands on its target at this instant.
  // Manual invoices that fell more than a day past due during the jump are past due now.
  while ((await markOverdueInvoices({ ...dependencies, clock: frozen, scope })) >= OVERDUE_BATCH_SIZE) {
    await dependencies.yieldToOthers();
  }
  const offsetMs = typeof to === 'number' ? target - dependencies.wallClock.now() : current.offsetMs + to.by;
  await dependencies.store.sandboxClocks.setOffset(dependencies.account.id, offsetMs);
  return { now: target, offsetMs, stepsRun };
}
