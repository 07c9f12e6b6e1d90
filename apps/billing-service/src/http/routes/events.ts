import type { EventColumn } from '@drawdown/billing-core';
import type { Hono } from 'hono';
import type { AppEnv } from '../app-env.js';
import { respondPage } from '../envelope.js';
import { type ListSpec, parseListParams } from '../list-params.js';
import { presentEvent } from '../presenters.js';
import { need } from '../route-helpers.js';

const listSpec: ListSpec<EventColumn> = {
  idPrefix: 'evt',
  defaultPerPage: 50,
  maxPerPage: 200,
  filters: { event_type: { kind: 'text', column: 'event_type' } },
};

export function registerEventRoutes(app: Hono<AppEnv>): void {
  app.get('/events', need('event.read'), async (c) => {
    const { query, perPage } = parseListParams(c, listSpec);
    const page = await c.var.useCases.listEvents(c.var.caller, query);
    return respondPage(c, page, perPage, (event) => presentEvent(event, c.var.portalUrl));
  });
}
