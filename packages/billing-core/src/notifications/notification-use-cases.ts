/**
 * @module
 * The use cases of notifications, bound once: notification settings (webhook destinations), the
 * notifications and their logs, and the delivery worker's steps.
 */
import type { Context } from '../shared/context.js';
import type { UseCaseBase } from '../shared/use-case-base.js';
import {
  type ClaimInput,
  claimDueNotifications,
  type FinishedAttempt,
  fanOutEvents,
  recordDeliveryAttempts,
} from './delivery.js';
import {
  createNotificationSetting,
  type DestinationPolicy,
  deleteNotificationSetting,
  getNotificationSetting,
  listNotificationSettings,
  type NotificationSettingContext,
  rotateNotificationSettingSecret,
  type SecretSource,
  updateNotificationSetting,
} from './notification-settings.js';
import { getNotification, listNotificationLogs, listNotifications, replayNotification } from './notifications.js';
import type { NotificationSlice } from './repositories.js';

/** What notifications need from the outside world. */
export interface NotificationPorts {
  /** Randomness for endpoint secrets. */
  readonly secrets: SecretSource;
  /** Which webhook destinations may be saved. */
  readonly webhookDestinations: DestinationPolicy;
}

export function notificationUseCases(base: UseCaseBase<Context<NotificationSlice>>, ports: NotificationPorts) {
  const { bind } = base;
  const settingContext = (context: Context<NotificationSlice>): NotificationSettingContext => ({
    ...context,
    secrets: ports.secrets,
    destinations: ports.webhookDestinations,
  });
  const delivery = { store: base.store, ids: base.ids, wallClock: base.wallClock };
  return {
    createNotificationSetting: bind((context, input: Parameters<typeof createNotificationSetting>[1]) =>
      createNotificationSetting(settingContext(context), input),
    ),
    updateNotificationSetting: bind((context, id: string, input: Parameters<typeof updateNotificationSetting>[2]) =>
      updateNotificationSetting(settingContext(context), id, input),
    ),
    rotateNotificationSettingSecret: bind((context, id: string) =>
      rotateNotificationSettingSecret(settingContext(context), id),
    ),
    deleteNotificationSetting: bind(deleteNotificationSetting),
    getNotificationSetting: bind(getNotificationSetting),
    listNotificationSettings: bind(listNotificationSettings),
    getNotification: bind(getNotification),
    listNotifications: bind(listNotifications),
    listNotificationLogs: bind(listNotificationLogs),
    replayNotification: bind(replayNotification),
    /** The delivery worker's steps: fan events out to destinations, claim due notifications, record attempts. */
    fanOutEvents: (limit: number) => fanOutEvents(delivery, limit),
    claimDueNotifications: (input: ClaimInput) => claimDueNotifications(delivery, input),
    recordDeliveryAttempts: (attempts: readonly FinishedAttempt[]) => recordDeliveryAttempts(delivery, attempts),
  };
}
