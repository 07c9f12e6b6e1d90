/**
 * @module
 * Request bodies of transactions, payments, adjustments and tax settings, in wire
 * (snake_case) form. Value rules that belong to the domain (quantity ranges, currencies, rate
 * patterns, amounts against balances) are checked by the core.
 */
import { z } from 'zod';
import { NonCataloguePriceBody } from './catalogue.js';
import { customData, duration, idOf } from './common.js';
import { NonCatalogueDiscountBody } from './discounts.js';

const lowestUnitAmount = z
  .string()
  .regex(/^(0|[1-9]\d{0,17})$/, 'must be an integer string in the lowest currency unit');

/** A catalogue price by id, or a non-catalogue `price` (ADR 1108); the core wants exactly one. */
const transactionItem = z.strictObject({
  price_id: idOf('pri').nullable().optional(),
  price: NonCataloguePriceBody.nullable().optional(),
  quantity: z.number().int().min(1).max(999_999_999),
});

/** Invoice terms of manual collection (transactions and subscriptions). */
export const billingDetails = z.strictObject({
  enable_checkout: z.boolean().optional(),
  purchase_order_number: z.string().max(100).nullable().optional(),
  additional_information: z.string().max(1_500).nullable().optional(),
  payment_terms: duration,
});

const timestamp = z.iso.datetime({ offset: true });

const billingPeriod = z.strictObject({ starts_at: timestamp, ends_at: timestamp });

const transactionFields = {
  customer_id: idOf('ctm').nullable().optional(),
  address_id: idOf('add').nullable().optional(),
  business_id: idOf('biz').nullable().optional(),
  currency_code: z.string().length(3).optional(),
  collection_mode: z.enum(['automatic', 'manual']).optional(),
  billing_details: billingDetails.nullable().optional(),
  billing_period: billingPeriod.nullable().optional(),
  custom_data: customData.optional(),
  discount_id: idOf('dsc').nullable().optional(),
  discount: NonCatalogueDiscountBody.nullable().optional(),
  /** The payment page of this transaction (`null` url: the account's default payment link). */
  checkout: z
    .strictObject({ url: z.string().max(2048).nullable() })
    .nullable()
    .optional(),
};

export const CreateTransactionBody = z.strictObject({
  items: z.array(transactionItem).min(1).max(100),
  ...transactionFields,
  /** Only `billed` may be asked for: the invoice is issued at once. */
  status: z.literal('billed').optional(),
});

export const UpdateTransactionBody = z.strictObject({
  items: z.array(transactionItem).min(1).max(100).optional(),
  ...transactionFields,
  /** API callers may set only `billed` (issue the invoice) or `canceled`. */
  status: z.enum(['billed', 'canceled']).optional(),
});

const revisedText = z.string().trim().min(1).max(200);

export const ReviseTransactionBody = z.strictObject({
  customer: z.strictObject({ name: revisedText.optional() }).optional(),
  business: z.strictObject({ name: revisedText.optional(), tax_identifier: revisedText.optional() }).optional(),
  address: z
    .strictObject({
      first_line: revisedText.optional(),
      second_line: z.string().trim().max(200).nullable().optional(),
      city: revisedText.optional(),
      region: revisedText.optional(),
    })
    .optional(),
});

export const SimulatePaymentBody = z.strictObject({
  outcome: z.enum(['success', 'failure']),
});

export const RecordPaymentBody = z.strictObject({
  /** Defaults to the whole balance. */
  amount: lowestUnitAmount.optional(),
  status: z.enum(['captured', 'error']).optional(),
  method_type: z.string().regex(/^[a-z][a-z_]{0,49}$/, 'must be a payment method type such as card or bank_transfer'),
  provider_reference: z.string().trim().min(1).max(200),
  error_code: z.string().max(100).nullable().optional(),
});

const adjustmentItem = z.strictObject({
  item_id: idOf('txnitm'),
  type: z.enum(['full', 'partial']),
  amount: lowestUnitAmount.nullable().optional(),
});

export const CreateAdjustmentBody = z.strictObject({
  action: z.enum(['credit', 'refund']),
  transaction_id: idOf('txn'),
  reason: z.string().trim().min(1).max(2_000),
  type: z.enum(['full', 'partial']).optional(),
  items: z.array(adjustmentItem).max(100).optional(),
  /** Adjustment amounts include tax; `external` is not offered. */
  tax_mode: z.literal('internal').optional(),
});

export const UpdateTaxSettingsBody = z.strictObject({
  default_tax_mode: z.enum(['internal', 'external', 'location']).optional(),
  rate_source: z.enum(['account', 'location']).optional(),
  seller_country_code: z.string().max(2).nullable().optional(),
  default_rate: z.string().max(16).optional(),
  country_rates: z
    .array(z.strictObject({ country_code: z.string().max(2), rate: z.string().max(16) }))
    .max(1_000)
    .optional(),
  /** Drawdown (ADR 1467): rates for parts of countries, replacing the dataset's under location tax. */
  location_overrides: z
    .array(
      z.strictObject({
        country_code: z.string().max(2),
        region: z.string().max(3).nullable().optional(),
        postal_code_prefix: z.string().max(10).nullable().optional(),
        tax_category: z.string().max(32).nullable().optional(),
        rate: z.string().max(16),
      }),
    )
    .max(5_000)
    .optional(),
});

const previewAddress = z.strictObject({
  country_code: z.string().max(2),
  postal_code: z.string().max(100).nullable().optional(),
});

const previewItem = z.strictObject({
  price_id: idOf('pri').optional(),
  quantity: z.number().int().min(1).max(999_999_999),
  /** Only `true` (or absent) is offered; `false` is refused by name. */
  include_in_totals: z.boolean().nullable().optional(),
  /** A non-catalogue price, priced in memory (ADR 1108). */
  price: NonCataloguePriceBody.nullable().optional(),
});

/** Fields both previews accept on the wire; those not offered are refused by name when not null. */
const previewFields = {
  customer_id: idOf('ctm').nullable().optional(),
  address_id: idOf('add').nullable().optional(),
  currency_code: z.string().max(3).nullable().optional(),
  address: previewAddress.nullable().optional(),
  business_id: idOf('biz').nullable().optional(),
  discount_id: idOf('dsc').nullable().optional(),
  /** Localizes prices and tax by its country when no address is sent (ADR 1434). */
  customer_ip_address: z.string().max(45).nullable().optional(),
};

export const PreviewTransactionBody = z.strictObject({
  items: z.array(previewItem).min(1).max(100),
  ...previewFields,
  ignore_trials: z.boolean().nullable().optional(),
  discount: NonCatalogueDiscountBody.nullable().optional(),
});

export const PricingPreviewBody = z.strictObject({
  items: z
    .array(previewItem.pick({ price_id: true, quantity: true }))
    .min(1)
    .max(100),
  ...previewFields,
});

/** Preview fields refused by name when sent with a value other than null. */
export const UNSUPPORTED_PREVIEW_FIELDS: readonly string[] = [];
