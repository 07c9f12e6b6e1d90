/**
 * @module
 * Non-catalogue items (ADR 1108): a transaction item that carries its own price, for a product
 * of the catalogue (`product_id`) or with a product of its own (`product`). As in the public
 * API, each becomes a real entity of type `custom`, with an id and its `custom_data`, that
 * `GET /prices/{id}` and `GET /products/{id}` answer but lists leave out unless asked for
 * `type=custom`. Its price is checked by the same rules as a catalogue price; previews build
 * it in memory and store nothing.
 */

import { recordEvent } from '../events/record-event.js';
import { BillingError } from '../shared/billing-error.js';
import { type Context, nowTimestamp } from '../shared/context.js';
import type { Price, Product } from './entities.js';
import { type CreatePriceInput, DEFAULT_QUANTITY, validatePrice } from './prices.js';
import type { CreateProductInput } from './products.js';
import { usableProduct } from './references.js';
import type { CatalogueSlice } from './repositories.js';

export type NonCatalogueProductInput = Omit<CreateProductInput, 'type'>;

export interface NonCataloguePriceInput extends Omit<CreatePriceInput, 'productId' | 'type' | 'allowances'> {
  /** A product of the caller's catalogue (active), or… */
  readonly productId?: string | null | undefined;
  /** …a product made for this price. Exactly one of the two. */
  readonly product?: NonCatalogueProductInput | null | undefined;
}

/**
 * The price (and product) a non-catalogue item names, made as `custom` entities. With
 * `persist`, both are inserted with their `*.created` events in the caller's database
 * transaction; without it (previews) nothing is written.
 */
export async function nonCatalogueItem(
  context: Context<CatalogueSlice>,
  tx: CatalogueSlice,
  input: NonCataloguePriceInput,
  field: string,
  persist: boolean,
): Promise<{ price: Price; product: Product }> {
  const hasId = input.productId != null;
  const hasProduct = input.product != null;
  if (hasId === hasProduct) {
    throw BillingError.invalidField(
      hasId ? `${field}.product` : `${field}.product_id`,
      hasId ? 'cannot be sent with product_id: send one of them' : 'or product is required for a non-catalogue price',
    );
  }
  const now = nowTimestamp(context);
  let product: Product;
  if (input.product != null) {
    const made = input.product;
    product = {
      id: context.ids.newId('pro'),
      name: made.name,
      description: made.description ?? null,
      type: 'custom',
      taxCategory: made.taxCategory,
      imageUrl: made.imageUrl || null,
      customData: made.customData ?? null,
      importMeta: null,
      status: 'active',
      createdAt: now,
      updatedAt: now,
    };
  } else {
    product = await usableProduct(tx, context.scope, input.productId ?? '');
  }
  const price: Price = {
    id: context.ids.newId('pri'),
    productId: product.id,
    name: input.name ?? null,
    description: input.description,
    type: 'custom',
    billingCycle: input.billingCycle ?? null,
    trialPeriod: input.trialPeriod ?? null,
    taxMode: input.taxMode ?? 'account_setting',
    unitPrice: input.unitPrice,
    unitPriceOverrides: input.unitPriceOverrides ?? [],
    quantity: input.quantity ?? DEFAULT_QUANTITY,
    allowances: [],
    customData: input.customData ?? null,
    importMeta: null,
    status: 'active',
    createdAt: now,
    updatedAt: now,
  };
  await validatePrice(context, tx, price, false);
  if (persist) {
    if (input.product != null) {
      await tx.products.insert(context.scope, product);
      await recordEvent(context, tx, 'product.created', 'product', product);
    }
    await tx.prices.insert(context.scope, price);
    await recordEvent(context, tx, 'price.created', 'price', price);
  }
  return { price, product };
}
