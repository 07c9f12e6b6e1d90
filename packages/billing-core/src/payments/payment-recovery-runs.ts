/**
 * @module
 * The payment recovery runner (dunning, ADR 1460). A run's step falls due on its schedule
 * (`transactions/payment-recovery.ts`); the scheduler, or the sandbox clock, takes it in two parts:
 *
 * 1. **Claim**, in one database transaction under the run's row lock: the run moves to its next
 *    step still in the future before anything is charged (steps a late scheduler missed are
 *    skipped, not caught up), so two workers never take the same retry, nor two retries of one
 *    run at once, and a retry whose answer is lost is never taken again. A run whose transaction
 *    was paid meanwhile (the customer paid through the checkout) ends `recovered`; one whose
 *    subscription was canceled or paused, or whose transaction was canceled, ends `stopped`
 *    (as does a live run without a payment provider); after the last retry the window's
 *    end applies the environment's dunning exhausted action (cancel or pause the subscription,
 *    cancel every past-due transaction of it, ending their runs) and ends `exhausted`, unless a
 *    retry of any of them is still in flight (it waits for that retry's outcome).
 * 2. **Retry**, outside any database transaction, through the one off-session charge path
 *    (ADR 1425, trigger `scheduled`): an attempt stored under the transaction's lock (none while
 *    another is in flight), the provider called with the attempt's id as idempotency key, the
 *    outcome applied once. Success completes the transaction and revives the subscription. The
 *    sandbox without a saved test card settles the retry with its simulated card, as renewals are.
 */

import type { Context } from '../shared/context.js';
import { pausedAt, saveCancellation } from '../subscriptions/pause-resume-cancel.js';
import { saveChange } from '../subscriptions/subscription-changes.js';
import type { RecoveryRun, RecoveryRunStatus } from '../transactions/entities.js';
import { RECOVERY_RETRY_DAYS, recoveryStepAt } from '../transactions/payment-recovery.js';
import { recordPaymentInTransaction } from '../transactions/payments.js';
import { SANDBOX_PROVIDER } from '../transactions/saved-methods.js';
import type { Transaction } from '../transactions/transaction.js';
import { saveTransaction } from '../transactions/transaction-changes.js';
import { DEFAULT_DUNNING_EXHAUSTED_ACTION } from './checkout-settings.js';
import { chargeOffSession, type OffSessionPorts } from './off-session-charges.js';
import { IN_FLIGHT } from './payment-attempt.js';
import type { PaymentSlice } from './repositories.js';

export interface RecoveryOptions {
  /** Steps to take at most. */
  readonly limit: number;
  /**
   * How the sandbox settles a retry of a subscription without a saved test card (or any retry,
   * when `failure`): the sandbox clock passes its jump's renewal outcome; the scheduler, the
   * account's simulated card (`PUT /sandbox-payment-outcome`).
   */
  readonly sandboxOutcome?: 'success' | 'failure' | undefined;
}

type Claim =
  | { readonly kind: 'retry'; readonly run: RecoveryRun }
  | { readonly kind: 'ended'; readonly status: RecoveryRunStatus }
  | { readonly kind: 'not_due' };

/** Takes every recovery step due in the context's scope up to its now, earliest first; returns how many. */
export async function runDueRecoveries(
  context: Context<PaymentSlice>,
  ports: OffSessionPorts,
  options: RecoveryOptions,
): Promise<number> {
  const provider = await ports.providers.providerFor(context.scope);
  let steps = 0;
  // Runs that could not be taken now (another worker moved them on, or the window's end waits
  // for a retry in flight): passed over this round, so they hold up no other run.
  const passed = new Set<string>();
  while (steps < options.limit) {
    const until = new Date(context.clock.now()).toISOString();
    const due = await context.store.recoveryRuns.findDue(context.scope, until, passed.size + 1);
    const next = due.find((run) => !passed.has(run.id));
    if (!next) break;
    const claim = await context.store.transaction((tx) =>
      claimStep(context, tx, next.id, until, provider !== undefined),
    );
    if (claim.kind === 'not_due') {
      passed.add(next.id);
      continue;
    }
    steps += 1;
    if (claim.kind === 'retry') await retry(context, ports, claim.run, options);
  }
  return steps;
}

async function endRun(
  context: Context<PaymentSlice>,
  tx: PaymentSlice,
  run: RecoveryRun,
  status: RecoveryRunStatus,
  at: string,
): Promise<Claim> {
  await tx.recoveryRuns.update(context.scope, { ...run, status, nextRetryAt: null, endedAt: at, updatedAt: at });
  return { kind: 'ended', status };
}

async function claimStep(
  context: Context<PaymentSlice>,
  tx: PaymentSlice,
  runId: string,
  until: string,
  hasProvider: boolean,
): Promise<Claim> {
  const run = await tx.recoveryRuns.findByIdForUpdate(context.scope, runId);
  // Another worker took this step between the lookup and the lock.
  if (!run || run.status !== 'scheduled' || run.nextRetryAt === null || run.nextRetryAt > until) {
    return { kind: 'not_due' };
  }
  // Each step is stamped with the instant it was due, like renewals (a late scheduler, a clock jump).
  const at = run.nextRetryAt;
  const transaction = await tx.transactions.findByIdForUpdate(context.scope, run.id);
  if (!transaction || transaction.status === 'canceled') return endRun(context, tx, run, 'stopped', at);
  if (transaction.status !== 'past_due') return endRun(context, tx, run, 'recovered', at);
  const subscription = await tx.subscriptions.findByIdForUpdate(context.scope, run.subscriptionId);
  if (!subscription || subscription.status === 'canceled' || subscription.status === 'paused') {
    return endRun(context, tx, run, 'stopped', at);
  }
  // Live without a provider Drawdown charges nothing: payments stay reported (ADR 1423).
  if (context.scope.environment === 'live' && !hasProvider) return endRun(context, tx, run, 'stopped', at);
  if (run.retriesDone < RECOVERY_RETRY_DAYS.length) {
    // Steps a late scheduler missed are not caught up one after another: after this retry the
    // next step is always in the future, so no other worker can take a second retry of the run
    // while this one is in flight.
    let next = run.retriesDone + 1;
    while (next < RECOVERY_RETRY_DAYS.length && recoveryStepAt(run.startedAt, next) <= until) next += 1;
    const claimed: RecoveryRun = {
      ...run,
      retriesDone: next,
      nextRetryAt: recoveryStepAt(run.startedAt, next),
      updatedAt: at,
    };
    await tx.recoveryRuns.update(context.scope, claimed);
    return { kind: 'retry', run: claimed };
  }
  // Every past-due charge of the subscription ends with it: renewals made while it was past due
  // have runs of their own, whose windows end later (the public API cancels a subscription's
  // past-due transactions when it cancels or pauses it). Locked in id order after the run's own.
  const others = await pastDueTransactionsOf(context, tx, subscription.id, transaction.id);
  // A retry still in flight (its answer lost, its webhook not yet here) may yet succeed: wait for it.
  // The attempt is stored under the transaction's lock, held here too, so the two never cross.
  for (const candidate of [transaction, ...others]) {
    const inFlight = await tx.paymentAttempts.list(context.scope, {
      filter: { transaction_id: [{ op: 'eq', value: candidate.id }], status: [{ op: 'in', values: IN_FLIGHT }] },
      direction: 'asc',
      perPage: 1,
      countTotal: false,
    });
    if (inFlight.items.length > 0) return { kind: 'not_due' };
  }
  // The window ended and nothing was recovered: the environment's dunning exhausted action.
  const settings = await tx.checkoutSettings.findById(context.scope, 'checkout');
  const action = settings?.dunningExhaustedAction ?? DEFAULT_DUNNING_EXHAUSTED_ACTION;
  // The past-due charges are canceled, so nobody pays them after the subscription ended (or on resume),
  // and their own runs end with them.
  await saveTransaction(context, tx, transaction, { ...transaction, status: 'canceled', updatedAt: at });
  for (const other of others) {
    await saveTransaction(context, tx, other, { ...other, status: 'canceled', updatedAt: at });
    const otherRun = await tx.recoveryRuns.findByIdForUpdate(context.scope, other.id);
    if (otherRun?.status === 'scheduled') await endRun(context, tx, otherRun, 'stopped', at);
  }
  if (action === 'subscription_paused') {
    await saveChange(context, tx, {
      before: subscription,
      after: pausedAt(subscription, at, null),
      eventTypes: ['subscription.paused', 'subscription.updated'],
      at,
    });
  } else {
    await saveCancellation(context, tx, subscription, at);
  }
  return endRun(context, tx, run, 'exhausted', at);
}

/** The subscription's other past-due transactions, each locked, in id order. */
async function pastDueTransactionsOf(
  context: Context<PaymentSlice>,
  tx: PaymentSlice,
  subscriptionId: string,
  except: string,
): Promise<Transaction[]> {
  const ids: string[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await tx.transactions.list(context.scope, {
      filter: {
        subscription_id: [{ op: 'eq', value: subscriptionId }],
        status: [{ op: 'eq', value: 'past_due' }],
      },
      direction: 'asc',
      perPage: 100,
      after,
      countTotal: false,
    });
    for (const transaction of page.items) if (transaction.id !== except) ids.push(transaction.id);
    if (!page.hasMore) break;
    after = page.items.at(-1)?.id;
  }
  const locked: Transaction[] = [];
  for (const id of ids.sort()) {
    const transaction = await tx.transactions.findByIdForUpdate(context.scope, id);
    if (transaction?.status === 'past_due') locked.push(transaction);
  }
  return locked;
}

/** One retry, claimed: the off-session path, or the sandbox's simulated card. */
async function retry(
  context: Context<PaymentSlice>,
  ports: OffSessionPorts,
  run: RecoveryRun,
  options: RecoveryOptions,
): Promise<void> {
  const provider = await ports.providers.providerFor(context.scope);
  if (context.scope.environment === 'sandbox') {
    const outcome =
      options.sandboxOutcome ?? (await context.store.sandboxClocks.paymentOutcomeOf(context.scope.accountId));
    if (outcome === 'success' && provider && (await hasSavedSandboxMethod(context, run.subscriptionId))) {
      await chargeOffSession(context, ports, provider, run.id, 'scheduled');
      return;
    }
    await context.store.transaction(async (tx) => {
      const transaction = await tx.transactions.findByIdForUpdate(context.scope, run.id);
      if (transaction?.status !== 'past_due') return;
      // The customer is paying it at the checkout right now: that payment decides; this retry is spent (ADR 1468).
      if (await tx.transactions.hasPaymentInFlight(context.scope, run.id)) return;
      await recordPaymentInTransaction(
        context,
        tx,
        run.id,
        {
          status: outcome === 'success' ? 'captured' : 'error',
          methodType: 'card',
          providerReference: 'sandbox',
          errorCode: outcome === 'success' ? null : 'declined',
        },
        ports.hooks,
      );
    });
    return;
  }
  if (!provider) return;
  const result = await chargeOffSession(context, ports, provider, run.id, 'scheduled');
  if (!result.charged) {
    // Refused (an attempt still in flight, no saved method): this retry is spent; the next one tries again.
    ports.reportError(`payment recovery of transaction ${run.id}: ${result.refusal.message}`, result.refusal);
  }
}

async function hasSavedSandboxMethod(context: Context<PaymentSlice>, subscriptionId: string): Promise<boolean> {
  const subscription = await context.store.subscriptions.findById(context.scope, subscriptionId);
  const id = subscription?.internal.paymentMethodId;
  if (!id) return false;
  const method = await context.store.paymentMethods.findById(context.scope, id);
  return method?.internal.status === 'saved' && method.internal.provider === SANDBOX_PROVIDER;
}
