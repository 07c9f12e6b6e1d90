import { NOTIFICATION_STATUSES, type NotificationColumn, type NotificationLogColumn } from '@drawdown/billing-core';
import type { Hono } from 'hono';
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
};

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
    return respondPage(
      c,
      presentNotificationPage(await c.var.useCases.listNotifications(c.var.caller, query)),
      perPage,
    );
  });
  app.get('/notifications/:id', need('notification.read'), async (c) => {
    return respond(c, presentNotification(await c.var.useCases.getNotification(c.var.caller, pathId(c, 'ntf'))));
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
