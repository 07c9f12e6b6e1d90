/**
 * @module
 * Storage ports of notifications. Delivery state lives beside each notification: `dueAt` (wall
 * clock milliseconds) says when the next attempt may start, and a claim token fences the one
 * worker that holds the current attempt (ADR 0505).
 */
import type { EventRepositories } from '../events/repositories.js';
import type { StoredEvent } from '../events/stored-event.js';
import type { Collection } from '../shared/collection.js';
import type { ListQuery, Page } from '../shared/pagination.js';
import type { Scope } from '../shared/scope.js';
import type { Notification, NotificationLog, NotificationSetting } from './entities.js';

export type NotificationSettingColumn = 'id' | 'active' | 'traffic_source';
/**
 * `mentions` is not a column: it selects notifications whose event's payload names the given id
 * (a transaction, customer, subscription… id), the reference's `filter` (ADR 1101).
 */
export type NotificationColumn =
  | 'id'
  | 'status'
  | 'notification_setting_id'
  | 'type'
  | 'event_id'
  | 'occurred_at'
  | 'mentions';
export type NotificationLogColumn = 'id';

export interface NotificationSettingRepository extends Collection<NotificationSetting, NotificationSettingColumn> {
  /** Deletes the setting; false when there was none. */
  delete(scope: Scope, id: string): Promise<boolean>;
}

/** A notification with the event it carries. */
export interface NotificationWithEvent {
  readonly notification: Notification;
  readonly event: StoredEvent;
}

/** An outbox event that has not yet been turned into notifications. */
export interface EventToFanOut {
  readonly scope: Scope;
  readonly event: StoredEvent;
  /** Opaque position of the event in the outbox. */
  readonly sequence: number;
}

/** A due notification a claim may take. */
export interface DueNotification {
  readonly scope: Scope;
  readonly id: string;
  readonly notificationSettingId: string;
}

/** A notification held by one worker for one attempt. */
export interface DeliveryClaim {
  readonly scope: Scope;
  readonly notification: Notification;
  readonly event: StoredEvent;
  readonly setting: NotificationSetting;
  readonly claimToken: string;
}

export interface NotificationRepository {
  /** Adds a notification; `dueAt` is when its first attempt may start. */
  insert(scope: Scope, notification: Notification, dueAt: number): Promise<void>;
  /** Sets `replayed_at` of a notification, leaving its delivery state alone. */
  markReplayed(scope: Scope, id: string, replayedAt: string): Promise<void>;
  findById(scope: Scope, id: string): Promise<NotificationWithEvent | undefined>;
  list(scope: Scope, query: ListQuery<NotificationColumn>): Promise<Page<NotificationWithEvent>>;
  listLogs(
    scope: Scope,
    notificationId: string,
    query: ListQuery<NotificationLogColumn>,
  ): Promise<Page<NotificationLog>>;
  /** Marks every undelivered notification of a destination failed and stops its attempts. */
  failUndelivered(scope: Scope, notificationSettingId: string): Promise<number>;

  /** Whether any outbox event awaits fan-out: a cheap read, so idle workers take no write lock. */
  hasEventsToFanOut(): Promise<boolean>;
  /** Whether any notification is due at `now`: a cheap read, so idle workers take no write lock. */
  hasDueNotifications(now: number): Promise<boolean>;

  /**
   * Events of every account not yet fanned out, oldest first. Inside a transaction on
   * PostgreSQL they stay locked until commit, and rows another transaction holds are skipped.
   */
  eventsToFanOut(limit: number): Promise<readonly EventToFanOut[]>;
  markFannedOut(events: readonly EventToFanOut[]): Promise<void>;

  /**
   * Due notifications of active destinations of every account, oldest due first, leaving out
   * `excludedSettingIds`. Inside a transaction on PostgreSQL they stay locked until commit,
   * and rows another transaction holds are skipped.
   */
  dueNotifications(input: {
    readonly now: number;
    readonly limit: number;
    readonly excludedSettingIds: readonly string[];
  }): Promise<readonly DueNotification[]>;
  /** Takes the notifications for one attempt: pushes `dueAt` to `leaseUntil` and sets the token. */
  claim(
    notifications: readonly DueNotification[],
    leaseUntil: number,
    claimToken: string,
  ): Promise<readonly DeliveryClaim[]>;
  /**
   * Records an attempt's result and log if `claim` still holds the notification; false (and
   * nothing written) when its lease ran out and another worker took it.
   */
  recordAttempt(claim: DeliveryClaim, next: Notification, dueAt: number | null, log: NotificationLog): Promise<boolean>;
}

/** The repositories notifications own. */
export interface NotificationRepositories {
  readonly notificationSettings: NotificationSettingRepository;
  readonly notifications: NotificationRepository;
}

/** What notifications use: their repositories and the event log they fan out. */
export interface NotificationSlice extends NotificationRepositories, EventRepositories {}
