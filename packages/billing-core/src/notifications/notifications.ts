/**
 * @module
 * Reading notifications and their delivery logs, and replaying one: a replay is a new
 * notification (origin `replay`) of the same event to the same destination, so a receiver
 * that deduplicates on `event_id` treats it as the event it already knows.
 */
import { BillingError } from '../shared/billing-error.js';
import { type Context, nowTimestamp } from '../shared/context.js';
import type { ListQuery, Page } from '../shared/pagination.js';
import type { Notification, NotificationLog } from './entities.js';
import type {
  NotificationColumn,
  NotificationLogColumn,
  NotificationSlice,
  NotificationWithEvent,
} from './repositories.js';

// Replays are due at once, whatever the wall clock says; 0 also puts them ahead of older work.
const DUE_IMMEDIATELY = 0;

export async function getNotification(context: Context<NotificationSlice>, id: string): Promise<NotificationWithEvent> {
  const found = await context.store.notifications.findById(context.scope, id);
  if (!found) throw BillingError.notFound('Notification', id);
  return found;
}

export function listNotifications(
  context: Context<NotificationSlice>,
  query: ListQuery<NotificationColumn>,
): Promise<Page<NotificationWithEvent>> {
  return context.store.notifications.list(context.scope, query);
}

/** The attempts made to deliver one notification, one log each. */
export async function listNotificationLogs(
  context: Context<NotificationSlice>,
  notificationId: string,
  query: ListQuery<NotificationLogColumn>,
): Promise<Page<NotificationLog>> {
  await getNotification(context, notificationId);
  return context.store.notifications.listLogs(context.scope, notificationId, query);
}

/** Sends a notification's event to its destination again, as a new notification. */
export async function replayNotification(
  context: Context<NotificationSlice>,
  id: string,
): Promise<{ readonly notificationId: string }> {
  return context.store.transaction(async (tx) => {
    const found = await tx.notifications.findById(context.scope, id);
    if (!found) throw BillingError.notFound('Notification', id);
    const original = found.notification;
    const setting = await tx.notificationSettings.findById(context.scope, original.notificationSettingId);
    if (!setting) {
      throw new BillingError(
        'notification_setting_not_found',
        `Notification ${id} cannot be replayed: its destination ${original.notificationSettingId} was deleted.`,
      );
    }
    const now = nowTimestamp(context);
    const replay: Notification = {
      id: context.ids.newId('ntf'),
      type: original.type,
      status: 'not_attempted',
      eventId: original.eventId,
      occurredAt: now,
      deliveredAt: null,
      replayedAt: null,
      origin: 'replay',
      lastAttemptAt: null,
      retryAt: null,
      timesAttempted: 0,
      notificationSettingId: original.notificationSettingId,
      replayOf: original.id,
    };
    await tx.notifications.insert(context.scope, replay, DUE_IMMEDIATELY);
    await tx.notifications.markReplayed(context.scope, original.id, now);
    return { notificationId: replay.id };
  });
}
