import { CreatePriceBody, UpdatePriceBody } from '@drawdown/billing-contract';
import type { Price, PriceColumn } from '@drawdown/billing-core';
import type { Context, Hono } from 'hono';
import type { AppEnv } from '../app-env.js';
import { respond, respondPage } from '../envelope.js';
import { parseIncludes } from '../includes.js';
import { type ListSpec, parseListParams } from '../list-params.js';
import { readBody } from '../request-body.js';
import { need, pathId } from '../route-helpers.js';

const PRICE_INCLUDES = ['product'] as const;

const listSpec: ListSpec<PriceColumn> = {
  idPrefix: 'pri',
  defaultPerPage: 50,
  maxPerPage: 200,
  // The documented fields (issue 36), ties broken by id.
  orderBy: [
    'id',
    'billing_cycle.frequency',
    'billing_cycle.interval',
    'product_id',
    'quantity.maximum',
    'quantity.minimum',
    'status',
    'tax_mode',
    'unit_price.amount',
    'unit_price.currency_code',
  ],
  filters: {
    id: { kind: 'ids', column: 'id', prefix: 'pri' },
    product_id: { kind: 'ids', column: 'product_id', prefix: 'pro' },
    status: { kind: 'enum', column: 'status', values: ['active', 'archived'] },
    type: { kind: 'enum', column: 'type', values: ['standard', 'custom'] },
    recurring: { kind: 'boolean', column: 'recurring' },
  },
  includes: PRICE_INCLUDES,
  // Non-catalogue (custom) items are listed only when asked for with type=custom (ADR 1108).
  defaults: { type: 'standard' },
};

/** The price with its product embedded when `include=product` asked for it. */
function presenter(c: Context<AppEnv>, includes: ReadonlySet<string>) {
  return (price: Price) =>
    includes.has('product') ? c.var.useCases.withPriceProduct(c.var.caller, price) : Promise.resolve(price);
}

export function registerPriceRoutes(app: Hono<AppEnv>): void {
  app.get('/prices', need('price.read'), async (c) => {
    const { query, perPage, includes } = parseListParams(c, listSpec);
    const page = await c.var.useCases.listPrices(c.var.caller, query);
    return respondPage(c, { ...page, items: await Promise.all(page.items.map(presenter(c, includes))) }, perPage);
  });
  app.post('/prices', need('price.write'), async (c) => {
    return respond(c, await c.var.useCases.createPrice(c.var.caller, await readBody(c, CreatePriceBody)), 201);
  });
  app.get('/prices/:id', need('price.read'), async (c) => {
    const present = presenter(c, parseIncludes(c, PRICE_INCLUDES));
    return respond(c, await present(await c.var.useCases.getPrice(c.var.caller, pathId(c, 'pri'))));
  });
  app.patch('/prices/:id', need('price.write'), async (c) => {
    const id = pathId(c, 'pri');
    return respond(c, await c.var.useCases.updatePrice(c.var.caller, id, await readBody(c, UpdatePriceBody)));
  });
}
