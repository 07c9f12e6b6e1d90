/**
 * @module
 * Generating a report's CSV: the worker claims a due report, walks its entities in id order a
 * page at a time, and stores each page's rows as one chunk, updating `rows` in the same
 * database transaction, so memory holds one page however large the report and a reader sees
 * progress. A generation that dies leaves its lease to expire; the next claim starts over.
 */

import { discountAt } from '../discounts/discount.js';
import { recordEvent } from '../events/record-event.js';
import type { Clock } from '../shared/clock.js';
import { toTimestamp } from '../shared/clock.js';
import type { Collection } from '../shared/collection.js';
import type { Context, StoreOf } from '../shared/context.js';
import type { FilterCondition, ListFilter } from '../shared/pagination.js';
import type { Scope } from '../shared/scope.js';
import type { Adjustment } from '../transactions/adjustment.js';
import type { Transaction } from '../transactions/transaction.js';
import { balanceTotals } from '../usage/balance-ledger.js';
import type { Report, ReportFilter, ReportType } from './report.js';
import { REPORT_RETENTION_MS } from './reports.js';
import type { ReportSlice } from './repositories.js';

export interface ReportGenerationDependencies {
  readonly store: StoreOf<ReportSlice>;
  /** Leases are wall-clock time. */
  readonly wallClock: Clock;
  /** The context of a scope (its account and its environment's clock), for events and expiry. */
  contextFor(scope: Scope): Promise<Context<ReportSlice> | undefined>;
  /**
   * Waits a while. Generation pauses for 0 ms after each page, so a synchronous database
   * (SQLite) never keeps the process from answering requests while a large report is written.
   */
  pause(milliseconds: number): Promise<void>;
}

export interface ClaimedReport {
  readonly scope: Scope;
  readonly report: Report;
  readonly lease: string;
}

export async function claimDueReports(
  dependencies: ReportGenerationDependencies,
  options: { readonly limit: number; readonly leaseMs: number },
): Promise<ClaimedReport[]> {
  const nowMs = dependencies.wallClock.now();
  const now = toTimestamp(nowMs);
  if (!(await dependencies.store.reports.hasDue(now))) return [];
  const lease = toTimestamp(nowMs + options.leaseMs);
  return dependencies.store.transaction(async (tx) => {
    const claimed: ClaimedReport[] = [];
    for (const { scope, report } of await tx.reports.claimDue(now, options.limit)) {
      const leased = { ...report, dueAt: lease, rows: 0 };
      await tx.reports.update(scope, leased);
      await tx.reports.deleteChunks(scope, report.id);
      claimed.push({ scope, report: leased, lease });
    }
    return claimed;
  });
}

const COLUMNS: Readonly<Record<Exclude<ReportType, 'balance' | 'payout_reconciliation'>, readonly string[]>> = {
  transactions: [
    'id',
    'status',
    'origin',
    'collection_mode',
    'customer_id',
    'address_id',
    'subscription_id',
    'invoice_number',
    'currency_code',
    'subtotal',
    'discount',
    'tax',
    'total',
    'grand_total',
    'balance',
    'billed_at',
    'created_at',
    'updated_at',
  ],
  transaction_line_items: [
    'transaction_id',
    'transaction_status',
    'line_item_id',
    'price_id',
    'product_id',
    'product_name',
    'quantity',
    'tax_rate',
    'currency_code',
    'subtotal',
    'discount',
    'tax',
    'total',
    'transaction_updated_at',
  ],
  adjustments: [
    'id',
    'action',
    'type',
    'status',
    'transaction_id',
    'subscription_id',
    'customer_id',
    'reason',
    'currency_code',
    'subtotal',
    'tax',
    'total',
    'created_at',
    'updated_at',
  ],
  adjustment_line_items: [
    'adjustment_id',
    'adjustment_action',
    'adjustment_status',
    'line_item_id',
    'transaction_item_id',
    'type',
    'amount',
    'currency_code',
    'subtotal',
    'tax',
    'total',
    'adjustment_updated_at',
  ],
  products_prices: [
    'product_id',
    'product_name',
    'product_type',
    'product_status',
    'product_tax_category',
    'product_updated_at',
    'price_id',
    'price_description',
    'price_type',
    'price_status',
    'unit_price_amount',
    'unit_price_currency_code',
    'billing_cycle_interval',
    'billing_cycle_frequency',
    'price_updated_at',
  ],
  discounts: [
    'id',
    'status',
    'description',
    'type',
    'mode',
    'amount',
    'currency_code',
    'code',
    'enabled_for_checkout',
    'recur',
    'maximum_recurring_intervals',
    'usage_limit',
    'times_used',
    'expires_at',
    'discount_group_id',
    'created_at',
    'updated_at',
  ],
  usage_balances: [
    'id',
    'customer_id',
    'usage_balance_unit_id',
    'used',
    'remaining',
    'overage',
    'overage_started_at',
    'created_at',
    'updated_at',
  ],
  // Drawdown's own (ADR 0815): the reasons customers gave for canceling, one row per subscription.
  subscription_cancellations: [
    'subscription_id',
    'customer_id',
    'status',
    'cancels_at',
    'canceled_at',
    'reason',
    'comment',
    'recorded_at',
  ],
};

/** The CSV columns of a report type, in order. */
export function reportColumns(type: ReportType): readonly string[] {
  return COLUMNS[type as keyof typeof COLUMNS] ?? [];
}

type Cell = string | number | null;

/**
 * One CSV cell: quoted when it holds a comma, quote or line break; text that a spreadsheet
 * would run as a formula (`=`, `+`, `@`, tab, carriage return) gets a leading apostrophe.
 */
export function csvCell(value: Cell): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const csvLine = (cells: readonly Cell[]) => `${cells.map(csvCell).join(',')}\r\n`;

/** The filters storage can apply (promoted columns) and a predicate for the rest. */
function valuesOf(filters: readonly ReportFilter[], name: string): readonly string[] | undefined {
  const filter = filters.find((candidate) => candidate.name === name && candidate.operator === null);
  return filter ? (filter.value as readonly string[]) : undefined;
}

function inRange(filters: readonly ReportFilter[], name: string, value: string): boolean {
  return filters.every(
    (filter) =>
      filter.name !== name ||
      (filter.operator === 'gte' && value >= String(filter.value)) ||
      (filter.operator === 'lt' && value < String(filter.value)),
  );
}

function storageFilter<Column extends string>(
  filters: readonly ReportFilter[],
  columns: Readonly<Partial<Record<string, Column>>>,
): ListFilter<Column> {
  const result: Partial<Record<Column, FilterCondition[]>> = {};
  for (const filter of filters) {
    const column = columns[filter.name];
    if (!column) continue;
    const conditions = result[column] ?? [];
    if (filter.operator === null) conditions.push({ op: 'in', values: filter.value as readonly string[] });
    else conditions.push({ op: filter.operator, value: String(filter.value) });
    result[column] = conditions;
  }
  return result;
}

const PAGE = 500;

/** Every page of a collection's entities in id order, `PAGE` at a time: one page in memory at once. */
async function* pagesOf<Entity extends { readonly id: string }, Column extends string>(
  collection: Pick<Collection<Entity, Column>, 'list'>,
  scope: Scope,
  filter: ListFilter<Column> = {},
): AsyncGenerator<readonly Entity[]> {
  let after: string | undefined;
  for (;;) {
    const page = await collection.list(scope, { filter, after, perPage: PAGE, direction: 'asc', countTotal: false });
    yield page.items;
    if (!page.hasMore) return;
    after = page.items.at(-1)?.id;
  }
}

/** Every row of the report, a page of rows at a time. */
async function* reportPages(
  store: StoreOf<ReportSlice>,
  scope: Scope,
  report: Report,
  now: string,
): AsyncGenerator<Cell[][]> {
  const filters = report.filters;
  const currencies = valuesOf(filters, 'currency_code');
  switch (report.type) {
    case 'transactions':
    case 'transaction_line_items': {
      const filter = storageFilter(filters, {
        status: 'status',
        origin: 'origin',
        collection_mode: 'collection_mode',
        updated_at: 'updated_at',
      } as const);
      for await (const items of pagesOf(store.transactions, scope, filter)) {
        const kept = items.filter((item) => !currencies || currencies.includes(item.currencyCode));
        yield report.type === 'transactions' ? kept.map(transactionRow) : kept.flatMap(transactionLineRows);
      }
      return;
    }
    case 'adjustments':
    case 'adjustment_line_items': {
      const filter = storageFilter(filters, { action: 'action', status: 'status' } as const);
      for await (const items of pagesOf(store.adjustments, scope, filter)) {
        const kept = items.filter(
          (item) =>
            (!currencies || currencies.includes(item.currencyCode)) && inRange(filters, 'updated_at', item.updatedAt),
        );
        yield report.type === 'adjustments' ? kept.map(adjustmentRow) : kept.flatMap(adjustmentLineRows);
      }
      return;
    }
    case 'products_prices': {
      const productFilter = storageFilter(filters, { product_status: 'status', product_type: 'type' } as const);
      const priceStatuses = valuesOf(filters, 'price_status');
      const priceTypes = valuesOf(filters, 'price_type');
      for await (const products of pagesOf(store.products, scope, productFilter)) {
        const rows: Cell[][] = [];
        for (const product of products) {
          if (!inRange(filters, 'product_updated_at', product.updatedAt)) continue;
          for await (const prices of pagesOf(store.prices, scope, { product_id: [{ op: 'eq', value: product.id }] })) {
            for (const price of prices) {
              if (priceStatuses && !priceStatuses.includes(price.status)) continue;
              if (priceTypes && !priceTypes.includes(price.type)) continue;
              if (!inRange(filters, 'price_updated_at', price.updatedAt)) continue;
              rows.push([
                product.id,
                product.name,
                product.type,
                product.status,
                product.taxCategory,
                product.updatedAt,
                price.id,
                price.description,
                price.type,
                price.status,
                price.unitPrice.amount,
                price.unitPrice.currencyCode,
                price.billingCycle?.interval ?? null,
                price.billingCycle?.frequency ?? null,
                price.updatedAt,
              ]);
            }
          }
        }
        yield rows;
      }
      return;
    }
    case 'discounts': {
      const types = valuesOf(filters, 'type');
      const statuses = valuesOf(filters, 'status');
      for await (const discounts of pagesOf(store.discounts, scope)) {
        yield discounts
          .map((discount) => discountAt(discount, now))
          .filter(
            (discount) =>
              (!types || types.includes(discount.type)) &&
              (!statuses || statuses.includes(discount.status)) &&
              inRange(filters, 'updated_at', discount.updatedAt),
          )
          .map((discount) => [
            discount.id,
            discount.status,
            discount.description,
            discount.type,
            discount.mode,
            discount.amount,
            discount.currencyCode,
            discount.code,
            String(discount.enabledForCheckout),
            String(discount.recur),
            discount.maximumRecurringIntervals,
            discount.usageLimit,
            discount.timesUsed,
            discount.expiresAt,
            discount.discountGroupId,
            discount.createdAt,
            discount.updatedAt,
          ]);
      }
      return;
    }
    case 'usage_balances': {
      for await (const balances of pagesOf(store.usageBalances, scope)) {
        yield balances
          .filter((balance) => inRange(filters, 'updated_at', balance.updatedAt))
          .map((balance) => {
            const totals = balanceTotals(balance.state);
            return [
              balance.id,
              balance.customerId,
              balance.usageBalanceUnitId,
              totals.used,
              totals.remaining,
              totals.overage,
              balance.state.overageStartedAt,
              balance.createdAt,
              balance.updatedAt,
            ];
          });
      }
      return;
    }
    case 'subscription_cancellations': {
      for await (const subscriptions of pagesOf(store.subscriptions, scope)) {
        const rows: Cell[][] = [];
        for (const subscription of subscriptions) {
          const given = subscription.internal.cancellationReason;
          if (!given || !inRange(filters, 'recorded_at', given.recordedAt)) continue;
          const scheduled = subscription.scheduledChange?.action === 'cancel' ? subscription.scheduledChange : null;
          rows.push([
            subscription.id,
            subscription.customerId,
            subscription.status,
            scheduled?.effectiveAt ?? null,
            subscription.canceledAt,
            given.reason,
            given.comment,
            given.recordedAt,
          ]);
        }
        yield rows;
      }
      return;
    }
    default:
      throw new Error(`No generator for ${report.type} reports.`);
  }
}

function transactionRow(transaction: Transaction): Cell[] {
  const totals = transaction.details.totals;
  return [
    transaction.id,
    transaction.status,
    transaction.origin,
    transaction.collectionMode,
    transaction.customerId,
    transaction.addressId,
    transaction.subscriptionId,
    transaction.invoiceNumber,
    transaction.currencyCode,
    totals.subtotal,
    totals.discount,
    totals.tax,
    totals.total,
    totals.grandTotal,
    totals.balance,
    transaction.billedAt,
    transaction.createdAt,
    transaction.updatedAt,
  ];
}

function transactionLineRows(transaction: Transaction): Cell[][] {
  return transaction.details.lineItems.map((line) => [
    transaction.id,
    transaction.status,
    line.id,
    line.priceId,
    line.product.id,
    line.product.name,
    line.quantity,
    line.taxRate,
    transaction.currencyCode,
    line.totals.subtotal,
    line.totals.discount,
    line.totals.tax,
    line.totals.total,
    transaction.updatedAt,
  ]);
}

function adjustmentRow(adjustment: Adjustment): Cell[] {
  return [
    adjustment.id,
    adjustment.action,
    adjustment.type,
    adjustment.status,
    adjustment.transactionId,
    adjustment.subscriptionId,
    adjustment.customerId,
    adjustment.reason,
    adjustment.currencyCode,
    adjustment.totals.subtotal,
    adjustment.totals.tax,
    adjustment.totals.total,
    adjustment.createdAt,
    adjustment.updatedAt,
  ];
}

function adjustmentLineRows(adjustment: Adjustment): Cell[][] {
  return adjustment.items.map((item) => [
    adjustment.id,
    adjustment.action,
    adjustment.status,
    item.id,
    item.itemId,
    item.type,
    item.amount,
    adjustment.currencyCode,
    item.totals.subtotal,
    item.totals.tax,
    item.totals.total,
    adjustment.updatedAt,
  ]);
}

async function recordReportUpdated(
  dependencies: ReportGenerationDependencies,
  context: Context<ReportSlice>,
  report: Report,
): Promise<void> {
  await dependencies.store.transaction(async (tx) => {
    const current = await tx.reports.findByIdForUpdate(context.scope, report.id);
    if (!current) return;
    await tx.reports.update(context.scope, report);
    await recordEvent(context, tx, 'report.updated', 'report', report);
  });
}

/**
 * Writes the claimed report's CSV, then marks it `ready` (with its row count and a 14-day
 * expiry on the environment's clock) or `failed`, recording `report.updated` either way.
 * Returns false, writing nothing more, when the claim was lost to another worker.
 */
export async function generateReport(
  dependencies: ReportGenerationDependencies,
  claim: ClaimedReport,
): Promise<boolean> {
  const { scope } = claim;
  const context = await dependencies.contextFor(scope);
  if (!context) return false;
  let rows = 0;
  let sequence = 0;
  const stillOurs = async (): Promise<Report | undefined> => {
    const current = await dependencies.store.reports.findById(scope, claim.report.id);
    return current?.dueAt === claim.lease ? current : undefined;
  };
  try {
    await dependencies.store.transaction((tx) =>
      tx.reports.writeChunk(scope, claim.report.id, sequence++, csvLine(reportColumns(claim.report.type))),
    );
    for await (const page of reportPages(dependencies.store, scope, claim.report, toTimestamp(context.clock.now()))) {
      if (page.length === 0) continue;
      const text = page.map(csvLine).join('');
      rows += page.length;
      const written = await dependencies.store.transaction(async (tx) => {
        const current = await tx.reports.findByIdForUpdate(scope, claim.report.id);
        if (current?.dueAt !== claim.lease) return false;
        await tx.reports.writeChunk(scope, claim.report.id, sequence++, text);
        await tx.reports.update(scope, { ...current, rows });
        return true;
      });
      if (!written) return false;
      await dependencies.pause(0);
    }
  } catch (error) {
    const current = await stillOurs();
    if (!current) return false;
    const at = toTimestamp(context.clock.now());
    await recordReportUpdated(dependencies, context, { ...current, status: 'failed', dueAt: null, updatedAt: at });
    throw error;
  }
  const current = await stillOurs();
  if (!current) return false;
  const nowMs = context.clock.now();
  await recordReportUpdated(dependencies, context, {
    ...current,
    status: 'ready',
    rows,
    expiresAt: toTimestamp(nowMs + REPORT_RETENTION_MS),
    dueAt: null,
    updatedAt: toTimestamp(nowMs),
  });
  return true;
}
