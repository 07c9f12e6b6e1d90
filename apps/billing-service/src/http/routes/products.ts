import { CreateProductBody, UpdateProductBody } from '@drawdown/billing-contract';
import {
  createProduct,
  getProduct,
  listProducts,
  type OperationContext,
  type Product,
  type ProductColumn,
  TAX_CATEGORIES,
  updateProduct,
  withProductPrices,
} from '@drawdown/billing-core';
import type { Hono } from 'hono';
import type { AppEnv } from '../app-env.js';
import { respond, respondPage } from '../envelope.js';
import { parseIncludes } from '../includes.js';
import { type ListSpec, parseListParams } from '../list-params.js';
import { readBody } from '../request-body.js';
import { need, pathId } from '../route-helpers.js';

const listSpec: ListSpec<ProductColumn> = {
  idPrefix: 'pro',
  defaultPerPage: 50,
  maxPerPage: 200,
  filters: {
    id: { kind: 'ids', column: 'id', prefix: 'pro' },
    status: { kind: 'enum', column: 'status', values: ['active', 'archived'] },
    type: { kind: 'enum', column: 'type', values: ['standard', 'custom'] },
    tax_category: { kind: 'enum', column: 'tax_category', values: TAX_CATEGORIES },
  },
  handledElsewhere: ['include'],
};

const PRODUCT_INCLUDES = ['prices'] as const;

function presenter(context: OperationContext, includes: ReadonlySet<string>) {
  return (product: Product) =>
    includes.has('prices') ? withProductPrices(context, product) : Promise.resolve(product);
}

export function registerProductRoutes(app: Hono<AppEnv>): void {
  app.get('/products', need('product.read'), async (c) => {
    const present = presenter(c.var.context, parseIncludes(c, PRODUCT_INCLUDES));
    const { query, perPage } = parseListParams(c, listSpec);
    const page = await listProducts(c.var.context, query);
    return respondPage(c, { ...page, items: await Promise.all(page.items.map(present)) }, perPage);
  });
  app.post('/products', need('product.write'), async (c) => {
    return respond(c, await createProduct(c.var.context, await readBody(c, CreateProductBody)), 201);
  });
  app.get('/products/:id', need('product.read'), async (c) => {
    const present = presenter(c.var.context, parseIncludes(c, PRODUCT_INCLUDES));
    return respond(c, await present(await getProduct(c.var.context, pathId(c, 'pro'))));
  });
  app.patch('/products/:id', need('product.write'), async (c) => {
    const id = pathId(c, 'pro');
    return respond(c, await updateProduct(c.var.context, id, await readBody(c, UpdateProductBody)));
  });
}
