/**
 * @module
 * Storage ports of customer email (ADR 1500). A job's delivery state lives beside it: `dueAt`
 * (wall-clock milliseconds) says when its next attempt may start, and a claim token fences the
 * one worker holding the attempt, as notifications do (ADR 0505).
 */
import type { CatalogueRepositories } from '../catalogue/repositories.js';
import type { EventRepositories } from '../events/repositories.js';
import type { InvoiceRepositories } from '../invoices/repositories.js';
import type { EventToFanOut } from '../notifications/repositories.js';
import type { ListQuery, Page } from '../shared/pagination.js';
import type { Environment, Scope } from '../shared/scope.js';
import type { SubscriptionSlice } from '../subscriptions/repositories.js';
import type { Subscription } from '../subscriptions/subscription.js';
import type { TransactionRepositories } from '../transactions/repositories.js';
import type { EmailJob, EmailSettings } from './entities.js';

export type EmailJobColumn = 'id' | 'status' | 'kind' | 'customer_id';

/** A job held by one worker for one attempt. */
export interface EmailClaim {
  readonly scope: Scope;
  readonly job: EmailJob;
  readonly claimToken: string;
}

export interface EmailJobRepository {
  /** Adds a job unless one with the same occurrence key exists in the scope; false when it did. */
  insert(scope: Scope, job: EmailJob, occurrenceKey: string, dueAt: number | null): Promise<boolean>;
  findById(scope: Scope, id: string): Promise<EmailJob | undefined>;
  list(scope: Scope, query: ListQuery<EmailJobColumn>): Promise<Page<EmailJob>>;
  /** Whether any outbox event awaits email fan-out: a cheap read, so idle workers take no write lock. */
  hasEventsToFanOut(): Promise<boolean>;
  /** Events not yet fanned out into email jobs, oldest first; locked and skip-locked on PostgreSQL. */
  eventsToFanOut(limit: number): Promise<readonly EventToFanOut[]>;
  markFannedOut(events: readonly EventToFanOut[]): Promise<void>;
  /** Whether any job of `environments` is due at `now`. */
  hasDueJobs(now: number, environments: readonly Environment[]): Promise<boolean>;
  /**
   * Takes up to `limit` due jobs, oldest due first, for one attempt each: pushes their due time to
   * `leaseUntil` and sets the token. On PostgreSQL rows another transaction holds are skipped.
   */
  claimDue(input: {
    readonly now: number;
    readonly limit: number;
    readonly leaseUntil: number;
    readonly claimToken: string;
    readonly environments: readonly Environment[];
  }): Promise<readonly EmailClaim[]>;
  /** Saves an attempt's result if `claim` still holds the job; false (nothing written) otherwise. */
  recordAttempt(claim: EmailClaim, next: EmailJob, dueAt: number | null): Promise<boolean>;
}

export interface EmailSettingsRepository {
  find(scope: Scope): Promise<EmailSettings | undefined>;
  save(scope: Scope, settings: EmailSettings): Promise<void>;
}

/**
 * Where an account environment's reminders stand (ADR 1503): subscriptions whose next charge is
 * up to `throughAt` (at it, ids up to `throughId`) were considered; `dueAt` (on the environment's
 * clock) is when one may next fall due.
 */
export interface EmailReminderState {
  readonly throughAt: string;
  readonly throughId: string;
  readonly dueAt: string;
}

export interface EmailReminderRepository {
  /** Accounts of `environment` whose reminders are due at `until`, and accounts not yet seen. */
  findDueAccounts(environment: Environment, until: string): Promise<readonly string[]>;
  find(scope: Scope): Promise<EmailReminderState | undefined>;
  save(scope: Scope, state: EmailReminderState): Promise<void>;
  /** Up to `limit` subscriptions charged next after (`afterAt`, `afterId`) and at or before `until`, in that order. */
  chargesAhead(
    scope: Scope,
    after: { readonly at: string; readonly id: string },
    until: string,
    limit: number,
  ): Promise<readonly Subscription[]>;
  /** The earliest next charge after `after`, if any. */
  firstChargeAfter(scope: Scope, after: string): Promise<string | undefined>;
}

/** The repositories customer email owns. */
export interface EmailRepositories {
  readonly emailJobs: EmailJobRepository;
  readonly emailSettings: EmailSettingsRepository;
  readonly emailReminders: EmailReminderRepository;
}

/**
 * What customer email uses: its repositories, the outbox, customers, the seller details, and
 * the transactions and recovery runs a job's facts are completed from (ADR 1503).
 */
export interface EmailSlice
  extends EmailRepositories,
    EventRepositories,
    Pick<CatalogueRepositories, 'customers'>,
    Pick<InvoiceRepositories, 'sellerDetails'>,
    Pick<TransactionRepositories, 'transactions' | 'recoveryRuns' | 'paymentMethods'> {}

/** What the reminders step uses (ADR 1503): customer email's slice and the subscriptions it reminds of, priced as their next charge. */
export interface EmailReminderSlice extends EmailSlice, SubscriptionSlice {}
