/**
 * @module
 * The use cases of discounts and discount groups, bound once.
 */
import type { Context } from '../shared/context.js';
import type { UseCaseBase } from '../shared/use-case-base.js';
import {
  createDiscount,
  createDiscountGroup,
  getDiscount,
  getDiscountGroup,
  listDiscountGroups,
  listDiscounts,
  updateDiscount,
  updateDiscountGroup,
} from './discounts.js';
import type { DiscountSlice } from './repositories.js';

export function discountUseCases({ bind }: UseCaseBase<Context<DiscountSlice>>) {
  return {
    createDiscount: bind(createDiscount),
    updateDiscount: bind(updateDiscount),
    getDiscount: bind(getDiscount),
    listDiscounts: bind(listDiscounts),
    createDiscountGroup: bind(createDiscountGroup),
    updateDiscountGroup: bind(updateDiscountGroup),
    getDiscountGroup: bind(getDiscountGroup),
    listDiscountGroups: bind(listDiscountGroups),
  };
}
