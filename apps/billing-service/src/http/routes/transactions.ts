/**
 * @module
 * Transactions, their payments and invoice links, adjustments and tax settings. Routes only
 * translate: parse, call a use case, respond.
 */
import {
  CreateAdjustmentBody,
  CreateTransactionBody,
  RecordPaymentBody,
  SimulatePaymentBody,
  UpdateTaxSettingsBody,
  UpdateTransactionBody,
} from '@drawdown/billing-contract';
import {
  type AdjustmentColumn,
  type BillingDetails,
  BillingError,
  createAdjustment,
  createTransaction,
  type FilterCondition,
  getTaxSettings,
  getTransaction,
  INVOICE_DISPOSITIONS,
  type InvoiceDisposition,
  isIdOf,
  issueInvoiceLink,
  listAdjustments,
  listTransactions,
  type OperationContext,
  recordTransactionPayment,
  simulateTransactionPayment,
  TRANSACTION_INCLUDES,
  TRANSACTION_ORIGINS,
  TRANSACTION_STATUSES,
  type TransactionColumn,
  type TransactionHooks,
  type TransactionInclude,
  type TransactionListQuery,
  updateTaxSettings,
  updateTransaction,
  withTransactionIncludes,
} from '@drawdown/billing-core';
import type { Context, Hono } from 'hono';
import { signedInvoiceUrl } from '../../rendering/invoice-links.js';
import type { AppEnv } from '../app-env.js';
import { respond, respondPage } from '../envelope.js';
import { parseIncludes } from '../includes.js';
import { type ListSpec, parseListParams } from '../list-params.js';
import { readBody } from '../request-body.js';
import { need, pathId } from '../route-helpers.js';

/** The reference's transaction page size: default and maximum 30; larger values are clamped. */
export const TRANSACTION_PAGE_SIZE = 30;

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i;
const OPERATORS = { LT: 'lt', LTE: 'lte', GT: 'gt', GTE: 'gte' } as const;
/** The official SDK's types spell `adjustments` as `adjustment` too; both embed the adjustments. */
const INCLUDE_NAMES = [...TRANSACTION_INCLUDES, 'adjustment'] as const;

/** `include` of a transaction endpoint, `adjustment` read as `adjustments`. */
function transactionIncludes(c: Context<AppEnv>): ReadonlySet<TransactionInclude> {
  const names = parseIncludes(c, INCLUDE_NAMES);
  return new Set([...names].map((name) => (name === 'adjustment' ? 'adjustments' : name)));
}

const LIST_PARAMETERS = new Set([
  'per_page',
  'after',
  'order_by',
  'include',
  'id',
  'customer_id',
  'subscription_id',
  'status',
  'collection_mode',
  'origin',
  'invoice_number',
  ...['billed_at', 'created_at', 'updated_at'].flatMap((column) => [
    column,
    ...['LT', 'LTE', 'GT', 'GTE'].map((suffix) => `${column}[${suffix}]`),
  ]),
]);

function invalid(parameter: string, message: string): BillingError {
  return BillingError.invalidField(parameter, message);
}

function list(raw: string): string[] {
  return raw
    .split(',')
    .map((value) => value.trim())
    .filter((value) => value !== '');
}

function oneOf(parameter: string, raw: string, allowed: readonly string[]): FilterCondition {
  const values = list(raw);
  if (values.length === 0 || values.some((value) => !allowed.includes(value))) {
    throw invalid(parameter, `must be a comma-separated list of ${allowed.join(', ')}`);
  }
  return { op: 'in', values };
}

function ids(parameter: string, raw: string, prefix: 'txn' | 'ctm' | 'sub'): FilterCondition {
  const values = list(raw);
  if (values.length === 0 || values.length > 100 || values.some((value) => !isIdOf(prefix, value))) {
    throw invalid(parameter, `must be a comma-separated list of up to 100 ${prefix}_ ids`);
  }
  return { op: 'in', values };
}

/** True when the date and time fields name a real calendar instant (Date.parse rolls 30 February over). */
function calendarValid(raw: string): boolean {
  const [year, month, day, hour, minute, second] = raw.split(/[-T:.Z+]/i).map(Number);
  if ([year, month, day, hour, minute, second].some((part) => part === undefined || Number.isNaN(part))) return false;
  const lastDay = new Date(Date.UTC(year as number, month as number, 0)).getUTCDate();
  return (
    (month as number) >= 1 &&
    (month as number) <= 12 &&
    (day as number) >= 1 &&
    (day as number) <= lastDay &&
    (hour as number) <= 23 &&
    (minute as number) <= 59 &&
    (second as number) <= 59
  );
}

function timestamp(parameter: string, raw: string): string {
  const milliseconds = TIMESTAMP.test(raw) && calendarValid(raw) ? Date.parse(raw) : Number.NaN;
  if (Number.isNaN(milliseconds))
    throw invalid(parameter, 'must be an RFC 3339 date-time such as 2026-01-31T00:00:00Z');
  // Stored timestamps are canonical UTC text, so canonical bounds compare correctly as text.
  return new Date(milliseconds).toISOString();
}

/**
 * `GET /transactions` parameters. `order_by` takes `id`, `created_at` (the same order: ids are
 * time-ordered) or `billed_at`, each `[ASC]` or `[DESC]`; date filters take an exact time or the
 * `[LT]`, `[LTE]`, `[GT]`, `[GTE]` forms.
 */
export function parseTransactionList(c: Context<AppEnv>): { query: TransactionListQuery; perPage: number } {
  const params = new URL(c.req.url).searchParams;
  for (const name of params.keys()) {
    if (!LIST_PARAMETERS.has(name)) throw invalid(name, 'is not a query parameter of this endpoint');
  }
  let perPage = TRANSACTION_PAGE_SIZE;
  const perPageText = params.get('per_page');
  if (perPageText !== null) {
    if (!/^\d{1,9}$/.test(perPageText) || Number(perPageText) < 1)
      throw invalid('per_page', 'must be a positive integer');
    perPage = Math.min(Number(perPageText), TRANSACTION_PAGE_SIZE);
  }
  const after = params.get('after') ?? undefined;
  if (after !== undefined && !isIdOf('txn', after))
    throw invalid('after', 'must be a txn_ id taken from a previous page');
  const order = /^(id|created_at|billed_at)\[(ASC|DESC)\]$/i.exec(params.get('order_by') ?? 'id[DESC]');
  if (!order) throw invalid('order_by', 'must be id, created_at or billed_at followed by [ASC] or [DESC]');

  const filter: Partial<Record<TransactionColumn, FilterCondition[]>> = {};
  const add = (column: TransactionColumn, condition: FilterCondition) => {
    const conditions = filter[column] ?? [];
    conditions.push(condition);
    filter[column] = conditions;
  };
  const read = (name: string) => params.get(name);
  const idFilters = [
    ['id', 'id', 'txn'],
    ['customer_id', 'customer_id', 'ctm'],
    ['subscription_id', 'subscription_id', 'sub'],
  ] as const;
  for (const [parameter, column, prefix] of idFilters) {
    const raw = read(parameter);
    if (raw !== null) add(column, ids(parameter, raw, prefix));
  }
  const status = read('status');
  if (status !== null) add('status', oneOf('status', status, TRANSACTION_STATUSES));
  const collectionMode = read('collection_mode');
  if (collectionMode !== null)
    add('collection_mode', oneOf('collection_mode', collectionMode, ['automatic', 'manual']));
  const origin = read('origin');
  if (origin !== null) add('origin', oneOf('origin', origin, TRANSACTION_ORIGINS));
  const invoiceNumber = read('invoice_number');
  if (invoiceNumber !== null) {
    const values = list(invoiceNumber);
    if (values.length === 0 || values.length > 100 || values.some((value) => value.length > 50)) {
      throw invalid('invoice_number', 'must be a comma-separated list of up to 100 invoice numbers');
    }
    add('invoice_number', { op: 'in', values });
  }
  for (const column of ['billed_at', 'created_at', 'updated_at'] as const) {
    const exact = read(column);
    if (exact !== null) add(column, { op: 'eq', value: timestamp(column, exact) });
    for (const [suffix, op] of Object.entries(OPERATORS)) {
      const parameter = `${column}[${suffix}]`;
      const raw = read(parameter);
      if (raw !== null) add(column, { op, value: timestamp(parameter, raw) });
    }
  }
  const direction = order[2]?.toUpperCase() === 'ASC' ? 'asc' : 'desc';
  const orderBy = order[1]?.toLowerCase() === 'billed_at' ? 'billed_at' : 'id';
  return { query: { filter, after, perPage, direction, orderBy }, perPage };
}

const adjustmentListSpec: ListSpec<AdjustmentColumn> = {
  idPrefix: 'adj',
  defaultPerPage: 10,
  maxPerPage: 50,
  filters: {
    id: { kind: 'ids', column: 'id', prefix: 'adj' },
    transaction_id: { kind: 'ids', column: 'transaction_id', prefix: 'txn' },
    customer_id: { kind: 'ids', column: 'customer_id', prefix: 'ctm' },
    subscription_id: { kind: 'ids', column: 'subscription_id', prefix: 'sub' },
    action: { kind: 'enum', column: 'action', values: ['credit', 'refund'] },
    status: { kind: 'enum', column: 'status', values: ['pending_approval', 'approved', 'rejected', 'reversed'] },
  },
};

type WireBillingDetails = {
  enableCheckout?: boolean | undefined;
  purchaseOrderNumber?: string | null | undefined;
  additionalInformation?: string | null | undefined;
  paymentTerms: BillingDetails['paymentTerms'];
};

function billingDetailsOf(details: WireBillingDetails | null | undefined): BillingDetails | null | undefined {
  if (details == null) return details;
  return {
    enableCheckout: details.enableCheckout ?? false,
    purchaseOrderNumber: details.purchaseOrderNumber ?? null,
    additionalInformation: details.additionalInformation ?? null,
    paymentTerms: details.paymentTerms,
  };
}

function disposition(c: Context<AppEnv>): InvoiceDisposition {
  const value = c.req.query('disposition') ?? 'attachment';
  if (!(INVOICE_DISPOSITIONS as readonly string[]).includes(value)) {
    throw invalid('disposition', 'must be attachment or inline');
  }
  return value as InvoiceDisposition;
}

/**
 * Registers the routes. `hooksFor` gives the hooks a completion runs (the subscription engine
 * starts or renews the subscription a completed transaction paid for).
 */
export function registerTransactionRoutes(
  app: Hono<AppEnv>,
  hooksFor: (context: OperationContext) => TransactionHooks,
): void {
  app.get('/transactions', need('transaction.read'), async (c) => {
    const includes = transactionIncludes(c);
    const { query, perPage } = parseTransactionList(c);
    const page = await listTransactions(c.var.context, query);
    const items = await Promise.all(page.items.map((item) => withTransactionIncludes(c.var.context, item, includes)));
    return respondPage(c, { ...page, items }, perPage);
  });
  app.post('/transactions', need('transaction.write'), async (c) => {
    const includes = transactionIncludes(c);
    const body = await readBody(c, CreateTransactionBody);
    const input = { ...body, billingDetails: billingDetailsOf(body.billingDetails) };
    const created = await createTransaction(c.var.context, input);
    return respond(c, await withTransactionIncludes(c.var.context, created, includes), 201);
  });
  app.get('/transactions/:id', need('transaction.read'), async (c) => {
    const includes = transactionIncludes(c);
    const transaction = await getTransaction(c.var.context, pathId(c, 'txn'));
    return respond(c, await withTransactionIncludes(c.var.context, transaction, includes));
  });
  app.patch('/transactions/:id', need('transaction.write'), async (c) => {
    const id = pathId(c, 'txn');
    const includes = transactionIncludes(c);
    const body = await readBody(c, UpdateTransactionBody);
    const input = { ...body, billingDetails: billingDetailsOf(body.billingDetails) };
    const updated = await updateTransaction(c.var.context, id, input);
    return respond(c, await withTransactionIncludes(c.var.context, updated, includes));
  });
  app.post('/transactions/:id/simulate-payment', need('transaction.write'), async (c) => {
    const id = pathId(c, 'txn');
    const { outcome } = await readBody(c, SimulatePaymentBody);
    const context = c.var.context;
    return respond(c, await simulateTransactionPayment(context, id, outcome, hooksFor(context)));
  });
  app.post('/transactions/:id/payments', need('transaction.write'), async (c) => {
    const id = pathId(c, 'txn');
    const body = await readBody(c, RecordPaymentBody);
    const context = c.var.context;
    const report = {
      amount: body.amount,
      status: body.status ?? 'captured',
      methodType: body.methodType,
      providerReference: body.providerReference,
      errorCode: body.errorCode,
    };
    return respond(c, await recordTransactionPayment(context, id, report, hooksFor(context)), 201);
  });
  app.get('/transactions/:id/invoice', need('transaction.read'), async (c) => {
    const id = pathId(c, 'txn');
    const context = c.var.context;
    const claims = await issueInvoiceLink(context, id, disposition(c));
    const url = await signedInvoiceUrl(context.store, c.var.publicBaseUrl, claims);
    // Expires is wall-clock HTTP time: the link lives one hour of the environment's clock from now.
    c.header('Expires', new Date(Date.now() + (claims.expiresAt - context.clock.now())).toUTCString());
    return respond(c, { url });
  });

  app.post('/adjustments', need('adjustment.write'), async (c) => {
    const body = await readBody(c, CreateAdjustmentBody);
    const context = c.var.context;
    const input = {
      action: body.action,
      transactionId: body.transactionId,
      reason: body.reason,
      type: body.type,
      items: body.items,
    };
    return respond(c, await createAdjustment(context, input, hooksFor(context)), 201);
  });
  app.get('/adjustments', need('adjustment.read'), async (c) => {
    const { query, perPage } = parseListParams(c, adjustmentListSpec);
    return respondPage(c, await listAdjustments(c.var.context, query), perPage);
  });

  app.get('/tax-settings', need('transaction.read'), async (c) => respond(c, await getTaxSettings(c.var.context)));
  app.patch('/tax-settings', need('transaction.write'), async (c) => {
    return respond(c, await updateTaxSettings(c.var.context, await readBody(c, UpdateTaxSettingsBody)));
  });
}
