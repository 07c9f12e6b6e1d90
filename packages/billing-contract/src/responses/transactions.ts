/**
 * @module
 * Response schemas of transactions (and their previews), adjustments and tax settings.
 */
import { z } from 'zod';
import { Address, Business, Customer, PriceSummary, ProductSummary, TAX_CATEGORIES } from './catalogue.js';
import {
  amount,
  cardSummary,
  countryCode,
  currencyCode,
  customData,
  duration,
  entity,
  id,
  nullableTimestamp,
  period,
  rate,
  signedAmount,
  timestamp,
} from './common.js';
import { DiscountSummary } from './discounts.js';

export const TRANSACTION_STATUSES = ['draft', 'ready', 'billed', 'paid', 'completed', 'canceled', 'past_due'] as const;
export const TRANSACTION_ORIGINS = [
  'api',
  'web',
  'subscription_charge',
  'subscription_payment_method_change',
  'subscription_recurring',
  'subscription_update',
] as const;
export const collectionMode = z.enum(['automatic', 'manual']);

/** Subtotal, discount, tax and total of a line or a tax rate; negative on credit lines of a change. */
export const amountTotals = z.strictObject({
  subtotal: signedAmount,
  discount: signedAmount,
  tax: signedAmount,
  total: signedAmount,
});

export const transactionTotals = z.strictObject({
  subtotal: signedAmount,
  discount: signedAmount,
  tax: signedAmount,
  total: signedAmount,
  credit: signedAmount,
  credit_to_balance: signedAmount,
  balance: signedAmount,
  grand_total: signedAmount,
  grand_total_tax: signedAmount,
  fee: signedAmount.nullable(),
  earnings: signedAmount.nullable(),
  currency_code: currencyCode,
});

const adjustedTotals = z.strictObject({
  subtotal: signedAmount,
  tax: signedAmount,
  total: signedAmount,
  grand_total: signedAmount,
  grand_total_tax: signedAmount,
  fee: signedAmount,
  earnings: signedAmount,
  retained_fee: signedAmount,
  currency_code: currencyCode,
});

const payoutTotals = z.strictObject({
  subtotal: signedAmount,
  discount: signedAmount,
  tax: signedAmount,
  total: signedAmount,
  credit: signedAmount,
  credit_to_balance: signedAmount,
  balance: signedAmount,
  grand_total: signedAmount,
  grand_total_tax: signedAmount,
  fee: signedAmount,
  earnings: signedAmount,
  currency_code: currencyCode,
  exchange_rate: z.string(),
  fee_rate: z.string(),
});

export const proration = z.strictObject({ rate: z.string().regex(/^\d+(\.\d+)?$/), billing_period: period });

export const taxRatesUsed = z.array(z.strictObject({ tax_rate: rate, totals: amountTotals }));

/** A line of a transaction's details, as previews show it (no id: nothing is stored). */
const previewLineFields = {
  price_id: id('pri'),
  quantity: z.number().int().min(1),
  proration: proration.nullable(),
  tax_rate: rate,
  unit_totals: amountTotals,
  totals: amountTotals,
  product: ProductSummary,
};
export const previewLineItem = z.strictObject(previewLineFields);

const transactionItem = z.strictObject({
  price: PriceSummary,
  quantity: z.number().int().min(1),
  proration: proration.nullable(),
});

export const billingDetails = z.strictObject({
  enable_checkout: z.boolean(),
  purchase_order_number: z.string().nullable(),
  additional_information: z.string().nullable(),
  payment_terms: duration,
});

const payment = z.strictObject({
  payment_attempt_id: id('payatt'),
  stored_payment_method_id: z.string().nullable(),
  payment_method_id: z.string().nullable(),
  amount,
  // `canceled`: a payment the provider took that the transaction could not (ADR 1468), refunded.
  status: z.enum(['captured', 'error', 'canceled']),
  error_code: z.string().nullable(),
  method_details: z.strictObject({ type: z.string(), card: cardSummary.nullable(), underlying_details: z.null() }),
  provider_reference: z.string(),
  created_at: timestamp,
  captured_at: nullableTimestamp,
});

const adjustmentFields = {
  id: id('adj'),
  action: z.enum(['credit', 'refund', 'chargeback', 'chargeback_reverse', 'chargeback_warning']),
  type: z.enum(['full', 'partial']),
  transaction_id: id('txn'),
  subscription_id: id('sub').nullable(),
  customer_id: id('ctm'),
  reason: z.string(),
  credit_applied_to_balance: z.boolean().nullable(),
  currency_code: currencyCode,
  status: z
    .enum(['pending_approval', 'approved', 'rejected'])
    .describe(
      "Approved when made, except a live refund sent to the account's payment provider: `pending_approval` until the provider answers, then `approved` or `rejected` (ADR 1463).",
    ),
  items: z.array(
    z.strictObject({
      id: id('adjitm'),
      item_id: id('txnitm'),
      type: z.enum(['full', 'partial']),
      amount,
      proration: z.null(),
      totals: z.strictObject({ subtotal: amount, tax: amount, total: amount }),
    }),
  ),
  totals: z.strictObject({
    subtotal: amount,
    tax: amount,
    total: amount,
    fee: amount,
    earnings: amount,
    retained_fee: amount,
    currency_code: currencyCode,
  }),
  payout_totals: z.null(),
  tax_rates_used: z
    .array(z.strictObject({ tax_rate: rate, totals: z.strictObject({ subtotal: amount, tax: amount, total: amount }) }))
    .describe("The items' totals grouped by the tax rate of the transaction lines they adjust."),
  tax_mode: z.literal('internal'),
  created_at: timestamp,
  updated_at: timestamp,
};

export const Adjustment = entity(
  'Adjustment',
  'A refund or credit against a transaction.',
  z.strictObject(adjustmentFields),
);

const transactionFields = {
  id: id('txn'),
  status: z.enum(TRANSACTION_STATUSES),
  customer_id: id('ctm').nullable(),
  address_id: id('add').nullable(),
  business_id: id('biz').nullable(),
  discount_id: id('dsc').nullable(),
  custom_data: customData,
  currency_code: currencyCode,
  origin: z.enum(TRANSACTION_ORIGINS),
  subscription_id: id('sub').nullable(),
  invoice_id: z.null(),
  invoice_number: z.string().nullable(),
  collection_mode: collectionMode,
  billing_details: billingDetails.nullable(),
  billing_period: period.nullable(),
  items: z.array(transactionItem),
  details: z.strictObject({
    tax_rates_used: taxRatesUsed,
    totals: transactionTotals,
    adjusted_totals: adjustedTotals,
    payout_totals: payoutTotals.nullable(),
    adjusted_payout_totals: z.null(),
    line_items: z.array(z.strictObject({ id: id('txnitm'), ...previewLineFields })),
  }),
  payments: z.array(payment),
  /** Where the customer pays: a link to the checkout page (null once nothing is left to pay). */
  checkout: z.strictObject({ url: z.string().nullable() }).nullable(),
  created_at: timestamp,
  updated_at: timestamp,
  billed_at: nullableTimestamp,
  revised_at: nullableTimestamp,
};

export const Transaction = entity(
  'Transaction',
  'A transaction; the optional fields appear only when asked for with `include`.',
  z.strictObject({
    ...transactionFields,
    address: Address.nullable().optional(),
    adjustments: z.array(z.strictObject(adjustmentFields)).optional(),
    adjustments_totals: z
      .strictObject({
        subtotal: amount,
        tax: amount,
        total: amount,
        fee: amount,
        earnings: amount,
        breakdown: z.strictObject({ credit: amount, refund: amount, chargeback: amount }),
        currency_code: currencyCode,
      })
      .optional(),
    available_payment_methods: z.array(z.string()).optional(),
    business: Business.nullable().optional(),
    customer: Customer.nullable().optional(),
    discount: DiscountSummary.nullable().optional(),
  }),
);

const previewParties = {
  customer_id: id('ctm').nullable(),
  address_id: id('add').nullable(),
  business_id: id('biz').nullable(),
  currency_code: currencyCode,
  discount_id: id('dsc').nullable(),
  customer_ip_address: z.string().nullable(),
  address: z.strictObject({ country_code: countryCode, postal_code: z.string().nullable().optional() }).nullable(),
};

export const TransactionPreview = entity(
  'TransactionPreview',
  'What a transaction would be; nothing is stored.',
  z.strictObject({
    ...previewParties,
    ignore_trials: z.boolean(),
    items: z.array(
      z.strictObject({
        price: PriceSummary,
        quantity: z.number().int().min(1),
        include_in_totals: z.literal(true),
        proration: z.null(),
      }),
    ),
    details: z.strictObject({
      tax_rates_used: taxRatesUsed,
      totals: transactionTotals,
      line_items: z.array(previewLineItem),
    }),
    available_payment_methods: z.array(z.string()),
  }),
);

const formattedTotals = z.strictObject({
  subtotal: z.string(),
  discount: z.string(),
  tax: z.string(),
  total: z.string(),
});

export const PricingPreview = entity(
  'PricingPreview',
  'Prices for display, with totals formatted in the currency.',
  z.strictObject({
    ...previewParties,
    details: z.strictObject({
      line_items: z.array(
        z.strictObject({
          price: PriceSummary,
          quantity: z.number().int().min(1),
          tax_rate: rate,
          unit_totals: amountTotals,
          formatted_unit_totals: formattedTotals,
          totals: amountTotals,
          formatted_totals: formattedTotals,
          product: ProductSummary,
          discounts: z.array(z.never()).max(0),
        }),
      ),
    }),
    available_payment_methods: z.array(z.string()),
  }),
);

export const TaxSettings = entity(
  'TaxSettings',
  'Drawdown: the tax rates the service computes tax with.',
  z.strictObject({
    default_tax_mode: z.enum(['external', 'internal', 'location']),
    rate_source: z.enum(['account', 'location']),
    seller_country_code: countryCode.nullable(),
    default_rate: rate,
    country_rates: z.array(z.strictObject({ country_code: countryCode, rate })),
    location_overrides: z
      .array(
        z.strictObject({
          country_code: countryCode,
          region: z.string().nullable(),
          postal_code_prefix: z.string().nullable(),
          tax_category: z.enum(TAX_CATEGORIES).nullable(),
          rate,
        }),
      )
      .describe(
        'Drawdown (ADR 1467): rates the account set for parts of countries (a region, a postal code prefix, a tax category), replacing the dataset’s rate wherever location tax applies; the most specific match wins.',
      ),
    updated_at: nullableTimestamp,
    location_rates: z.string().describe('The location rate dataset the service computes with, by name and version.'),
  }),
);
