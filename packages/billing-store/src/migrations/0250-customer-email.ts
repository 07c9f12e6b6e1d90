import type { Migration } from './migration.js';
import { columnTypes } from './migration.js';

/**
 * Customer email (ADR 1500): the outbox marker that says an event has been fanned out into email
 * jobs, the jobs with their delivery state (one per occurrence key), and each account
 * environment's email settings.
 */
export const customerEmail: Migration = {
  id: '0250-customer-email',
  statements: (dialect) => {
    const types = columnTypes(dialect);
    return [
      `alter table events add column emails_fanned_out ${types.boolean} not null default 0`,
      // Events recorded before email existed are history: nobody is mailed about them now.
      'update events set emails_fanned_out = 1',
      'create index events_awaiting_email_fan_out on events (sequence) where emails_fanned_out = 0',
      `create table email_jobs (
  account_id text not null,
  environment text not null,
  id text not null,
  kind text not null,
  status text not null,
  customer_id text not null,
  occurrence_key text not null,
  due_at ${types.integer},
  claim_token text,
  body text not null,
  primary key (account_id, environment, id)
)`,
      'create unique index email_jobs_by_occurrence on email_jobs (account_id, environment, occurrence_key)',
      // Only jobs still to attempt have a due time, so the claim scans a small index.
      'create index email_jobs_due on email_jobs (due_at) where due_at is not null',
      'create index email_jobs_by_customer on email_jobs (account_id, environment, customer_id, id)',
      `create table email_settings (
  account_id text not null,
  environment text not null,
  body text not null,
  primary key (account_id, environment)
)`,
    ];
  },
};
