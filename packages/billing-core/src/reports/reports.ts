/**
 * @module
 * Report use cases: create with the documented filters of each type, get, list, and the claims
 * of a one-hour download link. Balance and payout reconciliation reports are refused: Drawdown
 * holds no balance and makes no payouts (ADR 1303). Discounts reports list the discounts with
 * their status as it reads now (issue 36).
 */

import { DISCOUNT_STATUSES, DISCOUNT_TYPES } from '../discounts/discount.js';
import { recordEvent } from '../events/record-event.js';
import { isSupportedCurrency } from '../money/currencies.js';
import { BillingError, type FieldError } from '../shared/billing-error.js';
import { toTimestamp } from '../shared/clock.js';
import { type Context, nowTimestamp } from '../shared/context.js';
import type { ListQuery, Page } from '../shared/pagination.js';
import type { Scope } from '../shared/scope.js';
import { COLLECTION_MODES, TRANSACTION_ORIGINS, TRANSACTION_STATUSES } from '../transactions/transaction.js';
import { REPORT_TYPES, type Report, type ReportColumn, type ReportFilter, type ReportType } from './report.js';
import type { ReportSlice } from './repositories.js';

/** A run is due from the epoch: the report worker takes it at once. */
export const REPORT_DUE_NOW = '1970-01-01T00:00:00.000Z';
export const REPORT_LINK_LIFETIME_MS = 60 * 60 * 1000;
/** A ready report can be downloaded for 14 days, as the reference keeps its files. */
export const REPORT_RETENTION_MS = 14 * 24 * 60 * 60 * 1000;

type FilterRule =
  | { readonly kind: 'values'; readonly values: readonly string[] }
  | { readonly kind: 'currency' }
  | { readonly kind: 'date' };

const TRANSACTION_FILTERS: Readonly<Record<string, FilterRule>> = {
  status: { kind: 'values', values: TRANSACTION_STATUSES },
  origin: { kind: 'values', values: TRANSACTION_ORIGINS },
  collection_mode: { kind: 'values', values: COLLECTION_MODES },
  currency_code: { kind: 'currency' },
  updated_at: { kind: 'date' },
};

const ADJUSTMENT_FILTERS: Readonly<Record<string, FilterRule>> = {
  action: { kind: 'values', values: ['credit', 'refund', 'chargeback', 'chargeback_reverse', 'chargeback_warning'] },
  status: { kind: 'values', values: ['pending_approval', 'approved', 'rejected', 'reversed'] },
  currency_code: { kind: 'currency' },
  updated_at: { kind: 'date' },
};

const CATALOGUE_FILTERS: Readonly<Record<string, FilterRule>> = {
  product_status: { kind: 'values', values: ['active', 'archived'] },
  price_status: { kind: 'values', values: ['active', 'archived'] },
  product_type: { kind: 'values', values: ['standard', 'custom'] },
  price_type: { kind: 'values', values: ['standard', 'custom'] },
  product_updated_at: { kind: 'date' },
  price_updated_at: { kind: 'date' },
};

const DISCOUNT_FILTERS: Readonly<Record<string, FilterRule>> = {
  type: { kind: 'values', values: DISCOUNT_TYPES },
  status: { kind: 'values', values: DISCOUNT_STATUSES },
  updated_at: { kind: 'date' },
};

const FILTERS_BY_TYPE: Partial<Record<ReportType, Readonly<Record<string, FilterRule>>>> = {
  transactions: TRANSACTION_FILTERS,
  transaction_line_items: TRANSACTION_FILTERS,
  adjustments: ADJUSTMENT_FILTERS,
  adjustment_line_items: ADJUSTMENT_FILTERS,
  products_prices: CATALOGUE_FILTERS,
  usage_balances: { updated_at: { kind: 'date' } },
  subscription_cancellations: { recorded_at: { kind: 'date' } },
  discounts: DISCOUNT_FILTERS,
};

const UNSUPPORTED: Partial<Record<ReportType, string>> = {
  balance: 'Drawdown holds no seller balance: payments go to your own payment provider.',
  payout_reconciliation: 'Drawdown makes no payouts: payments go to your own payment provider.',
};

const isTimestamp = (value: string) =>
  /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2}))?$/.test(value) &&
  !Number.isNaN(Date.parse(value));

export interface ReportFilterInput {
  readonly name: string;
  readonly operator?: string | null | undefined;
  readonly value: string | readonly string[];
}

/** Checks filters against the type's documented set; dates become canonical timestamps. */
export function requireReportFilters(type: ReportType, input: readonly ReportFilterInput[]): ReportFilter[] {
  const rules = FILTERS_BY_TYPE[type] ?? {};
  const errors: FieldError[] = [];
  const filters: ReportFilter[] = [];
  const seen = new Set<string>();
  input.forEach((filter, index) => {
    const field = `filters[${index}]`;
    const rule = rules[filter.name];
    if (!rule) {
      errors.push({ field: `${field}.name`, message: `${filter.name} is not a filter of ${type} reports` });
      return;
    }
    const operator = filter.operator ?? null;
    if (rule.kind === 'date') {
      if (operator !== 'lt' && operator !== 'gte') {
        errors.push({ field: `${field}.operator`, message: 'must be lt or gte for a date filter' });
        return;
      }
      if (typeof filter.value !== 'string' || !isTimestamp(filter.value)) {
        errors.push({ field: `${field}.value`, message: 'must be an RFC 3339 date or date-time' });
        return;
      }
      const key = `${filter.name} ${operator}`;
      if (seen.has(key)) errors.push({ field, message: `repeats ${filter.name} ${operator}` });
      seen.add(key);
      filters.push({ name: filter.name, operator, value: toTimestamp(Date.parse(filter.value)) });
      return;
    }
    if (operator !== null) {
      errors.push({ field: `${field}.operator`, message: 'must be null for a filter of values' });
      return;
    }
    const values = typeof filter.value === 'string' ? [filter.value] : [...filter.value];
    const allowed = (value: string) =>
      rule.kind === 'currency' ? isSupportedCurrency(value) : rule.values.includes(value);
    if (values.length === 0 || values.some((value) => !allowed(value))) {
      const expected = rule.kind === 'currency' ? 'supported currency codes' : rule.values.join(', ');
      errors.push({ field: `${field}.value`, message: `must be one or more of ${expected}` });
      return;
    }
    if (seen.has(filter.name)) errors.push({ field, message: `repeats ${filter.name}` });
    seen.add(filter.name);
    filters.push({ name: filter.name, operator: null, value: values });
  });
  for (const filter of filters) {
    if (filter.operator !== 'gte') continue;
    const before = filters.find((other) => other.name === filter.name && other.operator === 'lt');
    if (before && String(before.value) <= String(filter.value)) {
      errors.push({ field: 'filters', message: `${filter.name} gte must be before ${filter.name} lt` });
    }
  }
  if (errors.length > 0) {
    throw new BillingError(
      'invalid_field',
      `Invalid request. ${errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`,
      errors,
    );
  }
  return filters;
}

export async function createReport(
  context: Context<ReportSlice>,
  input: { readonly type: string; readonly filters?: readonly ReportFilterInput[] | null | undefined },
): Promise<Report> {
  if (!(REPORT_TYPES as readonly string[]).includes(input.type)) {
    throw BillingError.invalidField('type', `must be one of ${REPORT_TYPES.join(', ')}`);
  }
  const type = input.type as ReportType;
  const unsupported = UNSUPPORTED[type];
  if (unsupported)
    throw new BillingError('report_type_not_supported', `${type} reports are not available: ${unsupported}`);
  const filters = requireReportFilters(type, input.filters ?? []);
  const now = nowTimestamp(context);
  const report: Report = {
    id: context.ids.newId('rep'),
    status: 'pending',
    rows: null,
    type,
    filters,
    expiresAt: null,
    createdAt: now,
    updatedAt: now,
    dueAt: REPORT_DUE_NOW,
  };
  await context.store.transaction(async (tx) => {
    await tx.reports.insert(context.scope, report);
    await recordEvent(context, tx, 'report.created', 'report', report);
  });
  return report;
}

export async function getReport(context: Context<ReportSlice>, id: string): Promise<Report> {
  const report = await context.store.reports.findById(context.scope, id);
  if (!report) throw BillingError.notFound('Report', id);
  return withExpiry(report, context.clock.now());
}

export async function listReports(
  context: Context<ReportSlice>,
  query: ListQuery<ReportColumn>,
): Promise<Page<Report>> {
  const page = await context.store.reports.list(context.scope, query);
  const now = context.clock.now();
  return { ...page, items: page.items.map((report) => withExpiry(report, now)) };
}

/** A ready report past its `expires_at` reads as `expired`. */
function withExpiry(report: Report, now: number): Report {
  return report.status === 'ready' && report.expiresAt !== null && Date.parse(report.expiresAt) <= now
    ? { ...report, status: 'expired' }
    : report;
}

/** What a signed report link carries. */
export interface ReportLinkClaims {
  readonly accountId: string;
  readonly environment: Scope['environment'];
  readonly reportId: string;
  /** Milliseconds since the epoch on the account environment's clock. */
  readonly expiresAt: number;
}

export function reportLinkPayload(claims: ReportLinkClaims): string {
  return ['drawdown-report-v1', claims.accountId, claims.environment, claims.reportId, String(claims.expiresAt)].join(
    '\n',
  );
}

/** The claims of a one-hour link to a ready report's CSV. */
export async function issueReportLink(context: Context<ReportSlice>, id: string): Promise<ReportLinkClaims> {
  const report = await getReport(context, id);
  if (report.status === 'expired')
    throw new BillingError('report_expired', `Report ${id} has expired; create a new one.`);
  if (report.status !== 'ready') {
    throw new BillingError(
      'report_not_ready',
      `Report ${id} is ${report.status}; only a ready report can be downloaded.`,
    );
  }
  return {
    accountId: context.scope.accountId,
    environment: context.scope.environment,
    reportId: id,
    expiresAt: context.clock.now() + REPORT_LINK_LIFETIME_MS,
  };
}

/** Checks a link's expiry and that its report is still downloadable. */
export async function requireDownloadableReport(
  context: Context<ReportSlice>,
  claims: ReportLinkClaims,
): Promise<Report> {
  if (context.clock.now() >= claims.expiresAt) {
    throw new BillingError('report_link_expired', 'This report link has expired; request a new one from the API.');
  }
  const report = await getReport(context, claims.reportId);
  if (report.status === 'expired') throw new BillingError('report_expired', `Report ${report.id} has expired.`);
  if (report.status !== 'ready') throw new BillingError('report_not_ready', `Report ${report.id} is not ready.`);
  return report;
}
