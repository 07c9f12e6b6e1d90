/**
 * @module
 * Response schemas of the remaining resources: currencies, usage event answers, reports,
 * metrics, and the sandbox's clock and simulated card.
 */
import { z } from 'zod';
import { amount, countryCode, currencyCode, entity, id, nullableTimestamp, timestamp } from './common.js';

export const Currency = entity(
  'Currency',
  'Drawdown: a currency prices and transactions may use.',
  z.strictObject({
    code: currencyCode,
    name: z.string(),
    decimal_places: z.number().int().min(0),
    can_be_balance: z.boolean(),
    applicable_countries: z.array(countryCode),
    minimum_payment_amount: amount,
  }),
);

export const IpAddresses = entity(
  'IpAddresses',
  'The IPv4 CIDRs webhooks come from, as the operator configured them (`--webhook-source-ips`); empty when unset.',
  z.strictObject({
    ipv4_cidrs: z.array(z.string().regex(/^(\d{1,3}\.){3}\d{1,3}\/\d{1,2}$/)),
  }),
);

export const UsageEventsAnswer = entity(
  'UsageEventsAnswer',
  'Drawdown: what became of each usage event sent; accepted events are durable.',
  z.strictObject({
    events: z.array(
      z.discriminatedUnion('status', [
        z.strictObject({ event_key: z.string(), status: z.literal('accepted') }),
        z.strictObject({
          event_key: z.string(),
          status: z.literal('rejected'),
          error: z.strictObject({ code: z.string(), detail: z.string() }),
        }),
      ]),
    ),
  }),
);

export const REPORT_TYPES = [
  'transactions',
  'transaction_line_items',
  'adjustments',
  'adjustment_line_items',
  'products_prices',
  'discounts',
  'balance',
  'payout_reconciliation',
  'usage_balances',
  'subscription_cancellations',
] as const;

export const Report = entity(
  'Report',
  'A CSV report, made in the background.',
  z.strictObject({
    id: id('rep'),
    status: z.enum(['pending', 'ready', 'failed', 'expired']),
    rows: z.number().int().min(0).nullable(),
    type: z.enum(REPORT_TYPES),
    filters: z.array(
      z.strictObject({
        name: z.string(),
        operator: z.enum(['lt', 'gte']).nullable(),
        value: z.union([z.string(), z.array(z.string())]),
      }),
    ),
    expires_at: nullableTimestamp,
    created_at: timestamp,
    updated_at: timestamp,
  }),
);

const metricFrame = {
  starts_at: timestamp,
  ends_at: timestamp,
  interval: z.literal('day'),
  updated_at: timestamp,
};

export const RevenueMetric = entity(
  'RevenueMetric',
  'A daily timeseries of revenue in one currency and the number of transactions it came from.',
  z.strictObject({
    currency_code: currencyCode,
    timeseries: z.array(
      z.strictObject({ timestamp, amount: z.string().regex(/^(0|-?[1-9]\d*)$/), count: z.number().int().min(0) }),
    ),
    ...metricFrame,
  }),
);

export const AmountMetric = entity(
  'AmountMetric',
  'A daily timeseries of amounts in one currency (refunds, recurring revenue and its change).',
  z.strictObject({
    currency_code: currencyCode,
    timeseries: z.array(z.strictObject({ timestamp, amount: z.string().regex(/^(0|-?[1-9]\d*)$/) })),
    ...metricFrame,
  }),
);

export const CountMetric = entity(
  'CountMetric',
  'A daily timeseries of counts across currencies (active subscribers, chargebacks).',
  z.strictObject({
    timeseries: z.array(z.strictObject({ timestamp, count: z.number().int().min(0) })),
    ...metricFrame,
  }),
);

export const ConversionMetric = entity(
  'ConversionMetric',
  'A daily timeseries of checkouts started and completed, with the completed share.',
  z.strictObject({
    timeseries: z.array(
      z.strictObject({
        timestamp,
        count: z.number().int().min(0),
        completed_count: z.number().int().min(0),
        rate: z.string().regex(/^(0|1)(\.\d+)?$/),
      }),
    ),
    ...metricFrame,
  }),
);

export const SandboxClock = entity(
  'SandboxClock',
  'Drawdown: the sandbox’s own clock and how far it runs ahead of the wall clock.',
  z.strictObject({
    now: timestamp,
    offset_seconds: z.number().int().min(0),
    steps_run: z.number().int().min(0).optional().describe('After an advance: the scheduler steps it ran.'),
  }),
);

export const SandboxPaymentOutcome = entity(
  'SandboxPaymentOutcome',
  'Drawdown: how the sandbox’s simulated card settles the charges the sandbox makes by itself.',
  z.strictObject({ outcome: z.enum(['success', 'failure']) }),
);
