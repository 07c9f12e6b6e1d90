/**
 * @module
 * Response schemas of subscriptions and their previews (updates and one-time charges).
 */
import { z } from 'zod';
import { PriceSummary, ProductSummary } from './catalogue.js';
import {
  currencyCode,
  customData,
  duration,
  entity,
  id,
  importMeta,
  nullableTimestamp,
  period,
  timestamp,
} from './common.js';
import { billingDetails, collectionMode, previewLineItem, taxRatesUsed, transactionTotals } from './transactions.js';

export const SUBSCRIPTION_STATUSES = ['active', 'canceled', 'past_due', 'paused', 'trialing'] as const;

const subscriptionFields = {
  status: z.enum(SUBSCRIPTION_STATUSES),
  customer_id: id('ctm'),
  address_id: id('add').nullable(),
  business_id: id('biz').nullable(),
  currency_code: currencyCode,
  collection_mode: collectionMode,
  created_at: timestamp,
  updated_at: timestamp,
  started_at: nullableTimestamp,
  first_billed_at: nullableTimestamp,
  next_billed_at: nullableTimestamp,
  paused_at: nullableTimestamp,
  canceled_at: nullableTimestamp,
  current_billing_period: period.nullable(),
  billing_cycle: duration,
  scheduled_change: z
    .strictObject({
      action: z.enum(['cancel', 'pause', 'resume']),
      effective_at: timestamp,
      resume_at: nullableTimestamp,
    })
    .nullable(),
  items: z.array(
    z.strictObject({
      status: z.enum(['active', 'inactive', 'trialing']),
      quantity: z.number().int().min(1),
      recurring: z.boolean(),
      created_at: timestamp,
      updated_at: timestamp,
      previously_billed_at: nullableTimestamp,
      next_billed_at: nullableTimestamp,
      trial_dates: period.nullable(),
      price: PriceSummary,
      product: ProductSummary,
    }),
  ),
  custom_data: customData,
  import_meta: importMeta,
  discount: z.strictObject({ id: id('dsc'), starts_at: timestamp, ends_at: nullableTimestamp }).nullable(),
  billing_details: billingDetails.nullable(),
  management_urls: z.strictObject({
    update_payment_method: z.url().nullable().describe('Null for manually collected subscriptions.'),
    cancel: z.url(),
  }),
};

/** The details of a transaction a subscription would bill (line items carry no ids: nothing is stored). */
const previewDetails = z.strictObject({
  tax_rates_used: taxRatesUsed,
  totals: transactionTotals,
  line_items: z.array(previewLineItem),
});

const previewTransaction = z.strictObject({
  billing_period: period.nullable(),
  details: previewDetails,
  adjustments: z.array(z.never()).max(0),
});

export const Subscription = entity(
  'Subscription',
  'A subscription; `next_transaction` and `recurring_transaction_details` only when asked for with `include`.',
  z.strictObject({
    id: id('sub'),
    ...subscriptionFields,
    next_transaction: previewTransaction.nullable().optional(),
    recurring_transaction_details: previewDetails.nullable().optional(),
  }),
);

const summaryMoney = z.strictObject({ amount: z.string().regex(/^(0|[1-9]\d*)$/), currency_code: currencyCode });

export const SubscriptionPreview = entity(
  'SubscriptionPreview',
  'A subscription as a change would leave it, and what it would bill; nothing is stored.',
  z.strictObject({
    ...subscriptionFields,
    immediate_transaction: previewTransaction.nullable(),
    next_transaction: previewTransaction.nullable(),
    recurring_transaction_details: previewDetails.nullable(),
    update_summary: z
      .strictObject({
        credit: summaryMoney,
        charge: summaryMoney,
        result: z.strictObject({
          action: z.enum(['credit', 'charge']),
          amount: z.string().regex(/^(0|[1-9]\d*)$/),
          currency_code: currencyCode,
        }),
      })
      .nullable(),
  }),
);

export const SubscriptionCancellationReason = entity(
  'SubscriptionCancellationReason',
  'Why the customer said they cancel (a Drawdown extension, ADR 0806): given with `POST /subscriptions/{id}/cancel`, removed when a scheduled cancellation is taken back; all null when none was given.',
  z.strictObject({
    subscription_id: id('sub'),
    reason: z
      .enum([
        'too_expensive',
        'missing_features',
        'switched_service',
        'unused',
        'technical_issues',
        'customer_service',
        'other',
      ])
      .nullable(),
    comment: z.string().nullable(),
    recorded_at: nullableTimestamp,
  }),
);
