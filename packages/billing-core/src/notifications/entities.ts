/**
 * @module
 * Notification destinations (settings), the notifications made for them from events, and the
 * log of each delivery attempt.
 */

export const NOTIFICATION_SETTING_TYPES = ['url', 'email'] as const;
/** `email` is a type of the reference API that this service refuses (ADR 0502). */
export type NotificationSettingType = (typeof NOTIFICATION_SETTING_TYPES)[number];

export const TRAFFIC_SOURCES = ['platform', 'simulation', 'all'] as const;
export type TrafficSource = (typeof TRAFFIC_SOURCES)[number];

/** A url destination and the event types it receives. */
export interface NotificationSetting {
  readonly id: string;
  readonly description: string;
  readonly type: 'url';
  readonly destination: string;
  readonly active: boolean;
  readonly apiVersion: number;
  readonly includeSensitiveFields: boolean;
  readonly trafficSource: TrafficSource;
  /** Event type names; the wire shows them as objects. */
  readonly subscribedEvents: readonly string[];
  /** `pdl_ntfset_<26>_<32>`; the HMAC key of every signature sent to this destination. */
  readonly endpointSecretKey: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export const NOTIFICATION_STATUSES = ['not_attempted', 'needs_retry', 'delivered', 'failed'] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

export const NOTIFICATION_ORIGINS = ['event', 'replay'] as const;
export type NotificationOrigin = (typeof NOTIFICATION_ORIGINS)[number];

/** One event on its way to one destination. */
export interface Notification {
  readonly id: string;
  /** The event type. */
  readonly type: string;
  readonly status: NotificationStatus;
  readonly eventId: string;
  readonly occurredAt: string;
  readonly deliveredAt: string | null;
  /** When this notification was last replayed (the replay is a new notification). */
  readonly replayedAt: string | null;
  readonly origin: NotificationOrigin;
  readonly lastAttemptAt: string | null;
  readonly retryAt: string | null;
  readonly timesAttempted: number;
  readonly notificationSettingId: string;
  /** For a replay, the notification it replays. */
  readonly replayOf: string | null;
}

/** One delivery attempt. `responseCode` 0 means no HTTP response came (ADR 0504). */
export interface NotificationLog {
  readonly id: string;
  readonly notificationId: string;
  readonly responseCode: number;
  readonly responseContentType: string | null;
  readonly responseBody: string;
  readonly attemptedAt: string;
}

/** What a delivery attempt came to. */
export type DeliveryOutcome =
  | {
      readonly kind: 'response';
      readonly statusCode: number;
      readonly contentType: string | null;
      readonly body: string;
    }
  | {
      readonly kind: 'failure';
      readonly reason: string;
      /** The destination was refused before any connection was made (ADR 1485): nothing was sent. */
      readonly refused?: true | undefined;
    };
