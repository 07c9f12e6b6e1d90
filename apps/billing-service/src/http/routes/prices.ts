import { CreatePriceBody, UpdatePriceBody } from '@drawdown/billing-contract';
import {
  createPrice,
  getPrice,
  listPrices,
  type OperationContext,
  type Price,
  type PriceColumn,
  updatePrice,
  withPriceProduct,
} from '@drawdown/billing-core';
import type { Hono } from 'hono';
import type { AppEnv } from '../app-env.js';
import { respond, respondPage } from '../envelope.js';
import { parseIncludes } from '../includes.js';
import { type ListSpec, parseListParams } from '../list-params.js';
import { readBody } from '../request-body.js';
import { need, pathId } from '../route-helpers.js';

const listSpec: ListSpec<PriceColumn> = {
  idPrefix: 'pri',
  defaultPerPage: 50,
  maxPerPage: 200,
  filters: {
    id: { kind: 'ids', column: 'id', prefix: 'pri' },
    product_id: { kind: 'ids', column: 'product_id', prefix: 'pro' },
    status: { kind: 'enum', column: 'status', values: ['active', 'archived'] },
    type: { kind: 'enum', column: 'type', values: ['standard', 'custom'] },
    recurring: { kind: 'boolean', column: 'recurring' },
  },
  handledElsewhere: ['include'],
};

const PRICE_INCLUDES = ['product'] as const;

function presenter(context: OperationContext, includes: ReadonlySet<string>) {
  return (price: Price) => (includes.has('product') ? withPriceProduct(context, price) : Promise.resolve(price));
}

export function registerPriceRoutes(app: Hono<AppEnv>): void {
  app.get('/prices', need('price.read'), async (c) => {
    const present = presenter(c.var.context, parseIncludes(c, PRICE_INCLUDES));
    const { query, perPage } = parseListParams(c, listSpec);
    const page = await listPrices(c.var.context, query);
    return respondPage(c, { ...page, items: await Promise.all(page.items.map(present)) }, perPage);
  });
  app.post('/prices', need('price.write'), async (c) => {
    return respond(c, await createPrice(c.var.context, await readBody(c, CreatePriceBody)), 201);
  });
  app.get('/prices/:id', need('price.read'), async (c) => {
    const present = presenter(c.var.context, parseIncludes(c, PRICE_INCLUDES));
    return respond(c, await present(await getPrice(c.var.context, pathId(c, 'pri'))));
  });
  app.patch('/prices/:id', need('price.write'), async (c) => {
    const id = pathId(c, 'pri');
    return respond(c, await updatePrice(c.var.context, id, await readBody(c, UpdatePriceBody)));
  });
}
