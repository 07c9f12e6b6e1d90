import {
  BillingError,
  type FilterCondition,
  ID_PREFIXES,
  isIdOf,
  type ListFilter,
  NOTIFICATION_STATUSES,
  type NotificationColumn,
  type NotificationLogColumn,
  parseTimestamp,
  toTimestamp,
} from '@drawdown/billing-core';
import type { Context, Hono } from 'hono';
import type { AppEnv } from '../app-env.js';
import { respond, respondPage } from '../envelope.js';
import { type ListSpec, parseListParams } from '../list-params.js';
import { need, pathId } from '../route-helpers.js';
import { presentNotification, presentNotificationPage } from './notification-presenters.js';

const listSpec: ListSpec<NotificationColumn> = {
  idPrefix: 'ntf',
  defaultPerPage: 50,
  maxPerPage: 200,
  filters: {
    notification_setting_id: { kind: 'ids', column: 'notification_setting_id', prefix: 'ntfset' },
    status: { kind: 'enum', column: 'status', values: NOTIFICATION_STATUSES },
  },
  // Read by `notificationSearch` (ADR 1101).
  handledElsewhere: ['search', 'filter', 'from', 'to'],
};

function instant(c: Context<AppEnv>, name: 'from' | 'to'): string | undefined {
  const raw = c.req.query(name);
  if (raw === undefined) return undefined;
  const parsed = parseTimestamp(raw, { utcOnly: false });
  if (!parsed) throw BillingError.invalidField(name, 'must be an RFC 3339 date-time such as 2026-01-31T00:00:00Z');
  return toTimestamp(parsed.epochMs);
}

/**
 * The reference's `search` (the notification's id, event id or event type, as a substring),
 * `filter` (an entity id the event's payload names), `from` (inclusive) and `to` (exclusive),
 * both on the time the event occurred.
 */
function notificationSearch(c: Context<AppEnv>): {
  filter: ListFilter<NotificationColumn>;
  anyOf?: ListFilter<NotificationColumn>[];
} {
  const filter: { -readonly [Column in NotificationColumn]?: FilterCondition[] } = {};
  const from = instant(c, 'from');
  const to = instant(c, 'to');
  const range: FilterCondition[] = [];
  if (from !== undefined) range.push({ op: 'gte', value: from });
  if (to !== undefined) range.push({ op: 'lt', value: to });
  if (range.length > 0) filter.occurred_at = range;
  const mentioned = c.req.query('filter');
  if (mentioned !== undefined) {
    const prefixes = Object.values(ID_PREFIXES);
    if (!prefixes.some((prefix) => isIdOf(prefix, mentioned))) {
      throw BillingError.invalidField('filter', 'must be one entity id, such as a txn_, ctm_ or sub_ id');
    }
    filter.mentions = [{ op: 'eq', value: mentioned }];
  }
  const search = c.req.query('search');
  if (search === undefined) return { filter };
  if (search.length === 0 || search.length > 200)
    throw BillingError.invalidField('search', 'must be 1 to 200 characters');
  const contains = { op: 'contains' as const, value: search.toLowerCase() };
  return { filter, anyOf: [{ id: [contains] }, { event_id: [contains] }, { type: [contains] }] };
}

const logListSpec: ListSpec<NotificationLogColumn> = {
  idPrefix: 'ntflog',
  defaultPerPage: 50,
  maxPerPage: 200,
  filters: {},
};

/** `/notifications`: list, get, delivery logs, and replay (202 with the new notification's id). */
export function registerNotificationRoutes(app: Hono<AppEnv>): void {
  app.get('/notifications', need('notification.read'), async (c) => {
    const { query, perPage } = parseListParams(c, listSpec);
    const search = notificationSearch(c);
    const refined = { ...query, filter: { ...query.filter, ...search.filter }, anyOf: search.anyOf };
    return respondPage(
      c,
      presentNotificationPage(await c.var.useCases.listNotifications(c.var.caller, refined), c.var.portalUrl),
      perPage,
    );
  });
  app.get('/notifications/:id', need('notification.read'), async (c) => {
    return respond(
      c,
      presentNotification(await c.var.useCases.getNotification(c.var.caller, pathId(c, 'ntf')), c.var.portalUrl),
    );
  });
  app.get('/notifications/:id/logs', need('notification.read'), async (c) => {
    const id = pathId(c, 'ntf');
    const { query, perPage } = parseListParams(c, logListSpec);
    return respondPage(c, await c.var.useCases.listNotificationLogs(c.var.caller, id, query), perPage);
  });
  app.post('/notifications/:id/replay', need('notification.write'), async (c) => {
    return respond(c, await c.var.useCases.replayNotification(c.var.caller, pathId(c, 'ntf')), 202);
  });
}
