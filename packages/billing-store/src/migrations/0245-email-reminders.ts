import type { Migration } from './migration.js';

/**
 * Time-driven customer emails (ADR 1503): each account environment's reminder watermark. The
 * reminder step reads subscriptions in next-charge order from `through_at`/`through_id` up to
 * its clock's now plus the lead time, writes the reminders' email jobs (their occurrence keys
 * make each reminder once), and moves the watermark; `due_at` (on the environment's clock) is
 * when the scope next has a reminder to consider, so the scheduler finds due scopes cheaply.
 */
export const emailReminders: Migration = {
  id: '0245-email-reminders',
  statements: () => [
    `create table email_reminder_state (
  account_id text not null,
  environment text not null,
  through_at text not null,
  through_id text not null,
  due_at text not null,
  primary key (account_id, environment)
)`,
    'create index email_reminder_state_due on email_reminder_state (environment, due_at)',
  ],
};
