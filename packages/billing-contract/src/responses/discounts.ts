/**
 * @module
 * Response schemas of discounts and discount groups.
 */
import { z } from 'zod';
import {
  catalogueStatus,
  currencyCode,
  customData,
  entity,
  id,
  importMeta,
  nullableTimestamp,
  timestamp,
} from './common.js';

export const DiscountGroup = entity(
  'DiscountGroup',
  'A named group of discounts.',
  z.strictObject({
    id: id('dsg'),
    name: z.string(),
    status: catalogueStatus,
    import_meta: importMeta,
    created_at: timestamp,
    updated_at: timestamp,
  }),
);

const discountFields = {
  id: id('dsc'),
  status: z.enum(['active', 'archived', 'expired', 'used']),
  description: z.string(),
  enabled_for_checkout: z.boolean(),
  code: z.string().nullable(),
  mode: z.enum(['standard', 'custom']),
  type: z.enum(['flat', 'flat_per_seat', 'percentage']),
  amount: z
    .string()
    .regex(/^(0|[1-9]\d*)(\.\d+)?$/)
    .describe('Lowest currency unit for flat discounts; a percentage such as `10.5` for percentage discounts.'),
  currency_code: currencyCode.nullable(),
  recur: z.boolean(),
  maximum_recurring_intervals: z.number().int().min(1).nullable(),
  usage_limit: z.number().int().min(1).nullable(),
  restrict_to: z.array(z.string().regex(/^(pro|pri)_[a-z\d]{26}$/)).nullable(),
  expires_at: nullableTimestamp,
  custom_data: customData,
  times_used: z.number().int().min(0),
  discount_group_id: id('dsg').nullable(),
  import_meta: importMeta,
  created_at: timestamp,
  updated_at: timestamp,
};

/** A discount as other entities embed it. */
export const DiscountSummary = entity('DiscountSummary', 'A discount.', z.strictObject(discountFields));

export const Discount = entity(
  'Discount',
  'A discount; `discount_group` only with `include=discount_group`.',
  z.strictObject({ ...discountFields, discount_group: DiscountGroup.nullable().optional() }),
);
