/**
 * @module
 * The seven metrics endpoints, read from the daily rollups: one datapoint per UTC day from
 * `from` (inclusive) to `to` (exclusive). Amounts are per currency and never converted; counts
 * span every currency (ADR 1302).
 */
import { isSupportedCurrency } from '../money/currencies.js';
import { BillingError } from '../shared/billing-error.js';
import { type Context, nowTimestamp } from '../shared/context.js';
import { divideHalfEven, type MetricDay, type MetricName } from './metric-rollups.js';
import type { MetricSlice } from './repositories.js';

export const METRIC_ENDPOINTS = [
  'revenue',
  'refunds',
  'chargebacks',
  'checkout-conversion',
  'active-subscribers',
  'monthly-recurring-revenue',
  'monthly-recurring-revenue-change',
] as const;
export type MetricEndpoint = (typeof METRIC_ENDPOINTS)[number];

/** The longest range one request may ask for. */
export const MAX_METRIC_DAYS = 366;
const DAY_MS = 86_400_000;
const FULL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export interface MetricsQuery {
  readonly from: string | undefined;
  readonly to: string | undefined;
  /** Amount metrics only; defaults to USD. Counts span every currency and refuse it. */
  readonly currencyCode: string | undefined;
}

export interface MetricsDatapoint {
  readonly timestamp: string;
  readonly amount?: string;
  readonly count?: number;
  readonly completedCount?: number;
  readonly rate?: string;
}

export interface MetricsTimeseries {
  readonly currencyCode?: string;
  readonly timeseries: readonly MetricsDatapoint[];
  readonly startsAt: string;
  readonly endsAt: string;
  readonly interval: 'day';
  readonly updatedAt: string;
}

function parseDate(field: 'from' | 'to', value: string | undefined): number {
  const match = value === undefined ? null : FULL_DATE.exec(value);
  const ms = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : Number.NaN;
  if (!match || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value) {
    throw BillingError.invalidField(field, 'must be an RFC 3339 full date (YYYY-MM-DD)');
  }
  return ms;
}

const AMOUNT_METRICS: ReadonlySet<MetricEndpoint> = new Set([
  'revenue',
  'refunds',
  'monthly-recurring-revenue',
  'monthly-recurring-revenue-change',
]);

/** `completed / started` to four decimal places, half to even; "0" with no checkouts. */
export function conversionRate(completed: number, started: number): string {
  if (started === 0) return '0';
  const rounded = divideHalfEven(BigInt(completed) * 10_000n, BigInt(started));
  const whole = rounded / 10_000n;
  const fraction = (rounded % 10_000n).toString().padStart(4, '0').replace(/0+$/, '');
  return fraction === '' ? whole.toString() : `${whole}.${fraction}`;
}

/** Answers one metrics endpoint for the scope. */
export async function getMetrics(
  context: Context<MetricSlice>,
  endpoint: MetricEndpoint,
  query: MetricsQuery,
): Promise<MetricsTimeseries> {
  const from = parseDate('from', query.from);
  const to = parseDate('to', query.to);
  if (to < from) throw BillingError.invalidField('to', 'must be the same as or after from');
  const days = (to - from) / DAY_MS;
  if (days > MAX_METRIC_DAYS) {
    throw new BillingError(
      'metrics_range_too_long',
      `A metrics range covers at most ${MAX_METRIC_DAYS} days; ${query.from}..${query.to} covers ${days}.`,
    );
  }
  const amountBased = AMOUNT_METRICS.has(endpoint);
  if (!amountBased && query.currencyCode !== undefined) {
    throw BillingError.invalidField('currency_code', `does not apply to ${endpoint}, which counts across currencies`);
  }
  const currencyCode = amountBased ? (query.currencyCode ?? 'USD') : null;
  if (currencyCode !== null && !isSupportedCurrency(currencyCode)) {
    throw BillingError.invalidField('currency_code', 'must be a supported three-letter currency code');
  }
  const fromDay = new Date(from).toISOString().slice(0, 10);
  const toDay = new Date(to).toISOString().slice(0, 10);
  const dayList = Array.from({ length: days }, (_, index) => new Date(from + index * DAY_MS).toISOString());
  const rollups = context.store.metricRollups;
  const read = async (metric: MetricName) => {
    const rows = await rollups.days(context.scope, metric, currencyCode, fromDay, toDay);
    return new Map(rows.map((row) => [row.day, row]));
  };
  const at = (rows: Map<string, MetricDay>, timestamp: string): MetricDay =>
    rows.get(timestamp.slice(0, 10)) ?? { day: timestamp.slice(0, 10), amount: 0n, count: 0 };

  let timeseries: MetricsDatapoint[];
  switch (endpoint) {
    case 'revenue': {
      const rows = await read('revenue');
      timeseries = dayList.map((timestamp) => {
        const row = at(rows, timestamp);
        return { timestamp, amount: row.amount.toString(), count: row.count };
      });
      break;
    }
    case 'refunds':
    case 'monthly-recurring-revenue-change': {
      const rows = await read(endpoint === 'refunds' ? 'refunds' : 'monthly_recurring_revenue');
      timeseries = dayList.map((timestamp) => ({ timestamp, amount: at(rows, timestamp).amount.toString() }));
      break;
    }
    case 'chargebacks': {
      const rows = await read('chargebacks');
      timeseries = dayList.map((timestamp) => ({ timestamp, count: at(rows, timestamp).count }));
      break;
    }
    case 'checkout-conversion': {
      const started = await read('checkouts');
      const completed = await read('checkouts_completed');
      timeseries = dayList.map((timestamp) => {
        const count = at(started, timestamp).count;
        const completedCount = at(completed, timestamp).count;
        return { timestamp, count, completedCount, rate: conversionRate(completedCount, count) };
      });
      break;
    }
    case 'active-subscribers':
    case 'monthly-recurring-revenue': {
      // Running totals: the state at the end of each day is everything up to and including it.
      const metric = endpoint === 'active-subscribers' ? 'active_subscribers' : 'monthly_recurring_revenue';
      const before = await rollups.totalBefore(context.scope, metric, currencyCode, fromDay);
      const rows = await read(metric);
      let amount = before.amount;
      let count = before.count;
      timeseries = dayList.map((timestamp) => {
        const row = at(rows, timestamp);
        amount += row.amount;
        count += row.count;
        return endpoint === 'active-subscribers' ? { timestamp, count } : { timestamp, amount: amount.toString() };
      });
      break;
    }
  }
  return {
    ...(currencyCode !== null ? { currencyCode } : {}),
    timeseries,
    startsAt: new Date(from).toISOString(),
    endsAt: new Date(to).toISOString(),
    interval: 'day',
    updatedAt: nowTimestamp(context),
  };
}
