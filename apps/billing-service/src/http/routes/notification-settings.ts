import { CreateNotificationSettingBody, UpdateNotificationSettingBody } from '@drawdown/billing-contract';
import { type NotificationSettingColumn, TRAFFIC_SOURCES } from '@drawdown/billing-core';
import type { Hono } from 'hono';
import type { AppEnv } from '../app-env.js';
import { respond, respondPage } from '../envelope.js';
import { type ListSpec, parseListParams } from '../list-params.js';
import { readBody } from '../request-body.js';
import { need, pathId } from '../route-helpers.js';
import { presentNotificationSetting } from './notification-presenters.js';

// The reference pages settings 200 at a time; the official SDK reads only `data`, which one
// page of 200 covers for any real account.
const listSpec: ListSpec<NotificationSettingColumn> = {
  idPrefix: 'ntfset',
  defaultPerPage: 200,
  maxPerPage: 200,
  filters: {
    active: { kind: 'boolean', column: 'active' },
    traffic_source: { kind: 'enum', column: 'traffic_source', values: TRAFFIC_SOURCES },
  },
};

/**
 * `/notification-settings`, plus `POST /notification-settings/{id}/rotate-secret`, which the
 * reference does not have (ADR 0502).
 */
export function registerNotificationSettingRoutes(app: Hono<AppEnv>): void {
  app.get('/notification-settings', need('notification_setting.read'), async (c) => {
    const { query, perPage } = parseListParams(c, listSpec);
    return respondPage(
      c,
      await c.var.useCases.listNotificationSettings(c.var.caller, query),
      perPage,
      presentNotificationSetting,
    );
  });
  app.post('/notification-settings', need('notification_setting.write'), async (c) => {
    const body = await readBody(c, CreateNotificationSettingBody);
    return respond(
      c,
      presentNotificationSetting(await c.var.useCases.createNotificationSetting(c.var.caller, body)),
      201,
    );
  });
  app.get('/notification-settings/:id', need('notification_setting.read'), async (c) => {
    return respond(
      c,
      presentNotificationSetting(await c.var.useCases.getNotificationSetting(c.var.caller, pathId(c, 'ntfset'))),
    );
  });
  app.patch('/notification-settings/:id', need('notification_setting.write'), async (c) => {
    const id = pathId(c, 'ntfset');
    const body = await readBody(c, UpdateNotificationSettingBody);
    return respond(
      c,
      presentNotificationSetting(await c.var.useCases.updateNotificationSetting(c.var.caller, id, body)),
    );
  });
  app.delete('/notification-settings/:id', need('notification_setting.write'), async (c) => {
    await c.var.useCases.deleteNotificationSetting(c.var.caller, pathId(c, 'ntfset'));
    return c.body(null, 204);
  });
  app.post('/notification-settings/:id/rotate-secret', need('notification_setting.write'), async (c) => {
    const id = pathId(c, 'ntfset');
    return respond(
      c,
      presentNotificationSetting(await c.var.useCases.rotateNotificationSettingSecret(c.var.caller, id)),
    );
  });
}
