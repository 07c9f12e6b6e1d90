/**
 * @module
 * Event types, notification settings (webhook destinations) and notifications (section 10).
 */
import type { DrawdownEvent } from './events.js';
import type { PageParams } from './shared.js';

export interface EventType {
  readonly name: string;
  readonly description: string;
  readonly group: string;
  readonly availableVersions: readonly number[];
}

export type TrafficSource = 'platform' | 'simulation' | 'all';

export interface NotificationSetting {
  readonly id: string;
  readonly description: string;
  readonly type: 'url' | 'email';
  readonly destination: string;
  readonly active: boolean;
  readonly apiVersion: number;
  readonly includeSensitiveFields: boolean;
  readonly trafficSource: TrafficSource;
  /** The secret that signs this destination's webhooks (`pdl_ntfset_…`). */
  readonly endpointSecretKey: string;
  readonly subscribedEvents: readonly EventType[];
}

export interface CreateNotificationSettingInput {
  readonly description: string;
  readonly destination: string;
  /** Event type names, such as `usage_balance.depleted`. */
  readonly subscribedEvents: readonly string[];
  /** Defaults to `url`. */
  readonly type?: 'url' | 'email';
  readonly apiVersion?: number;
  readonly includeSensitiveFields?: boolean;
  readonly trafficSource?: TrafficSource;
}

export interface UpdateNotificationSettingInput {
  readonly description?: string;
  readonly destination?: string;
  readonly active?: boolean;
  readonly apiVersion?: number;
  readonly includeSensitiveFields?: boolean;
  readonly subscribedEvents?: readonly string[];
  readonly trafficSource?: TrafficSource;
}

export interface ListNotificationSettingsParams extends PageParams {
  readonly active?: boolean;
  readonly trafficSource?: TrafficSource;
}

export type NotificationStatus = 'not_attempted' | 'needs_retry' | 'delivered' | 'failed';

export interface ListNotificationsParams extends PageParams {
  readonly notificationSettingId?: readonly string[];
  readonly status?: readonly NotificationStatus[];
  readonly eventType?: readonly string[];
  readonly search?: string;
}

export interface NotificationLog {
  readonly id: string;
  readonly responseCode: number | null;
  readonly responseContentType: string | null;
  readonly responseBody: string | null;
  readonly attemptedAt: string;
}

/** One event's delivery to one destination. */
export interface Notification {
  readonly id: string;
  readonly type: string;
  readonly status: NotificationStatus;
  /** The event delivered, parsed as a webhook body would be. */
  readonly payload: DrawdownEvent;
  readonly occurredAt: string;
  readonly deliveredAt: string | null;
  readonly replayedAt: string | null;
  readonly origin: 'event' | 'replay';
  readonly lastAttemptAt: string | null;
  readonly retryAt: string | null;
  readonly timesAttempted: number;
  readonly notificationSettingId: string;
}
