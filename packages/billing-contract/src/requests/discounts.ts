/**
 * @module
 * Request bodies of discounts and discount groups, in wire (snake_case) form. Value rules
 * (percentage and amount patterns, currency, code pattern, expiry in the future) are the core's.
 */
import { z } from 'zod';
import { catalogueStatus, customData, description, idOf, name } from './common.js';

export const DISCOUNT_TYPE = z.enum(['flat', 'flat_per_seat', 'percentage']);
const discountMode = z.enum(['standard', 'custom']);
const timestamp = z.iso.datetime({ offset: true });
const restrictTo = z
  .array(z.union([idOf('pri'), idOf('pro')]))
  .min(1)
  .max(100)
  .nullable();

/** The terms a discount made for one transaction or subscription (`mode: custom`) takes. */
export const NonCatalogueDiscountBody = z.strictObject({
  amount: z.string().max(32),
  description: description.min(1),
  type: DISCOUNT_TYPE,
  recur: z.boolean().optional(),
  maximum_recurring_intervals: z.number().int().min(1).max(1_000).nullable().optional(),
  custom_data: customData.optional(),
  restrict_to: restrictTo.optional(),
});

const discountFields = {
  enabled_for_checkout: z.boolean().optional(),
  code: z.string().max(32).nullable().optional(),
  mode: discountMode.optional(),
  currency_code: z.string().length(3).nullable().optional(),
  recur: z.boolean().optional(),
  maximum_recurring_intervals: z.number().int().min(1).max(1_000).nullable().optional(),
  usage_limit: z.number().int().min(1).max(1_000_000_000).nullable().optional(),
  restrict_to: restrictTo.optional(),
  expires_at: timestamp.nullable().optional(),
  custom_data: customData.optional(),
  discount_group_id: idOf('dsg').nullable().optional(),
};

export const CreateDiscountBody = z.strictObject({
  amount: z.string().max(32),
  description: description.min(1),
  type: DISCOUNT_TYPE,
  ...discountFields,
});

export const UpdateDiscountBody = z.strictObject({
  status: catalogueStatus.optional(),
  description: description.min(1).optional(),
  type: DISCOUNT_TYPE.optional(),
  amount: z.string().max(32).optional(),
  ...discountFields,
});

export const CreateDiscountGroupBody = z.strictObject({ name });

export const UpdateDiscountGroupBody = z.strictObject({
  name: name.optional(),
  status: catalogueStatus.optional(),
});
