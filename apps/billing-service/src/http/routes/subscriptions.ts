import {
  CancelSubscriptionBody,
  PauseSubscriptionBody,
  ResumeSubscriptionBody,
  SubscriptionChargeBody,
  UpdateSubscriptionBody,
} from '@drawdown/billing-contract';
import {
  BillingError,
  type ListQuery,
  type OneTimeChargeInput,
  SUBSCRIPTION_INCLUDES,
  SUBSCRIPTION_STATUSES,
  type SubscriptionColumn,
  type SubscriptionInclude,
  type UpdateSubscriptionInput,
} from '@drawdown/billing-core';
import type { Hono } from 'hono';
import type { z } from 'zod';
import type { AppEnv } from '../app-env.js';
import { respond, respondPage } from '../envelope.js';
import { type ListSpec, parseListParams } from '../list-params.js';
import { presentSubscription, presentSubscriptionPreview, presentSubscriptionWithIncludes } from '../presenters.js';
import { readBody } from '../request-body.js';
import { need, pathId } from '../route-helpers.js';
import type { CamelCased } from '../wire-case.js';
import { billingDetailsOf } from './transactions.js';

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
    // An item filter: the ids parse as ids, then match any whole id in the promoted column.
    price_id: { kind: 'ids', column: 'price_ids', prefix: 'pri' },
    next_billed_at: { kind: 'timestamp', column: 'next_billed_at' },
  },
};

/** `price_id=a,b`: subscriptions with an item of any of those prices. */
function withPriceFilter(query: ListQuery<SubscriptionColumn>): ListQuery<SubscriptionColumn> {
  const condition = query.filter.price_ids?.[0];
  if (condition?.op !== 'in') return query;
  const { price_ids: _priceIds, ...filter } = query.filter;
  return {
    ...query,
    filter,
    anyOf: condition.values.map((priceId) => ({ price_ids: [{ op: 'contains', value: ` ${priceId} ` }] })),
  };
}

type UpdateBody = CamelCased<z.output<typeof UpdateSubscriptionBody>>;

/** The update body as the core's input. */
function toUpdateInput(body: UpdateBody): UpdateSubscriptionInput {
  return {
    items: body.items,
    prorationBillingMode: body.prorationBillingMode,
    onPaymentFailure: body.onPaymentFailure,
    collectionMode: body.collectionMode,
    customData: body.customData,
    scheduledChange: body.scheduledChange === null ? null : undefined,
    addressId: body.addressId,
    customerId: body.customerId,
    businessId: body.businessId,
    nextBilledAt: body.nextBilledAt,
    currencyCode: body.currencyCode,
    billingDetails: billingDetailsOf(body.billingDetails),
    discount:
      body.discount == null ? body.discount : { id: body.discount.id, effectiveFrom: body.discount.effectiveFrom },
  };
}

function parseIncludes(raw: string | undefined): SubscriptionInclude[] {
  if (raw === undefined) return [];
  const values = raw.split(',').map((value) => value.trim());
  const known = (value: string): value is SubscriptionInclude =>
    (SUBSCRIPTION_INCLUDES as readonly string[]).includes(value);
  if (!values.every(known)) {
    throw BillingError.invalidField('include', `must be a comma-separated list of ${SUBSCRIPTION_INCLUDES.join(', ')}`);
  }
  return values.filter(known);
}

type ChargeBody = CamelCased<z.output<typeof SubscriptionChargeBody>>;

/** The charge body as the core's input; non-catalog prices are refused by name. */
function toChargeInput(body: ChargeBody): OneTimeChargeInput {
  const unsupported = body.items.flatMap((item, index) =>
    item.price !== undefined && item.price !== null ? [`items[${index}].price`] : [],
  );
  if (unsupported.length > 0) {
    throw new BillingError(
      'field_not_supported',
      `Drawdown does not offer non-catalog prices (${unsupported.join(', ')}) on a one-time charge yet.`,
    );
  }
  return {
    effectiveFrom: body.effectiveFrom,
    onPaymentFailure: body.onPaymentFailure,
    items: body.items.map((item, index) => {
      if (item.priceId === undefined) throw BillingError.invalidField(`items[${index}].price_id`, 'is required');
      return { priceId: item.priceId, quantity: item.quantity };
    }),
  };
}

export function registerSubscriptionRoutes(app: Hono<AppEnv>): void {
  app.get('/subscriptions', need('subscription.read'), async (c) => {
    const { query, perPage } = parseListParams(c, listSpec);
    return respondPage(
      c,
      await c.var.useCases.listSubscriptions(c.var.caller, withPriceFilter(query)),
      perPage,
      (subscription) => presentSubscription(subscription, c.var.portalUrl),
    );
  });
  app.get('/subscriptions/:id', need('subscription.read'), async (c) => {
    const id = pathId(c, 'sub');
    const includes = parseIncludes(c.req.query('include'));
    return respond(
      c,
      presentSubscriptionWithIncludes(
        await c.var.useCases.getSubscriptionWithIncludes(c.var.caller, id, includes),
        c.var.portalUrl,
      ),
    );
  });
  app.patch('/subscriptions/:id', need('subscription.write'), async (c) => {
    const id = pathId(c, 'sub');
    const input = toUpdateInput(await readBody(c, UpdateSubscriptionBody));
    return respond(
      c,
      presentSubscription(await c.var.useCases.updateSubscription(c.var.caller, id, input), c.var.portalUrl),
    );
  });
  app.patch('/subscriptions/:id/preview', need('subscription.read'), async (c) => {
    const id = pathId(c, 'sub');
    const input = toUpdateInput(await readBody(c, UpdateSubscriptionBody));
    return respond(
      c,
      presentSubscriptionPreview(
        await c.var.useCases.previewSubscriptionUpdate(c.var.caller, id, input),
        c.var.portalUrl,
      ),
    );
  });
  app.post('/subscriptions/:id/charge', need('subscription.write'), async (c) => {
    const id = pathId(c, 'sub');
    const input = toChargeInput(await readBody(c, SubscriptionChargeBody));
    return respond(
      c,
      presentSubscription(await c.var.useCases.createOneTimeCharge(c.var.caller, id, input), c.var.portalUrl),
    );
  });
  app.post('/subscriptions/:id/charge/preview', need('subscription.read'), async (c) => {
    const id = pathId(c, 'sub');
    const input = toChargeInput(await readBody(c, SubscriptionChargeBody));
    return respond(
      c,
      presentSubscriptionPreview(await c.var.useCases.previewOneTimeCharge(c.var.caller, id, input), c.var.portalUrl),
    );
  });
  app.post('/subscriptions/:id/activate', need('subscription.write'), async (c) => {
    const id = pathId(c, 'sub');
    return respond(
      c,
      presentSubscription(await c.var.useCases.activateSubscription(c.var.caller, id), c.var.portalUrl),
    );
  });
  app.post('/subscriptions/:id/pause', need('subscription.write'), async (c) => {
    const id = pathId(c, 'sub');
    const { effectiveFrom, resumeAt, onResume } = await readBody(c, PauseSubscriptionBody);
    const input = { effectiveFrom: effectiveFrom ?? undefined, resumeAt, onResume };
    return respond(
      c,
      presentSubscription(await c.var.useCases.pauseSubscription(c.var.caller, id, input), c.var.portalUrl),
    );
  });
  app.post('/subscriptions/:id/resume', need('subscription.write'), async (c) => {
    const id = pathId(c, 'sub');
    const body = await readBody(c, ResumeSubscriptionBody);
    const input = { effectiveFrom: body?.effectiveFrom ?? undefined, onResume: body?.onResume };
    return respond(
      c,
      presentSubscription(await c.var.useCases.resumeSubscription(c.var.caller, id, input), c.var.portalUrl),
    );
  });
  app.post('/subscriptions/:id/cancel', need('subscription.write'), async (c) => {
    const id = pathId(c, 'sub');
    const { effectiveFrom, cancellationReason } = await readBody(c, CancelSubscriptionBody);
    return respond(
      c,
      presentSubscription(
        await c.var.useCases.cancelSubscription(c.var.caller, id, {
          effectiveFrom: effectiveFrom ?? undefined,
          cancellationReason: cancellationReason ?? undefined,
        }),
        c.var.portalUrl,
      ),
    );
  });
  // Why the customer cancels (a Drawdown extension, ADR 0806): the reason the cancel call carried.
  app.get('/subscriptions/:id/cancellation-reason', need('subscription.read'), async (c) => {
    const subscription = await c.var.useCases.getSubscription(c.var.caller, pathId(c, 'sub'));
    const given = subscription.internal.cancellationReason;
    return respond(c, {
      subscriptionId: subscription.id,
      reason: given?.reason ?? null,
      comment: given?.comment ?? null,
      recordedAt: given?.recordedAt ?? null,
    });
  });
}
