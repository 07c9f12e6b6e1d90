import type { Migration } from './migration.js';

/** `GET /events` names each event's first notification (`notification_id`, issue 36). */
export const notificationsByEvent: Migration = {
  id: '0248-notifications-by-event',
  statements: () => ['create index notifications_by_event on notifications (account_id, environment, event_id, id)'],
};
