/**
 * @module
 * Products are what is sold; prices say for how much. Archiving is an update of status.
 */

import { recordEvent } from '../events/record-event.js';
import { BillingError } from '../shared/billing-error.js';
import { type Context, nowTimestamp } from '../shared/context.js';
import type { ListQuery, Page } from '../shared/pagination.js';
import { merge } from './catalogue-rules.js';
import type { CatalogueStatus, CatalogueType, CustomData, Product, TaxCategory } from './entities.js';
import type { CatalogueSlice, ProductColumn } from './repositories.js';

export interface CreateProductInput {
  readonly name: string;
  readonly taxCategory: TaxCategory;
  readonly description?: string | null | undefined;
  readonly type?: CatalogueType | undefined;
  readonly imageUrl?: string | null | undefined;
  readonly customData?: CustomData | undefined;
}

export interface UpdateProductInput {
  readonly name?: string | undefined;
  readonly taxCategory?: TaxCategory | undefined;
  readonly description?: string | null | undefined;
  readonly type?: CatalogueType | undefined;
  readonly imageUrl?: string | null | undefined;
  readonly customData?: CustomData | undefined;
  readonly status?: CatalogueStatus | undefined;
}

export async function createProduct(context: Context<CatalogueSlice>, input: CreateProductInput): Promise<Product> {
  const now = nowTimestamp(context);
  const product: Product = {
    id: context.ids.newId('pro'),
    name: input.name,
    description: input.description ?? null,
    type: input.type ?? 'standard',
    taxCategory: input.taxCategory,
    imageUrl: input.imageUrl || null,
    customData: input.customData ?? null,
    importMeta: null,
    status: 'active',
    createdAt: now,
    updatedAt: now,
  };
  return context.store.transaction(async (tx) => {
    await tx.products.insert(context.scope, product);
    await recordEvent(context, tx, 'product.created', 'product', product);
    return product;
  });
}

export async function updateProduct(
  context: Context<CatalogueSlice>,
  id: string,
  input: UpdateProductInput,
): Promise<Product> {
  return context.store.transaction(async (tx) => {
    const current = await tx.products.findByIdForUpdate(context.scope, id);
    if (!current) throw BillingError.notFound('Product', id);
    const next = merge(current, { ...input, updatedAt: nowTimestamp(context) });
    await tx.products.update(context.scope, next);
    await recordEvent(context, tx, 'product.updated', 'product', next);
    return next;
  });
}

export async function getProduct(context: Context<CatalogueSlice>, id: string): Promise<Product> {
  const product = await context.store.products.findById(context.scope, id);
  if (!product) throw BillingError.notFound('Product', id);
  return product;
}

export function listProducts(
  context: Context<CatalogueSlice>,
  query: ListQuery<ProductColumn>,
): Promise<Page<Product>> {
  return context.store.products.list(context.scope, query);
}
