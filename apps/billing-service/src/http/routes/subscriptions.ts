import {
  CancelSubscriptionBody,
  PauseSubscriptionBody,
  ResumeSubscriptionBody,
  UpdateSubscriptionBody,
} from '@drawdown/billing-contract';
import { SUBSCRIPTION_STATUSES, type SubscriptionColumn } from '@drawdown/billing-core';
import type { Hono } from 'hono';
import type { AppEnv } from '../app-env.js';
import { respond, respondPage } from '../envelope.js';
import { type ListSpec, parseListParams } from '../list-params.js';
import { presentSubscription } from '../presenters.js';
import { readBody } from '../request-body.js';
import { need, pathId } from '../route-helpers.js';

const listSpec: ListSpec<SubscriptionColumn> = {
  idPrefix: 'sub',
  defaultPerPage: 50,
  maxPerPage: 200,
  filters: {
    id: { kind: 'ids', column: 'id', prefix: 'sub' },
    customer_id: { kind: 'ids', column: 'customer_id', prefix: 'ctm' },
    address_id: { kind: 'ids', column: 'address_id', prefix: 'add' },
    status: { kind: 'enum', column: 'status', values: SUBSCRIPTION_STATUSES },
    collection_mode: { kind: 'enum', column: 'collection_mode', values: ['automatic', 'manual'] },
    scheduled_change_action: {
      kind: 'enum',
      column: 'scheduled_change_action',
      values: ['cancel', 'pause', 'resume'],
    },
  },
};

export function registerSubscriptionRoutes(app: Hono<AppEnv>): void {
  app.get('/subscriptions', need('subscription.read'), async (c) => {
    const { query, perPage } = parseListParams(c, listSpec);
    return respondPage(c, await c.var.useCases.listSubscriptions(c.var.caller, query), perPage, presentSubscription);
  });
  app.get('/subscriptions/:id', need('subscription.read'), async (c) => {
    return respond(c, presentSubscription(await c.var.useCases.getSubscription(c.var.caller, pathId(c, 'sub'))));
  });
  app.patch('/subscriptions/:id', need('subscription.write'), async (c) => {
    const id = pathId(c, 'sub');
    const input = await readBody(c, UpdateSubscriptionBody);
    return respond(c, presentSubscription(await c.var.useCases.updateSubscription(c.var.caller, id, input)));
  });
  app.post('/subscriptions/:id/pause', need('subscription.write'), async (c) => {
    const id = pathId(c, 'sub');
    const { effectiveFrom, resumeAt, onResume } = await readBody(c, PauseSubscriptionBody);
    const input = { effectiveFrom: effectiveFrom ?? undefined, resumeAt, onResume };
    return respond(c, presentSubscription(await c.var.useCases.pauseSubscription(c.var.caller, id, input)));
  });
  app.post('/subscriptions/:id/resume', need('subscription.write'), async (c) => {
    const id = pathId(c, 'sub');
    const body = await readBody(c, ResumeSubscriptionBody);
    const input = { effectiveFrom: body?.effectiveFrom ?? undefined, onResume: body?.onResume };
    return respond(c, presentSubscription(await c.var.useCases.resumeSubscription(c.var.caller, id, input)));
  });
  app.post('/subscriptions/:id/cancel', need('subscription.write'), async (c) => {
    const id = pathId(c, 'sub');
    const { effectiveFrom } = await readBody(c, CancelSubscriptionBody);
    return respond(
      c,
      presentSubscription(
        await c.var.useCases.cancelSubscription(c.var.caller, id, { effectiveFrom: effectiveFrom ?? undefined }),
      ),
    );
  });
}
