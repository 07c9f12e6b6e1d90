import type { Migration } from './migration.js';
import { columnTypes, documentTable } from './migration.js';

/**
 * Notification destinations, notifications with their delivery state, delivery logs, and the
 * outbox marker that says an event has been fanned out into notifications (ADR 0505).
 */
export const notifications: Migration = {
  id: '0005-notifications',
  statements: (dialect) => {
    const types = columnTypes(dialect);
    return [
      `alter table events add column fanned_out ${types.boolean} not null default 0`,
      // No destination existed before this migration, so no earlier event has anyone to go to.
      'update events set fanned_out = 1',
      'create index events_awaiting_fan_out on events (sequence) where fanned_out = 0',
      documentTable('notification_settings', ['active', 'traffic_source']),
      'create index notification_settings_by_active on notification_settings (account_id, environment, active, id)',
      `create table notifications (
  account_id text not null,
  environment text not null,
  id text not null,
  notification_setting_id text not null,
  event_id text not null,
  type text not null,
  status text not null,
  origin text not null,
  occurred_at text not null,
  delivered_at text,
  replayed_at text,
  last_attempt_at text,
  retry_at text,
  times_attempted ${types.integer} not null,
  replay_of text,
  due_at ${types.integer},
  claim_token text,
  primary key (account_id, environment, id)
)`,
      // Only undelivered notifications have a due time, so the claim scans a small index.
      'create index notifications_due on notifications (due_at, notification_setting_id) where due_at is not null',
      'create index notifications_by_setting on notifications (account_id, environment, notification_setting_id, id)',
      'create index notifications_by_status on notifications (account_id, environment, status, id)',
      `create table notification_logs (
  account_id text not null,
  environment text not null,
  id text not null,
  notification_id text not null,
  response_code ${types.integer} not null,
  response_content_type text,
  response_body text not null,
  attempted_at text not null,
  primary key (account_id, environment, id)
)`,
      'create index notification_logs_by_notification on notification_logs (account_id, environment, notification_id, id)',
    ];
  },
};
