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
  createDiscount,
  createDiscountGroup,
  DISCOUNT_STATUSES,
  type Discount,
  type DiscountColumn,
  type DiscountGroup,
  type DiscountGroupColumn,
  type DiscountStatus,
  getDiscount,
  getDiscountGroup,
  listDiscountGroups,
  listDiscounts,
  type OperationContext,
  updateDiscount,
  updateDiscountGroup,
} from '@drawdown/billing-core';
import type { Context, Hono } from 'hono';
import type { AppEnv } from '../app-env.js';
import { respond, respondPage } from '../envelope.js';
import { parseIncludes } from '../includes.js';
import { type ListSpec, parseListParams } from '../list-params.js';
import { readBody } from '../request-body.js';
import { need, pathId } from '../route-helpers.js';

const discountListSpec: ListSpec<DiscountColumn> = {
  idPrefix: 'dsc',
  defaultPerPage: 50,
  maxPerPage: 200,
  filters: {
    id: { kind: 'ids', column: 'id', prefix: 'dsc' },
    code: { kind: 'lowercase', column: 'code' },
    mode: { kind: 'enum', column: 'mode', values: ['standard', 'custom'] },
    discount_group_id: { kind: 'ids', column: 'discount_group_id', prefix: 'dsg' },
  },
  // `status` is read apart (`expired` is derived from the clock, ADR 1100); `include` too.
  handledElsewhere: ['status', 'include'],
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

const DISCOUNT_INCLUDES = ['discount_group'] as const;

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
function presenter(context: OperationContext, includes: ReadonlySet<string>) {
  return async (discount: Discount): Promise<Discount | (Discount & { discountGroup: DiscountGroup | null })> => {
    if (!includes.has('discount_group')) return discount;
    const group = discount.discountGroupId === null ? null : await getDiscountGroup(context, discount.discountGroupId);
    return { ...discount, discountGroup: group };
  };
}

export function registerDiscountRoutes(app: Hono<AppEnv>): void {
  app.get('/discounts', need('discount.read'), async (c) => {
    const includes = parseIncludes(c, DISCOUNT_INCLUDES);
    const { query, perPage } = parseListParams(c, discountListSpec);
    const page = await listDiscounts(c.var.context, query, statusesOf(c));
    const present = presenter(c.var.context, includes);
    return respondPage(c, { ...page, items: await Promise.all(page.items.map(present)) }, perPage);
  });
  app.post('/discounts', need('discount.write'), async (c) => {
    return respond(c, await createDiscount(c.var.context, await readBody(c, CreateDiscountBody)), 201);
  });
  app.get('/discounts/:id', need('discount.read'), async (c) => {
    const includes = parseIncludes(c, DISCOUNT_INCLUDES);
    const discount = await getDiscount(c.var.context, pathId(c, 'dsc'));
    return respond(c, await presenter(c.var.context, includes)(discount));
  });
  app.patch('/discounts/:id', need('discount.write'), async (c) => {
    const id = pathId(c, 'dsc');
    return respond(c, await updateDiscount(c.var.context, id, await readBody(c, UpdateDiscountBody)));
  });

  app.get('/discount-groups', need('discount.read'), async (c) => {
    const { query, perPage } = parseListParams(c, groupListSpec);
    return respondPage(c, await listDiscountGroups(c.var.context, query), perPage);
  });
  app.post('/discount-groups', need('discount.write'), async (c) => {
    return respond(c, await createDiscountGroup(c.var.context, await readBody(c, CreateDiscountGroupBody)), 201);
  });
  app.get('/discount-groups/:id', need('discount.read'), async (c) => {
    return respond(c, await getDiscountGroup(c.var.context, pathId(c, 'dsg')));
  });
  app.patch('/discount-groups/:id', need('discount.write'), async (c) => {
    const id = pathId(c, 'dsg');
    return respond(c, await updateDiscountGroup(c.var.context, id, await readBody(c, UpdateDiscountGroupBody)));
  });
}
