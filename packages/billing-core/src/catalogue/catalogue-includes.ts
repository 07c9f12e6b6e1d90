/**
 * @module
 * What `include=` embeds in catalogue entities: a product's prices (`include=prices`) and a
 * price's product (`include=product`).
 */

import type { Context } from '../shared/context.js';
import type { Price, Product } from './entities.js';
import type { CatalogueSlice } from './repositories.js';

const PRICES_PAGE = 200;

/** The product with every price of it, oldest first, whatever their status (ADR 1108 for custom prices). */
export async function withProductPrices(
  context: Context<CatalogueSlice>,
  product: Product,
): Promise<Product & { readonly prices: readonly Price[] }> {
  const prices: Price[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await context.store.prices.list(context.scope, {
      // A catalogue product embeds its catalogue prices: the non-catalogue prices transactions
      // made for it (ADR 1108) are left out, as lists leave them out.
      filter: {
        product_id: [{ op: 'in', values: [product.id] }],
        ...(product.type === 'standard' ? { type: [{ op: 'in' as const, values: ['standard'] }] } : {}),
      },
      after,
      perPage: PRICES_PAGE,
      direction: 'asc',
    });
    prices.push(...page.items);
    after = page.items.at(-1)?.id;
    if (!page.hasMore || after === undefined) break;
  }
  return { ...product, prices };
}

/** The price with its product embedded (null only if the product row is missing). */
export async function withPriceProduct(
  context: Context<CatalogueSlice>,
  price: Price,
): Promise<Price & { readonly product: Product | null }> {
  return { ...price, product: (await context.store.products.findById(context.scope, price.productId)) ?? null };
}
