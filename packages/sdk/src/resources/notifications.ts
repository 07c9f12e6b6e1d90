/**
 * @module
 * Notification settings (webhook destinations) and notifications (deliveries, their logs, and
 * replay).
 */
import type { Collection } from '../core/collection.js';
import type { RequestOptions } from '../core/http-client.js';
import { fromWire } from '../core/wire-case.js';
import { parseEvent } from '../types/events.js';
import type {
  CreateNotificationSettingInput,
  ListNotificationSettingsParams,
  ListNotificationsParams,
  Notification,
  NotificationLog,
  NotificationSetting,
  UpdateNotificationSettingInput,
} from '../types/notifications.js';
import type { PageParams } from '../types/shared.js';
import { Resource, segment } from './resource.js';

export class NotificationSettingsResource extends Resource {
  /** Lists destinations; one page unless the service pages them. */
  list(params?: ListNotificationSettingsParams, options?: RequestOptions): Collection<NotificationSetting> {
    return this.collection<NotificationSetting>('/notification-settings', params, options);
  }

  /** Creates a destination; its `endpointSecretKey` verifies the webhooks it receives. */
  create(input: CreateNotificationSettingInput, options?: RequestOptions): Promise<NotificationSetting> {
    // The service requires a type; URL destinations are the only kind it delivers to.
    return this.data({ method: 'POST', path: '/notification-settings', body: { type: 'url', ...input }, ...options });
  }

  get(id: string, options?: RequestOptions): Promise<NotificationSetting> {
    return this.data({ method: 'GET', path: `/notification-settings/${segment(id)}`, ...options });
  }

  update(id: string, input: UpdateNotificationSettingInput, options?: RequestOptions): Promise<NotificationSetting> {
    return this.data({ method: 'PATCH', path: `/notification-settings/${segment(id)}`, body: input, ...options });
  }

  /** Issues a new `endpointSecretKey`; webhooks are signed with it from now on. */
  rotateSecret(id: string, options?: RequestOptions): Promise<NotificationSetting> {
    return this.data({ method: 'POST', path: `/notification-settings/${segment(id)}/rotate-secret`, ...options });
  }

  async delete(id: string, options?: RequestOptions): Promise<void> {
    await this.http.send({ method: 'DELETE', path: `/notification-settings/${segment(id)}`, ...options });
  }
}

function readNotification(wire: unknown): Notification {
  const notification = fromWire<Record<string, unknown>>(wire);
  const payload = (wire as { payload?: unknown }).payload;
  return {
    ...notification,
    payload: parseEvent(payload !== null && typeof payload === 'object' ? payload : {}),
  } as unknown as Notification;
}

export class NotificationsResource extends Resource {
  list(params?: ListNotificationsParams, options?: RequestOptions): Collection<Notification> {
    return this.collection<Notification>('/notifications', params, options, readNotification);
  }

  async get(id: string, options?: RequestOptions): Promise<Notification> {
    const response = await this.http.send({ method: 'GET', path: `/notifications/${segment(id)}`, ...options });
    return readNotification(response.body?.data);
  }

  /** Every delivery attempt of one notification. */
  listLogs(id: string, params?: PageParams, options?: RequestOptions): Collection<NotificationLog> {
    return this.collection<NotificationLog>(`/notifications/${segment(id)}/logs`, params, options);
  }

  /** Delivers the notification again; answers with the new notification's id. */
  replay(id: string, options?: RequestOptions): Promise<{ readonly notificationId: string }> {
    return this.data({ method: 'POST', path: `/notifications/${segment(id)}/replay`, ...options });
  }
}
