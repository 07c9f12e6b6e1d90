/**
 * @module
 * Response schemas of the catalogue: products, prices, customers, addresses, businesses, usage
 * balance units, meters, and the balances a customer holds.
 */
import { z } from 'zod';
import {
  amount,
  catalogueStatus,
  catalogueType,
  countryCode,
  currencyCode,
  customData,
  duration,
  entity,
  id,
  importMeta,
  money,
  nullableTimestamp,
  quantity,
  signedQuantity,
  timestamp,
} from './common.js';

export const TAX_CATEGORIES = [
  'digital-goods',
  'ebooks',
  'implementation-services',
  'professional-services',
  'saas',
  'software-programming-services',
  'standard',
  'training-services',
  'website-hosting',
] as const;

const productFields = {
  id: id('pro'),
  name: z.string(),
  description: z.string().nullable(),
  type: catalogueType,
  tax_category: z.enum(TAX_CATEGORIES),
  image_url: z.url().nullable(),
  custom_data: customData,
  status: catalogueStatus,
  import_meta: importMeta,
  created_at: timestamp,
  updated_at: timestamp,
};

const priceFields = {
  id: id('pri'),
  product_id: id('pro'),
  name: z.string().nullable(),
  description: z.string(),
  type: catalogueType,
  billing_cycle: duration.nullable().describe('Null for a one-off price.'),
  trial_period: duration
    .extend({
      requires_payment_method: z
        .boolean()
        .optional()
        .describe('False for a cardless trial; absent on prices stored before Drawdown kept it (read as true).'),
    })
    .nullable(),
  tax_mode: z.enum(['account_setting', 'external', 'internal', 'location']),
  unit_price: money,
  unit_price_overrides: z.array(z.strictObject({ country_codes: z.array(countryCode), unit_price: money })),
  quantity: z.strictObject({ minimum: z.number().int().min(1), maximum: z.number().int().min(1) }),
  allowances: z
    .array(z.strictObject({ usage_balance_unit_id: id('ubu'), amount: quantity }))
    .describe('Drawdown: usage granted per billing period and item quantity.'),
  custom_data: customData,
  status: catalogueStatus,
  import_meta: importMeta,
  created_at: timestamp,
  updated_at: timestamp,
};

/** A product as it appears inside other entities (line items, subscription items). */
export const ProductSummary = entity('ProductSummary', 'A product.', z.strictObject(productFields));
/** A price as it appears inside other entities. */
export const PriceSummary = entity('PriceSummary', 'A price.', z.strictObject(priceFields));

export const Product = entity(
  'Product',
  'A product; `prices` only with `include=prices`.',
  z.strictObject({ ...productFields, prices: z.array(PriceSummary).optional() }),
);

export const Price = entity(
  'Price',
  'A price; `product` only with `include=product`.',
  z.strictObject({ ...priceFields, product: ProductSummary.nullable().optional() }),
);

export const Customer = entity(
  'Customer',
  'A customer.',
  z.strictObject({
    id: id('ctm'),
    name: z.string().nullable(),
    email: z.email(),
    marketing_consent: z.boolean(),
    locale: z.string(),
    custom_data: customData,
    status: catalogueStatus,
    import_meta: importMeta,
    created_at: timestamp,
    updated_at: timestamp,
  }),
);

export const Address = entity(
  'Address',
  'A customer’s address.',
  z.strictObject({
    id: id('add'),
    customer_id: id('ctm'),
    description: z.string().nullable(),
    first_line: z.string().nullable(),
    second_line: z.string().nullable(),
    city: z.string().nullable(),
    postal_code: z.string().nullable(),
    region: z.string().nullable(),
    country_code: countryCode,
    custom_data: customData,
    status: catalogueStatus,
    import_meta: importMeta,
    created_at: timestamp,
    updated_at: timestamp,
  }),
);

export const Business = entity(
  'Business',
  'A company a customer buys for.',
  z.strictObject({
    id: id('biz'),
    customer_id: id('ctm'),
    name: z.string(),
    company_number: z.string().nullable(),
    tax_identifier: z.string().nullable(),
    contacts: z.array(z.strictObject({ name: z.string().nullable(), email: z.email() })),
    custom_data: customData,
    status: catalogueStatus,
    import_meta: importMeta,
    created_at: timestamp,
    updated_at: timestamp,
  }),
);

export const UsageBalanceUnit = entity(
  'UsageBalanceUnit',
  'Drawdown: what a usage balance is counted in.',
  z.strictObject({
    id: id('ubu'),
    name: z.string(),
    unit_name: z.string(),
    status: catalogueStatus,
    created_at: timestamp,
    updated_at: timestamp,
  }),
);

export const Meter = entity(
  'Meter',
  'Drawdown: turns usage events of one action into units of a usage balance.',
  z.strictObject({
    id: id('mtr'),
    usage_balance_unit_id: id('ubu'),
    name: z.string(),
    description: z.string().nullable(),
    action: z.string(),
    unit_name: z.string(),
    rate: quantity,
    aggregation: z.literal('sum'),
    status: catalogueStatus,
    created_at: timestamp,
    updated_at: timestamp,
  }),
);

const balanceFigure = z.strictObject({
  total: signedQuantity,
  breakdown: z.strictObject({ subscription: signedQuantity }),
});

export const UsageBalance = entity(
  'UsageBalance',
  'Drawdown: what a customer has used, has left and has overdrawn of one usage balance unit.',
  z.strictObject({
    id: id('ubl'),
    customer_id: id('ctm'),
    usage_balance_unit_id: id('ubu'),
    balance: z.strictObject({
      used: balanceFigure,
      remaining: balanceFigure,
      overage: z.strictObject({
        total: signedQuantity,
        started_at: nullableTimestamp,
        breakdown: z.strictObject({ subscription: signedQuantity }),
      }),
    }),
    created_at: timestamp,
    updated_at: timestamp,
  }),
);

export const CreditBalance = entity(
  'CreditBalance',
  'A customer’s credit in one currency.',
  z.strictObject({
    customer_id: id('ctm'),
    currency_code: currencyCode,
    balance: z.strictObject({ available: amount, reserved: amount, used: amount }),
  }),
);
