/**
 * @module
 * Wire forms of notification settings and notifications: `subscribed_events` as objects, and a
 * notification's `payload` exactly as its webhook body.
 */
import {
  describeEventType,
  type NotificationSetting,
  type NotificationWithEvent,
  type Page,
} from '@drawdown/billing-core';
import { webhookPayload } from '../../workers/webhook-delivery/webhook-body.js';

/** A setting as the reference shows it; the endpoint secret key included (ADR 0502). */
export function presentNotificationSetting(setting: NotificationSetting): unknown {
  return {
    id: setting.id,
    description: setting.description,
    type: setting.type,
    destination: setting.destination,
    active: setting.active,
    apiVersion: setting.apiVersion,
    includeSensitiveFields: setting.includeSensitiveFields,
    trafficSource: setting.trafficSource,
    subscribedEvents: setting.subscribedEvents.map(describeEventType),
    endpointSecretKey: setting.endpointSecretKey,
  };
}

/** A notification as the reference shows it. */
export interface PresentedNotification extends Record<string, unknown> {
  readonly id: string;
}

export function presentNotification(
  { notification, event }: NotificationWithEvent,
  portalUrl?: string,
): PresentedNotification {
  return {
    id: notification.id,
    type: notification.type,
    status: notification.status,
    payload: webhookPayload(event, notification.id, portalUrl),
    occurredAt: notification.occurredAt,
    deliveredAt: notification.deliveredAt,
    replayedAt: notification.replayedAt,
    origin: notification.origin,
    lastAttemptAt: notification.lastAttemptAt,
    retryAt: notification.retryAt,
    timesAttempted: notification.timesAttempted,
    notificationSettingId: notification.notificationSettingId,
  };
}

export function presentNotificationPage(
  page: Page<NotificationWithEvent>,
  portalUrl?: string,
): Page<PresentedNotification> {
  return { ...page, items: page.items.map((item) => presentNotification(item, portalUrl)) };
}
