/**
 * @module
 * Storage ports of discounts and discount groups.
 */
import type { CatalogueSlice } from '../catalogue/repositories.js';
import type { Collection } from '../shared/collection.js';
import type { Discount, DiscountGroup } from './discount.js';

/** `code` is lower-cased; `expires_key` is the expiry, or a far-future instant for none. */
export type DiscountColumn = 'id' | 'status' | 'code' | 'mode' | 'discount_group_id' | 'expires_key';

export type DiscountGroupColumn = 'id' | 'status';

/** The repositories discounts own. */
export interface DiscountRepositories {
  readonly discounts: Collection<Discount, DiscountColumn>;
  readonly discountGroups: Collection<DiscountGroup, DiscountGroupColumn>;
}

/** What discounts use: their repositories and the catalogue's slice (products and prices they restrict to). */
export interface DiscountSlice extends DiscountRepositories, CatalogueSlice {}
