/**
 * @module
 * Discounts and discount groups (ADR 1100). A discount takes a percentage, a flat amount or a
 * flat amount per seat off the lines it applies to; it may be limited in uses, expire, recur
 * on a subscription's renewals, and be restricted to some prices and products. Field names are
 * the wire's, camel-cased.
 */
import type { CatalogueStatus, CustomData } from '../catalogue/entities.js';

export const DISCOUNT_TYPES = ['flat', 'flat_per_seat', 'percentage'] as const;
export type DiscountType = (typeof DISCOUNT_TYPES)[number];

/** `standard` discounts are the catalogue's; `custom` ones are made for one transaction or subscription. */
export const DISCOUNT_MODES = ['standard', 'custom'] as const;
export type DiscountMode = (typeof DISCOUNT_MODES)[number];

/** What is stored; `expired` is derived from `expiresAt` and the environment's clock. */
export type StoredDiscountStatus = 'active' | 'archived' | 'used';
export const DISCOUNT_STATUSES = ['active', 'archived', 'expired', 'used'] as const;
export type DiscountStatus = (typeof DISCOUNT_STATUSES)[number];

export interface Discount {
  readonly id: string;
  readonly status: DiscountStatus;
  readonly description: string;
  readonly enabledForCheckout: boolean;
  readonly code: string | null;
  readonly mode: DiscountMode;
  readonly type: DiscountType;
  /** A percentage (`"12.5"`) or, for flat types, lowest currency units (`"500"`). */
  readonly amount: string;
  /** Set exactly for flat types. */
  readonly currencyCode: string | null;
  readonly recur: boolean;
  /** With `recur`, how many billing periods it applies for; null is every one. */
  readonly maximumRecurringIntervals: number | null;
  readonly usageLimit: number | null;
  /** Price and product ids it applies to; null is every line. */
  readonly restrictTo: readonly string[] | null;
  readonly expiresAt: string | null;
  readonly customData: CustomData;
  readonly timesUsed: number;
  readonly discountGroupId: string | null;
  readonly importMeta: null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface DiscountGroup {
  readonly id: string;
  readonly name: string;
  readonly status: CatalogueStatus;
  readonly importMeta: null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** The status to show at `now`: a stored `active` discount past its `expiresAt` is `expired`. */
export function discountStatusAt(discount: Discount, now: string): DiscountStatus {
  if (discount.status === 'active' && discount.expiresAt !== null && discount.expiresAt <= now) return 'expired';
  return discount.status;
}

/** The discount as it reads at `now`. */
export function discountAt(discount: Discount, now: string): Discount {
  const status = discountStatusAt(discount, now);
  return status === discount.status ? discount : { ...discount, status };
}

/** The stored status after `timesUsed` changed: `used` at the limit, `active` again below it. */
export function statusAfterUse(discount: Discount): DiscountStatus {
  if (discount.status === 'archived') return 'archived';
  if (discount.usageLimit !== null && discount.timesUsed >= discount.usageLimit) return 'used';
  return 'active';
}
