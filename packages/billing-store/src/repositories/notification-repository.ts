/**
 * @module
 * Notifications and their delivery logs, and the two queues the delivery worker takes work
 * from: outbox events not yet fanned out, and notifications whose next attempt is due. On
 * PostgreSQL both are read `for update skip locked`, so workers in several processes take
 * disjoint rows; on SQLite the write transaction already excludes every other writer.
 */
import type {
  DeliveryClaim,
  DueNotification,
  Environment,
  EventToFanOut,
  ListQuery,
  Notification,
  NotificationColumn,
  NotificationLog,
  NotificationLogColumn,
  NotificationOrigin,
  NotificationRepository,
  NotificationSetting,
  NotificationStatus,
  NotificationWithEvent,
  Page,
  Scope,
  StoredEvent,
} from '@drawdown/billing-core';
import type { SqlExecutor } from '../sql/sql-database.js';
import { filterClauses, queryClauses, scopedRowsPage } from './document-collection.js';
import { eventsToFanOut, hasEventsToFanOut, markFannedOut, placeholders } from './event-fan-out.js';

interface NotificationRow extends Record<string, unknown> {
  account_id: string;
  environment: Environment;
  id: string;
  notification_setting_id: string;
  event_id: string;
  type: string;
  status: NotificationStatus;
  origin: NotificationOrigin;
  occurred_at: string;
  delivered_at: string | null;
  replayed_at: string | null;
  last_attempt_at: string | null;
  retry_at: string | null;
  times_attempted: number | string;
  replay_of: string | null;
}

interface LogRow extends Record<string, unknown> {
  id: string;
  notification_id: string;
  response_code: number | string;
  response_content_type: string | null;
  response_body: string;
  attempted_at: string;
}

const NOTIFICATION_COLUMNS =
  'account_id, environment, id, notification_setting_id, event_id, type, status, origin, occurred_at, ' +
  'delivered_at, replayed_at, last_attempt_at, retry_at, times_attempted, replay_of';

function toNotification(row: NotificationRow): Notification {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    eventId: row.event_id,
    occurredAt: row.occurred_at,
    deliveredAt: row.delivered_at,
    replayedAt: row.replayed_at,
    origin: row.origin,
    lastAttemptAt: row.last_attempt_at,
    retryAt: row.retry_at,
    timesAttempted: Number(row.times_attempted),
    notificationSettingId: row.notification_setting_id,
    replayOf: row.replay_of,
  };
}

function toLog(row: LogRow): NotificationLog {
  return {
    id: row.id,
    notificationId: row.notification_id,
    responseCode: Number(row.response_code),
    responseContentType: row.response_content_type,
    responseBody: row.response_body,
    attemptedAt: row.attempted_at,
  };
}

export class SqlNotificationRepository implements NotificationRepository {
  constructor(private readonly sql: SqlExecutor) {}

  async insert(scope: Scope, notification: Notification, dueAt: number): Promise<void> {
    await this.sql.run(
      `insert into notifications (${NOTIFICATION_COLUMNS}, due_at, claim_token)
       values (${placeholders(17)})`,
      [
        scope.accountId,
        scope.environment,
        notification.id,
        notification.notificationSettingId,
        notification.eventId,
        notification.type,
        notification.status,
        notification.origin,
        notification.occurredAt,
        notification.deliveredAt,
        notification.replayedAt,
        notification.lastAttemptAt,
        notification.retryAt,
        notification.timesAttempted,
        notification.replayOf,
        dueAt,
        null,
      ],
    );
  }

  async markReplayed(scope: Scope, id: string, replayedAt: string): Promise<void> {
    await this.sql.run('update notifications set replayed_at = ? where account_id = ? and environment = ? and id = ?', [
      replayedAt,
      scope.accountId,
      scope.environment,
      id,
    ]);
  }

  async findById(scope: Scope, id: string): Promise<NotificationWithEvent | undefined> {
    const row = await this.sql.get<NotificationRow>(
      `select ${NOTIFICATION_COLUMNS} from notifications where account_id = ? and environment = ? and id = ?`,
      [scope.accountId, scope.environment, id],
    );
    if (!row) return undefined;
    const [found] = await this.withEvents(scope, [row]);
    return found;
  }

  async list(scope: Scope, query: ListQuery<NotificationColumn>): Promise<Page<NotificationWithEvent>> {
    const { mentions, ...filter } = query.filter;
    const conditions = queryClauses({ filter, anyOf: query.anyOf });
    for (const condition of mentions ?? []) {
      if (condition.op !== 'eq' || typeof condition.value !== 'string') continue;
      // An id appears in an event's stored JSON as a quoted string; ids never hold quotes or wildcards.
      conditions.sql.push(
        'event_id in (select id from events where account_id = ? and environment = ? and body like ?)',
      );
      conditions.params.push(scope.accountId, scope.environment, `%"${condition.value}"%`);
    }
    const page = await scopedRowsPage<NotificationRow>(
      this.sql,
      'notifications',
      NOTIFICATION_COLUMNS,
      scope,
      conditions,
      query,
    );
    return {
      items: await this.withEvents(scope, page.items),
      hasMore: page.hasMore,
      estimatedTotal: page.estimatedTotal,
    };
  }

  async listLogs(
    scope: Scope,
    notificationId: string,
    query: ListQuery<NotificationLogColumn>,
  ): Promise<Page<NotificationLog>> {
    const filter = filterClauses(query.filter);
    const page = await scopedRowsPage<LogRow>(
      this.sql,
      'notification_logs',
      'id, notification_id, response_code, response_content_type, response_body, attempted_at',
      scope,
      { sql: ['notification_id = ?', ...filter.sql], params: [notificationId, ...filter.params] },
      query,
    );
    return { ...page, items: page.items.map(toLog) };
  }

  failUndelivered(scope: Scope, notificationSettingId: string): Promise<number> {
    return this.sql.run(
      `update notifications set status = 'failed', retry_at = null, due_at = null, claim_token = null
       where account_id = ? and environment = ? and notification_setting_id = ?
         and status in ('not_attempted', 'needs_retry')`,
      [scope.accountId, scope.environment, notificationSettingId],
    );
  }

  async hasEventsToFanOut(): Promise<boolean> {
    return hasEventsToFanOut(this.sql, 'fanned_out');
  }

  async hasDueNotifications(now: number): Promise<boolean> {
    const found = await this.sql.get('select 1 as found from notifications where due_at <= ? limit 1', [now]);
    return found !== undefined;
  }

  eventsToFanOut(limit: number): Promise<readonly EventToFanOut[]> {
    return eventsToFanOut(this.sql, 'fanned_out', limit);
  }

  markFannedOut(events: readonly EventToFanOut[]): Promise<void> {
    return markFannedOut(this.sql, 'fanned_out', events);
  }

  async dueNotifications(input: {
    readonly now: number;
    readonly limit: number;
    readonly excludedSettingIds: readonly string[];
  }): Promise<readonly DueNotification[]> {
    const excluded =
      input.excludedSettingIds.length > 0
        ? ` and n.notification_setting_id not in (${placeholders(input.excludedSettingIds.length)})`
        : '';
    // Another worker's claim transaction holds its rows; skip them rather than wait.
    const lock = this.sql.dialect === 'postgres' ? ' for update of n skip locked' : '';
    const rows = await this.sql.all<{
      account_id: string;
      environment: Environment;
      id: string;
      notification_setting_id: string;
    }>(
      `select n.account_id, n.environment, n.id, n.notification_setting_id
       from notifications n
       join notification_settings s
         on s.account_id = n.account_id and s.environment = n.environment and s.id = n.notification_setting_id
       where n.due_at <= ? and s.active = 'true'${excluded}
       order by n.due_at, n.id
       limit ?${lock}`,
      [input.now, ...input.excludedSettingIds, input.limit],
    );
    return rows.map((row) => ({
      scope: { accountId: row.account_id, environment: row.environment },
      id: row.id,
      notificationSettingId: row.notification_setting_id,
    }));
  }

  async claim(
    notifications: readonly DueNotification[],
    leaseUntil: number,
    claimToken: string,
  ): Promise<readonly DeliveryClaim[]> {
    const claims: DeliveryClaim[] = [];
    for (const due of notifications) {
      const scopeParams = [due.scope.accountId, due.scope.environment];
      await this.sql.run(
        'update notifications set due_at = ?, claim_token = ? where account_id = ? and environment = ? and id = ?',
        [leaseUntil, claimToken, ...scopeParams, due.id],
      );
      const found = await this.findById(due.scope, due.id);
      const setting = await this.sql.get<{ body: string }>(
        'select body from notification_settings where account_id = ? and environment = ? and id = ?',
        [...scopeParams, due.notificationSettingId],
      );
      if (!found || !setting) throw new Error(`Claimed notification ${due.id} lost its event or destination.`);
      claims.push({
        scope: due.scope,
        notification: found.notification,
        event: found.event,
        setting: JSON.parse(setting.body) as NotificationSetting,
        claimToken,
      });
    }
    return claims;
  }

  async recordAttempt(
    claim: DeliveryClaim,
    next: Notification,
    dueAt: number | null,
    log: NotificationLog,
  ): Promise<boolean> {
    const { scope } = claim;
    const updated = await this.sql.run(
      `update notifications
       set status = ?, delivered_at = ?, last_attempt_at = ?, retry_at = ?, times_attempted = ?, due_at = ?,
           claim_token = null
       where account_id = ? and environment = ? and id = ? and claim_token = ?`,
      [
        next.status,
        next.deliveredAt,
        next.lastAttemptAt,
        next.retryAt,
        next.timesAttempted,
        dueAt,
        scope.accountId,
        scope.environment,
        next.id,
        claim.claimToken,
      ],
    );
    if (updated === 0) return false;
    await this.sql.run(
      `insert into notification_logs
       (account_id, environment, id, notification_id, response_code, response_content_type, response_body, attempted_at)
       values (${placeholders(8)})`,
      [
        scope.accountId,
        scope.environment,
        log.id,
        log.notificationId,
        log.responseCode,
        log.responseContentType,
        log.responseBody,
        log.attemptedAt,
      ],
    );
    return true;
  }

  /** Pairs each row with its event, read in one query. */
  private async withEvents(scope: Scope, rows: readonly NotificationRow[]): Promise<NotificationWithEvent[]> {
    if (rows.length === 0) return [];
    const eventIds = [...new Set(rows.map((row) => row.event_id))];
    const events = await this.sql.all<{ id: string; body: string }>(
      `select id, body from events where account_id = ? and environment = ? and id in (${placeholders(eventIds.length)})`,
      [scope.accountId, scope.environment, ...eventIds],
    );
    const byId = new Map(events.map((event) => [event.id, JSON.parse(event.body) as StoredEvent]));
    return rows.map((row) => {
      const event = byId.get(row.event_id);
      if (!event) throw new Error(`Notification ${row.id} refers to a missing event ${row.event_id}.`);
      return { notification: toNotification(row), event };
    });
  }
}
