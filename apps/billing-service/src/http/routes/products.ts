import { CreateProductBody, UpdateProductBody } from '@drawdown/billing-contract';
import { type Product, type ProductColumn, TAX_CATEGORIES } from '@drawdown/billing-core';
import type { Context, Hono } from 'hono';
import type { AppEnv } from '../app-env.js';
import { respond, respondPage } from '../envelope.js';
import { parseIncludes } from '../includes.js';
import { type ListSpec, parseListParams } from '../list-params.js';
import { readBody } from '../request-body.js';
import { need, pathId } from '../route-helpers.js';

const PRODUCT_INCLUDES = ['prices'] as const;

const listSpec: ListSpec<ProductColumn> = {
  idPrefix: 'pro',
  defaultPerPage: 50,
  maxPerPage: 200,
  // The documented fields (issue 36); `created_at` orders as `id` does: ids are time-ordered.
  orderBy: [
    'id',
    'created_at',
    'custom_data',
    'description',
    'image_url',
    'name',
    'status',
    'tax_category',
    'updated_at',
  ],
  filters: {
    id: { kind: 'ids', column: 'id', prefix: 'pro' },
    status: { kind: 'enum', column: 'status', values: ['active', 'archived'] },
    type: { kind: 'enum', column: 'type', values: ['standard', 'custom'] },
    tax_category: { kind: 'enum', column: 'tax_category', values: TAX_CATEGORIES },
  },
  includes: PRODUCT_INCLUDES,
  // Non-catalogue (custom) items are listed only when asked for with type=custom (ADR 1108).
  defaults: { type: 'standard' },
};

/** The product with its prices embedded when `include=prices` asked for them. */
function presenter(c: Context<AppEnv>, includes: ReadonlySet<string>) {
  return (product: Product) =>
    includes.has('prices') ? c.var.useCases.withProductPrices(c.var.caller, product) : Promise.resolve(product);
}

export function registerProductRoutes(app: Hono<AppEnv>): void {
  app.get('/products', need('product.read'), async (c) => {
    const { query, perPage, includes } = parseListParams(c, listSpec);
    const page = await c.var.useCases.listProducts(c.var.caller, query);
    return respondPage(c, { ...page, items: await Promise.all(page.items.map(presenter(c, includes))) }, perPage);
  });
  app.post('/products', need('product.write'), async (c) => {
    return respond(c, await c.var.useCases.createProduct(c.var.caller, await readBody(c, CreateProductBody)), 201);
  });
  app.get('/products/:id', need('product.read'), async (c) => {
    const present = presenter(c, parseIncludes(c, PRODUCT_INCLUDES));
    return respond(c, await present(await c.var.useCases.getProduct(c.var.caller, pathId(c, 'pro'))));
  });
  app.patch('/products/:id', need('product.write'), async (c) => {
    const id = pathId(c, 'pro');
    return respond(c, await c.var.useCases.updateProduct(c.var.caller, id, await readBody(c, UpdateProductBody)));
  });
}
