import type { Hono } from 'hono';
import type { AppEnv } from '../app-env.js';
import { respond } from '../envelope.js';
import { need } from '../route-helpers.js';

/** `GET /event-types`: not paginated; early-access types appear only for early-access accounts. */
export function registerEventTypeRoutes(app: Hono<AppEnv>): void {
  app.get('/event-types', need('notification_setting.read'), async (c) =>
    respond(c, await c.var.useCases.listEventTypes(c.var.caller)),
  );
}
