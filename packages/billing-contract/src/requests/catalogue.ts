/**
 * @module
 * Request bodies of the catalogue endpoints, in wire (snake_case) form. Unknown fields are
 * refused: a misspelt field that silently did nothing would be worse than an error.
 */
import { z } from 'zod';
import {
  catalogueStatus,
  catalogueType,
  customData,
  decimalString,
  description,
  duration,
  idOf,
  money,
  name,
} from './common.js';

export const TAX_CATEGORY = z.enum([
  'digital-goods',
  'ebooks',
  'implementation-services',
  'professional-services',
  'saas',
  'software-programming-services',
  'standard',
  'training-services',
  'website-hosting',
]);

const imageUrl = z.union([z.url({ protocol: /^https?$/ }).max(2_048), z.literal('')]).nullable();

export const CreateProductBody = z.strictObject({
  name,
  tax_category: TAX_CATEGORY,
  description: description.nullable().optional(),
  type: catalogueType.optional(),
  image_url: imageUrl.optional(),
  custom_data: customData.optional(),
});

export const UpdateProductBody = z.strictObject({
  name: name.optional(),
  tax_category: TAX_CATEGORY.optional(),
  description: description.nullable().optional(),
  type: catalogueType.optional(),
  image_url: imageUrl.optional(),
  custom_data: customData.optional(),
  status: catalogueStatus.optional(),
});

const allowance = z.strictObject({
  usage_balance_unit_id: idOf('ubu'),
  amount: decimalString,
});

/** A trial; `requires_payment_method: false` makes it a cardless trial (ADR 1010). */
const trialPeriod = duration.extend({ requires_payment_method: z.boolean().optional() });

const priceFields = {
  description: description.min(1),
  unit_price: money,
  name: name.nullable().optional(),
  type: catalogueType.optional(),
  billing_cycle: duration.nullable().optional(),
  trial_period: trialPeriod.nullable().optional(),
  tax_mode: z.enum(['account_setting', 'external', 'internal', 'location']).optional(),
  unit_price_overrides: z
    .array(
      z.strictObject({
        country_codes: z
          .array(z.string().regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code'))
          .min(1)
          .max(250),
        unit_price: money,
      }),
    )
    .max(250)
    .optional(),
  quantity: z.strictObject({ minimum: z.number().int(), maximum: z.number().int() }).optional(),
  // Length is left to the core, which answers more than 20 with its own code.
  allowances: z.array(allowance).max(1_000).optional(),
  custom_data: customData.optional(),
};

export const CreatePriceBody = z.strictObject({ product_id: idOf('pro'), ...priceFields });

/**
 * A non-catalogue price on a transaction item (ADR 1108): the price fields without `type` and
 * `allowances`, for a catalogue product (`product_id`) or a product of its own (`product`).
 */
export const NonCataloguePriceBody = z.strictObject({
  description: priceFields.description,
  unit_price: priceFields.unit_price,
  name: priceFields.name,
  billing_cycle: priceFields.billing_cycle,
  trial_period: priceFields.trial_period,
  tax_mode: priceFields.tax_mode,
  unit_price_overrides: priceFields.unit_price_overrides,
  quantity: priceFields.quantity,
  custom_data: priceFields.custom_data,
  product_id: idOf('pro').nullable().optional(),
  product: z
    .strictObject({
      name,
      tax_category: TAX_CATEGORY,
      description: description.nullable().optional(),
      image_url: imageUrl.optional(),
      custom_data: customData.optional(),
    })
    .nullable()
    .optional(),
});

export const UpdatePriceBody = z.strictObject({
  ...priceFields,
  description: priceFields.description.optional(),
  unit_price: money.optional(),
  status: catalogueStatus.optional(),
});

const email = z.email().max(320);
const locale = z.string().regex(/^[a-z]{2,3}(-[A-Za-z\d]{2,8})*$/, 'must be a language tag such as en or pt-BR');

export const CreateCustomerBody = z.strictObject({
  email,
  name: name.nullable().optional(),
  locale: locale.optional(),
  custom_data: customData.optional(),
});

export const UpdateCustomerBody = z.strictObject({
  email: email.optional(),
  name: name.nullable().optional(),
  locale: locale.optional(),
  custom_data: customData.optional(),
  status: catalogueStatus.optional(),
});

const addressLine = z.string().max(200).nullable().optional();

export const CreateAddressBody = z.strictObject({
  country_code: z.string().max(2),
  description: addressLine,
  first_line: addressLine,
  second_line: addressLine,
  city: addressLine,
  postal_code: addressLine,
  region: addressLine,
  custom_data: customData.optional(),
});

export const UpdateAddressBody = z.strictObject({
  ...CreateAddressBody.shape,
  country_code: z.string().max(2).optional(),
  status: catalogueStatus.optional(),
});

const businessContact = z.strictObject({
  name: z.string().trim().max(200).nullable().optional(),
  email: z.email().max(320),
});

export const CreateBusinessBody = z.strictObject({
  name,
  company_number: z.string().trim().max(100).nullable().optional(),
  tax_identifier: z.string().trim().max(100).nullable().optional(),
  contacts: z.array(businessContact).max(100).nullable().optional(),
  custom_data: customData.optional(),
});

export const UpdateBusinessBody = z.strictObject({
  ...CreateBusinessBody.shape,
  name: name.optional(),
  status: catalogueStatus.optional(),
});

export const CreateUsageBalanceUnitBody = z.strictObject({
  name,
  unit_name: name,
});

export const UpdateUsageBalanceUnitBody = z.strictObject({
  name: name.optional(),
  unit_name: name.optional(),
  status: catalogueStatus.optional(),
});

export const CreateMeterBody = z.strictObject({
  usage_balance_unit_id: idOf('ubu'),
  name,
  description: description.nullable().optional(),
  action: z.string().max(200),
  unit_name: name,
  rate: decimalString,
  aggregation: z.string().max(64).optional(),
});

export const UpdateMeterBody = z.strictObject({
  name: name.optional(),
  description: description.nullable().optional(),
  action: z.string().max(200).optional(),
  unit_name: name.optional(),
  rate: decimalString.optional(),
  status: catalogueStatus.optional(),
  // Sent only to be refused when they differ: both are immutable.
  usage_balance_unit_id: idOf('ubu').optional(),
  aggregation: z.string().max(64).optional(),
});
