/**
 * @module
 * Discounts and discount groups. Archiving is `PATCH {status: archived}` (what the reference
 * SDK's `archive` sends). `include=discount_group` embeds each discount's group.
 */
import {
  CreateDiscountBody,
  CreateDiscountGroupBody,
  UpdateDiscountBody,
  UpdateDiscountGroupBody,
} from '@drawdown/billing-contract';
import {
  BillingError,
  DISCOUNT_STATUSES,
  type Discount,
  type DiscountColumn,
  type DiscountGroup,
  type DiscountGroupColumn,
  type DiscountStatus,
} from '@drawdown/billing-core';
import type { Context, Hono } from 'hono';
import type { AppEnv } from '../app-env.js';
import { respond, respondPage } from '../envelope.js';
import { parseIncludes } from '../includes.js';
import { type ListSpec, parseListParams } from '../list-params.js';
import { readBody } from '../request-body.js';
import { need, pathId } from '../route-helpers.js';

const DISCOUNT_INCLUDES = ['discount_group'] as const;

const discountListSpec: ListSpec<DiscountColumn> = {
  idPrefix: 'dsc',
  defaultPerPage: 50,
  maxPerPage: 200,
  // `created_at` orders as `id` does: ids are time-ordered.
  orderBy: ['id', 'created_at'],
  filters: {
    id: { kind: 'ids', column: 'id', prefix: 'dsc' },
    code: { kind: 'lowercase', column: 'code' },
    mode: { kind: 'enum', column: 'mode', values: ['standard', 'custom'] },
    discount_group_id: { kind: 'ids', column: 'discount_group_id', prefix: 'dsg' },
  },
  includes: DISCOUNT_INCLUDES,
  // `status` is read apart: `expired` is derived from the environment's clock (ADR 1100).
  handledElsewhere: ['status'],
};

const groupListSpec: ListSpec<DiscountGroupColumn> = {
  idPrefix: 'dsg',
  defaultPerPage: 50,
  maxPerPage: 200,
  filters: {
    id: { kind: 'ids', column: 'id', prefix: 'dsg' },
    status: { kind: 'enum', column: 'status', values: ['active', 'archived'] },
  },
};

function statusesOf(c: Context<AppEnv>): DiscountStatus[] | undefined {
  const raw = c.req.query('status');
  if (raw === undefined) return undefined;
  const values = raw
    .split(',')
    .map((value) => value.trim())
    .filter((value) => value !== '');
  if (values.length === 0 || values.some((value) => !(DISCOUNT_STATUSES as readonly string[]).includes(value))) {
    throw BillingError.invalidField('status', `must be a comma-separated list of ${DISCOUNT_STATUSES.join(', ')}`);
  }
  return values as DiscountStatus[];
}

/** The discount with `discount_group` embedded when the request asked for it. */
function presenter(c: Context<AppEnv>, includes: ReadonlySet<string>) {
  return async (discount: Discount): Promise<Discount & { discountGroup?: DiscountGroup | null }> => {
    if (!includes.has('discount_group')) return discount;
    const group =
      discount.discountGroupId === null
        ? null
        : await c.var.useCases.getDiscountGroup(c.var.caller, discount.discountGroupId);
    return { ...discount, discountGroup: group };
  };
}

export function registerDiscountRoutes(app: Hono<AppEnv>): void {
  app.get('/discounts', need('discount.read'), async (c) => {
    const { query, perPage, includes } = parseListParams(c, discountListSpec);
    const page = await c.var.useCases.listDiscounts(c.var.caller, query, statusesOf(c));
    return respondPage(c, { ...page, items: await Promise.all(page.items.map(presenter(c, includes))) }, perPage);
  });
  app.post('/discounts', need('discount.write'), async (c) => {
    return respond(c, await c.var.useCases.createDiscount(c.var.caller, await readBody(c, CreateDiscountBody)), 201);
  });
  app.get('/discounts/:id', need('discount.read'), async (c) => {
    const present = presenter(c, parseIncludes(c, DISCOUNT_INCLUDES));
    return respond(c, await present(await c.var.useCases.getDiscount(c.var.caller, pathId(c, 'dsc'))));
  });
  app.patch('/discounts/:id', need('discount.write'), async (c) => {
    const id = pathId(c, 'dsc');
    return respond(c, await c.var.useCases.updateDiscount(c.var.caller, id, await readBody(c, UpdateDiscountBody)));
  });

  app.get('/discount-groups', need('discount.read'), async (c) => {
    const { query, perPage } = parseListParams(c, groupListSpec);
    return respondPage(c, await c.var.useCases.listDiscountGroups(c.var.caller, query), perPage);
  });
  app.post('/discount-groups', need('discount.write'), async (c) => {
    const body = await readBody(c, CreateDiscountGroupBody);
    return respond(c, await c.var.useCases.createDiscountGroup(c.var.caller, body), 201);
  });
  app.get('/discount-groups/:id', need('discount.read'), async (c) => {
    return respond(c, await c.var.useCases.getDiscountGroup(c.var.caller, pathId(c, 'dsg')));
  });
  app.patch('/discount-groups/:id', need('discount.write'), async (c) => {
    const id = pathId(c, 'dsg');
    const body = await readBody(c, UpdateDiscountGroupBody);
    return respond(c, await c.var.useCases.updateDiscountGroup(c.var.caller, id, body));
  });
}
