/**
 * @module
 * Customer email jobs and settings (ADR 1500), and the two queues the email worker takes work
 * from: outbox events not yet fanned out into jobs, and jobs whose next attempt is due. On
 * PostgreSQL both are read `for update skip locked`, so workers in several processes take
 * disjoint rows; on SQLite the write transaction already excludes every other writer.
 */
import type {
  EmailClaim,
  EmailJob,
  EmailJobColumn,
  EmailJobRepository,
  EmailReminderRepository,
  EmailReminderState,
  EmailSettings,
  EmailSettingsRepository,
  Environment,
  EventToFanOut,
  ListQuery,
  Page,
  Scope,
  Subscription,
} from '@drawdown/billing-core';
import type { SqlExecutor } from '../sql/sql-database.js';
import { listPage } from './document-collection.js';
import { eventsToFanOut, hasEventsToFanOut, markFannedOut, placeholders } from './event-fan-out.js';

export class SqlEmailJobRepository implements EmailJobRepository {
  constructor(private readonly sql: SqlExecutor) {}

  async insert(scope: Scope, job: EmailJob, occurrenceKey: string, dueAt: number | null): Promise<boolean> {
    const inserted = await this.sql.run(
      `insert into email_jobs
       (account_id, environment, id, kind, status, customer_id, occurrence_key, due_at, claim_token, body)
       values (${placeholders(10)})
       on conflict (account_id, environment, occurrence_key) do nothing`,
      [
        scope.accountId,
        scope.environment,
        job.id,
        job.kind,
        job.status,
        job.customerId,
        occurrenceKey,
        dueAt,
        null,
        JSON.stringify(job),
      ],
    );
    return inserted > 0;
  }

  async findById(scope: Scope, id: string): Promise<EmailJob | undefined> {
    const row = await this.sql.get<{ body: string }>(
      'select body from email_jobs where account_id = ? and environment = ? and id = ?',
      [scope.accountId, scope.environment, id],
    );
    return row && (JSON.parse(row.body) as EmailJob);
  }

  list(scope: Scope, query: ListQuery<EmailJobColumn>): Promise<Page<EmailJob>> {
    return listPage<EmailJob>(this.sql, 'email_jobs', scope, query, (body) => JSON.parse(body) as EmailJob);
  }

  async hasEventsToFanOut(): Promise<boolean> {
    return hasEventsToFanOut(this.sql, 'emails_fanned_out');
  }

  eventsToFanOut(limit: number): Promise<readonly EventToFanOut[]> {
    return eventsToFanOut(this.sql, 'emails_fanned_out', limit);
  }

  markFannedOut(events: readonly EventToFanOut[]): Promise<void> {
    return markFannedOut(this.sql, 'emails_fanned_out', events);
  }

  async hasDueJobs(now: number, environments: readonly Environment[]): Promise<boolean> {
    const found = await this.sql.get(
      `select 1 as found from email_jobs where due_at <= ? and environment in (${placeholders(environments.length)}) limit 1`,
      [now, ...environments],
    );
    return found !== undefined;
  }

  async claimDue(input: {
    readonly now: number;
    readonly limit: number;
    readonly leaseUntil: number;
    readonly claimToken: string;
    readonly environments: readonly Environment[];
  }): Promise<readonly EmailClaim[]> {
    const { leaseUntil, claimToken } = input;
    // Another worker's claim transaction holds its rows; skip them rather than wait.
    const lock = this.sql.dialect === 'postgres' ? ' for update skip locked' : '';
    const due = await this.sql.all<{ account_id: string; environment: Environment; id: string; body: string }>(
      `select account_id, environment, id, body from email_jobs
       where due_at <= ? and environment in (${placeholders(input.environments.length)})
       order by due_at, id limit ?${lock}`,
      [input.now, ...input.environments, input.limit],
    );
    const claims: EmailClaim[] = [];
    for (const row of due) {
      await this.sql.run(
        'update email_jobs set due_at = ?, claim_token = ? where account_id = ? and environment = ? and id = ?',
        [leaseUntil, claimToken, row.account_id, row.environment, row.id],
      );
      claims.push({
        scope: { accountId: row.account_id, environment: row.environment },
        job: JSON.parse(row.body) as EmailJob,
        claimToken,
      });
    }
    return claims;
  }

  async recordAttempt(claim: EmailClaim, next: EmailJob, dueAt: number | null): Promise<boolean> {
    const updated = await this.sql.run(
      `update email_jobs set status = ?, due_at = ?, claim_token = null, body = ?
       where account_id = ? and environment = ? and id = ? and claim_token = ?`,
      [
        next.status,
        dueAt,
        JSON.stringify(next),
        claim.scope.accountId,
        claim.scope.environment,
        next.id,
        claim.claimToken,
      ],
    );
    return updated > 0;
  }
}

export class SqlEmailSettingsRepository implements EmailSettingsRepository {
  constructor(private readonly sql: SqlExecutor) {}

  async find(scope: Scope): Promise<EmailSettings | undefined> {
    const row = await this.sql.get<{ body: string }>(
      'select body from email_settings where account_id = ? and environment = ?',
      [scope.accountId, scope.environment],
    );
    return row && (JSON.parse(row.body) as EmailSettings);
  }

  async save(scope: Scope, settings: EmailSettings): Promise<void> {
    await this.sql.run(
      `insert into email_settings (account_id, environment, body) values (?, ?, ?)
       on conflict (account_id, environment) do update set body = excluded.body`,
      [scope.accountId, scope.environment, JSON.stringify(settings)],
    );
  }
}

/**
 * Reminder watermarks (ADR 1503) and the subscriptions they walk, in next-charge order on the
 * `subscriptions_by_next_billed_at` index. A scope without a row is due at once: its first run
 * writes one.
 */
export class SqlEmailReminderRepository implements EmailReminderRepository {
  constructor(private readonly sql: SqlExecutor) {}

  async findDueAccounts(environment: Environment, until: string): Promise<readonly string[]> {
    const rows = await this.sql.all<{ account_id: string }>(
      `select account_id from email_reminder_state where environment = ? and due_at <= ?
       union
       select id as account_id from accounts a
       where not exists (select 1 from email_reminder_state r where r.account_id = a.id and r.environment = ?)`,
      [environment, until, environment],
    );
    return rows.map((row) => row.account_id);
  }

  async find(scope: Scope): Promise<EmailReminderState | undefined> {
    const row = await this.sql.get<{ through_at: string; through_id: string; due_at: string }>(
      'select through_at, through_id, due_at from email_reminder_state where account_id = ? and environment = ?',
      [scope.accountId, scope.environment],
    );
    return row && { throughAt: row.through_at, throughId: row.through_id, dueAt: row.due_at };
  }

  async save(scope: Scope, state: EmailReminderState): Promise<void> {
    await this.sql.run(
      `insert into email_reminder_state (account_id, environment, through_at, through_id, due_at)
       values (?, ?, ?, ?, ?)
       on conflict (account_id, environment)
       do update set through_at = excluded.through_at, through_id = excluded.through_id, due_at = excluded.due_at`,
      [scope.accountId, scope.environment, state.throughAt, state.throughId, state.dueAt],
    );
  }

  async chargesAhead(
    scope: Scope,
    after: { readonly at: string; readonly id: string },
    until: string,
    limit: number,
  ): Promise<readonly Subscription[]> {
    const rows = await this.sql.all<{ body: string }>(
      `select body from subscriptions
       where account_id = ? and environment = ? and next_billed_at is not null
         and (next_billed_at > ? or (next_billed_at = ? and id > ?)) and next_billed_at <= ?
       order by next_billed_at, id limit ?`,
      [scope.accountId, scope.environment, after.at, after.at, after.id, until, limit],
    );
    return rows.map((row) => JSON.parse(row.body) as Subscription);
  }

  async firstChargeAfter(scope: Scope, after: string): Promise<string | undefined> {
    const row = await this.sql.get<{ next_billed_at: string }>(
      `select next_billed_at from subscriptions
       where account_id = ? and environment = ? and next_billed_at is not null and next_billed_at > ?
       order by next_billed_at, id limit 1`,
      [scope.accountId, scope.environment, after],
    );
    return row?.next_billed_at;
  }
}
