/**
 * @module
 * The email cycle, storage side (ADR 1500): outbox events fan out into email jobs (at most one
 * per occurrence, skipped ones saying why), due jobs are claimed with a lease for one attempt,
 * and each attempt's result is recorded only while the claim still holds. Sending (SMTP, or the
 * sandbox's capture) belongs to the service. Delivery runs on the wall clock.
 */
import type { Clock } from '../shared/clock.js';
import { toTimestamp } from '../shared/clock.js';
import type { StoreOf } from '../shared/context.js';
import type { IdGenerator } from '../shared/ids.js';
import type { Environment, Scope } from '../shared/scope.js';
import { RECOVERY_RETRY_DAYS, recoveryStepAt } from '../transactions/payment-recovery.js';
import { type EmailOccurrence, emailOccurrenceOf } from './email-occurrences.js';
import { withEmailDefaults } from './email-settings.js';
import type { EmailJob, EmailSettings, EmailSkipReason, RenderedEmail } from './entities.js';
import type { EmailClaim, EmailSlice } from './repositories.js';

export interface EmailDeliveryDependencies {
  readonly store: StoreOf<EmailSlice>;
  readonly ids: IdGenerator;
  readonly wallClock: Clock;
}

/** The `Message-ID` of a job: fixed when the job is written, so every attempt sends the same. */
export function messageIdOf(jobId: string): string {
  return `<${jobId}@drawdown.email>`;
}

/**
 * Turns up to `limit` outbox events into email jobs and marks them fanned out, in one
 * transaction: an event fans out once however many workers run, and an occurrence already
 * mailed (its key) makes no second job. Returns how many events it took.
 */
export async function fanOutEmails(dependencies: EmailDeliveryDependencies, limit: number): Promise<number> {
  if (!(await dependencies.store.emailJobs.hasEventsToFanOut())) return 0;
  return dependencies.store.transaction(async (tx) => {
    const events = await tx.emailJobs.eventsToFanOut(limit);
    if (events.length === 0) return 0;
    const now = dependencies.wallClock.now();
    const settingsByScope = new Map<string, EmailSettings>();
    for (const { scope, event } of events) {
      const occurrence = emailOccurrenceOf(event);
      if (!occurrence) continue;
      const key = `${scope.accountId} ${scope.environment}`;
      let settings = settingsByScope.get(key);
      if (!settings) {
        settings = withEmailDefaults(await tx.emailSettings.find(scope));
        settingsByScope.set(key, settings);
      }
      const facts = await storedFacts(tx, scope, event.occurredAt, occurrence);
      await writeEmailJob(tx, dependencies.ids, scope, { ...occurrence, facts }, settings, {
        eventId: event.id,
        createdAt: event.occurredAt,
        now,
      });
    }
    await tx.emailJobs.markFannedOut(events);
    return events.length;
  });
}

/**
 * Writes the job of `occurrence` unless its occurrence key already has one (false then): pending
 * when it can go, else skipped saying why (no address, the kind turned off). `now` is the wall
 * clock delivery runs on; `createdAt` the instant that caused it on the environment's clock.
 */
export async function writeEmailJob(
  tx: EmailSlice,
  ids: IdGenerator,
  scope: Scope,
  occurrence: EmailOccurrence,
  settings: EmailSettings,
  when: { readonly eventId: string | null; readonly createdAt: string; readonly now: number },
): Promise<boolean> {
  const customer = await tx.customers.findById(scope, occurrence.customerId);
  const recipient = customer?.email?.trim() ? customer.email.trim() : null;
  const skipReason: EmailSkipReason | null =
    recipient === null
      ? 'no_email_address'
      : !settings.disabledEmails.includes(occurrence.kind)
        ? null
        : 'email_turned_off';
  const id = ids.newId('eml');
  const job: EmailJob = {
    id,
    kind: occurrence.kind,
    status: skipReason === null ? 'pending' : 'skipped',
    eventId: when.eventId,
    customerId: occurrence.customerId,
    recipient,
    locale: customer?.locale ?? 'en',
    skipReason,
    facts: { ...occurrence.facts, customerName: customer?.name ?? null },
    messageId: messageIdOf(id),
    attempts: 0,
    lastError: null,
    message: null,
    createdAt: when.createdAt,
    nextAttemptAt: skipReason === null ? toTimestamp(when.now) : null,
    sentAt: null,
  };
  return tx.emailJobs.insert(scope, job, occurrence.occurrenceKey, skipReason === null ? when.now : null);
}

/**
 * The facts an occurrence takes from other rows as they are when its event fans out (ADR 1503):
 * a failed payment's next automatic try, from its recovery run's schedule (the first retry after
 * the decline; none after the last, or without a run), and a plan change's charge,
 * the `subscription_update` transaction written with it.
 */
async function storedFacts(
  tx: EmailSlice,
  scope: Scope,
  occurredAt: string,
  occurrence: EmailOccurrence,
): Promise<EmailOccurrence['facts']> {
  const { facts } = occurrence;
  if (occurrence.kind === 'payment_failed' && facts.transactionId !== null) {
    const run = await tx.recoveryRuns.findById(scope, facts.transactionId);
    // As the schedule stood when the payment failed: a run that ended later (recovered, or
    // exhausted while this event waited to fan out) still had this try ahead of it then.
    if (!run || (run.endedAt !== null && run.endedAt <= occurredAt)) return { ...facts, nextTryAt: null };
    const step = RECOVERY_RETRY_DAYS.findIndex((_days, index) => recoveryStepAt(run.startedAt, index) > occurredAt);
    return { ...facts, nextTryAt: step === -1 ? null : recoveryStepAt(run.startedAt, step) };
  }
  if (occurrence.kind === 'subscription_past_due' && facts.subscriptionId !== null) {
    // What is unpaid (ADR 1503 addendum): the balances of the subscription's past-due
    // transactions in its currency, as they stand when the event fans out; the latest is linked.
    const page = await tx.transactions.list(scope, {
      filter: {
        subscription_id: [{ op: 'eq', value: facts.subscriptionId }],
        status: [{ op: 'eq', value: 'past_due' }],
      },
      direction: 'asc',
      perPage: 100,
      countTotal: false,
    });
    const owed = page.items.filter((transaction) => transaction.currencyCode === facts.currencyCode);
    const latest = owed.at(-1);
    if (latest) {
      const unpaid = owed.reduce((sum, transaction) => sum + BigInt(transaction.details.totals.balance), 0n);
      return { ...facts, amount: unpaid.toString(), transactionId: latest.id };
    }
  }
  if (occurrence.kind === 'subscription_plan_changed' && facts.billing === 'now' && facts.subscriptionId !== null) {
    // The change's charge is written after its event in the same database transaction: the
    // subscription's first update charge from that instant on (ids order by creation).
    const page = await tx.transactions.list(scope, {
      filter: {
        subscription_id: [{ op: 'eq', value: facts.subscriptionId }],
        origin: [{ op: 'eq', value: 'subscription_update' }],
        created_at: [{ op: 'gte', value: occurredAt }],
      },
      direction: 'asc',
      perPage: 1,
      countTotal: false,
    });
    const charge = page.items[0];
    if (charge) {
      return {
        ...facts,
        amount: charge.details.totals.grandTotal,
        credit: charge.details.totals.creditToBalance,
        transactionId: charge.id,
      };
    }
  }
  return facts;
}

export interface ClaimEmailsInput {
  readonly limit: number;
  /** How long a claim holds a job before another worker may take it again. */
  readonly leaseMs: number;
  readonly claimToken: string;
  /** The environments this worker can send for: live only with an SMTP server. */
  readonly environments: readonly Environment[];
}

/** Claims up to `limit` due jobs for one attempt each; no two workers hold the same attempt. */
export async function claimDueEmails(
  dependencies: EmailDeliveryDependencies,
  input: ClaimEmailsInput,
): Promise<readonly EmailClaim[]> {
  if (input.limit <= 0 || input.environments.length === 0) return [];
  if (!(await dependencies.store.emailJobs.hasDueJobs(dependencies.wallClock.now(), input.environments))) return [];
  return dependencies.store.transaction(async (tx) => {
    const now = dependencies.wallClock.now();
    return tx.emailJobs.claimDue({
      now,
      limit: input.limit,
      leaseUntil: now + input.leaseMs,
      claimToken: input.claimToken,
      environments: input.environments,
    });
  });
}

/** What one attempt did. */
export type EmailOutcome =
  /** The SMTP server accepted it (`sent`), or the sandbox kept it (`captured`). */
  | { readonly kind: 'sent' | 'captured'; readonly message: RenderedEmail }
  /** Refused for good (an SMTP 5xx, an address no server takes): the job fails at once. */
  | { readonly kind: 'refused'; readonly error: string }
  /** Did not go now (server down, slow, 4xx): retried after the schedule's next delay. */
  | { readonly kind: 'deferred'; readonly error: string }
  /** Settings lack what sending needs: the job is skipped with this reason. */
  | { readonly kind: 'skipped'; readonly reason: EmailSkipReason };

/** The job after an attempt, and when its next attempt is due (null: no more attempts). */
export function afterEmailAttempt(
  job: EmailJob,
  outcome: EmailOutcome,
  now: number,
  retryDelaysMs: readonly number[],
): { readonly job: EmailJob; readonly dueAt: number | null } {
  const attempts = job.attempts + 1;
  switch (outcome.kind) {
    case 'sent':
    case 'captured':
      return {
        job: {
          ...job,
          status: outcome.kind,
          attempts,
          message: outcome.message,
          sentAt: toTimestamp(now),
          nextAttemptAt: null,
        },
        dueAt: null,
      };
    case 'skipped':
      return {
        job: { ...job, status: 'skipped', attempts, skipReason: outcome.reason, nextAttemptAt: null },
        dueAt: null,
      };
    case 'refused':
      return {
        job: { ...job, status: 'failed', attempts, lastError: outcome.error, nextAttemptAt: null },
        dueAt: null,
      };
    case 'deferred': {
      const delay = retryDelaysMs[attempts - 1];
      if (delay === undefined) {
        return {
          job: { ...job, status: 'failed', attempts, lastError: outcome.error, nextAttemptAt: null },
          dueAt: null,
        };
      }
      return {
        job: { ...job, status: 'pending', attempts, lastError: outcome.error, nextAttemptAt: toTimestamp(now + delay) },
        dueAt: now + delay,
      };
    }
  }
}

/** Records an attempt; false (nothing written) when the claim's lease ran out and another worker took the job. */
export async function recordEmailAttempt(
  dependencies: EmailDeliveryDependencies,
  claim: EmailClaim,
  outcome: EmailOutcome,
  retryDelaysMs: readonly number[],
): Promise<boolean> {
  const { job, dueAt } = afterEmailAttempt(claim.job, outcome, dependencies.wallClock.now(), retryDelaysMs);
  return dependencies.store.transaction((tx) => tx.emailJobs.recordAttempt(claim, job, dueAt));
}
