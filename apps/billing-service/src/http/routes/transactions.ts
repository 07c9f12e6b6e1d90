/**
 * @module
 * Transactions, their payments and invoice links, adjustments and tax settings. Routes only
 * translate: parse, call a use case, respond.
 */
import {
  CreateAdjustmentBody,
  CreateTransactionBody,
  RecordPaymentBody,
  ReviseTransactionBody,
  SimulatePaymentBody,
  UpdateSellerDetailsBody,
  UpdateTaxSettingsBody,
  UpdateTransactionBody,
} from '@drawdown/billing-contract';
import {
  type AdjustmentColumn,
  type BillingDetails,
  BillingError,
  INVOICE_DISPOSITIONS,
  INVOICE_LINK_LIFETIME_MS,
  type InvoiceDisposition,
  TAX_RATE_DATASET_NAME,
  type TaxSettings,
  TRANSACTION_INCLUDES,
  TRANSACTION_ORIGINS,
  TRANSACTION_STATUSES,
  type Transaction,
  type TransactionColumn,
  type TransactionInclude,
  type TransactionListQuery,
} from '@drawdown/billing-core';
import type { Context, Hono } from 'hono';
import type { InvoiceLinkSigner } from '../../rendering/invoice-links.js';
import type { AppEnv } from '../app-env.js';
import { respond, respondPage } from '../envelope.js';
import { parseIncludes } from '../includes.js';
import { type ListSpec, parseListParams } from '../list-params.js';
import { readBody } from '../request-body.js';
import { need, pathId } from '../route-helpers.js';

/** The reference's transaction page size: default and maximum 30; larger values are clamped. */
export const TRANSACTION_PAGE_SIZE = 30;

/** The official SDK's types spell `adjustments` as `adjustment` too; both embed the adjustments (ADR 1101). */
const INCLUDE_NAMES = [...TRANSACTION_INCLUDES, 'adjustment'] as const;

function asTransactionIncludes(names: ReadonlySet<string>): ReadonlySet<TransactionInclude> {
  return new Set([...names].map((name) => (name === 'adjustment' ? 'adjustments' : name) as TransactionInclude));
}

/** The transaction with each asked-for relation embedded. */
function presenter(c: Context<AppEnv>, includes: ReadonlySet<TransactionInclude>) {
  return (transaction: Transaction) => c.var.useCases.withTransactionIncludes(c.var.caller, transaction, includes);
}

/** `include` of a single-transaction endpoint. */
function singleIncludes(c: Context<AppEnv>): ReadonlySet<TransactionInclude> {
  return asTransactionIncludes(parseIncludes(c, INCLUDE_NAMES));
}

const transactionListSpec: ListSpec<TransactionColumn> = {
  idPrefix: 'txn',
  defaultPerPage: TRANSACTION_PAGE_SIZE,
  maxPerPage: TRANSACTION_PAGE_SIZE,
  // `created_at` orders as `id` does: ids are time-ordered.
  orderBy: ['id', 'created_at', 'billed_at', 'updated_at'],
  includes: INCLUDE_NAMES,
  filters: {
    id: { kind: 'ids', column: 'id', prefix: 'txn', max: 100 },
    customer_id: { kind: 'ids', column: 'customer_id', prefix: 'ctm', max: 100 },
    subscription_id: { kind: 'ids', column: 'subscription_id', prefix: 'sub', max: 100 },
    status: { kind: 'enum', column: 'status', values: TRANSACTION_STATUSES },
    collection_mode: { kind: 'enum', column: 'collection_mode', values: ['automatic', 'manual'] },
    origin: { kind: 'enum', column: 'origin', values: TRANSACTION_ORIGINS },
    invoice_number: { kind: 'text', column: 'invoice_number', maxLength: 50, max: 100 },
    billed_at: { kind: 'timestamp', column: 'billed_at' },
    created_at: { kind: 'timestamp', column: 'created_at' },
    updated_at: { kind: 'timestamp', column: 'updated_at' },
  },
};

/**
 * `GET /transactions` parameters. `order_by` takes `id`, `created_at` (the same order: ids are
 * time-ordered), `billed_at` or `updated_at`, each `[ASC]` or `[DESC]`; date filters take an exact time or the
 * `[LT]`, `[LTE]`, `[GT]`, `[GTE]` forms.
 */
export function parseTransactionList(c: Context<AppEnv>): {
  query: TransactionListQuery;
  perPage: number;
  includes: ReadonlySet<TransactionInclude>;
} {
  const { query, perPage, orderBy, includes } = parseListParams(c, transactionListSpec);
  return {
    // This repository orders by its own keys (`orderBy`), not by a generic `sort`.
    query: { ...query, sort: undefined, orderBy: orderBy === 'billed_at' || orderBy === 'updated_at' ? orderBy : 'id' },
    perPage,
    includes: asTransactionIncludes(includes),
  };
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

export function billingDetailsOf(details: WireBillingDetails | null | undefined): BillingDetails | null | undefined {
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
    throw BillingError.invalidField('disposition', 'must be attachment or inline');
  }
  return value as InvoiceDisposition;
}

/**
 * Registers the routes. What a completion runs (the subscription engine starting or renewing the
 * subscription a completed transaction paid for) is bound in the core's composition root (ADR 0920);
 * `invoiceLinks` signs the invoice and credit-note PDF links (ADR 0406).
 */
export function registerTransactionRoutes(app: Hono<AppEnv>, invoiceLinks: InvoiceLinkSigner): void {
  app.get('/transactions', need('transaction.read'), async (c) => {
    const { query, perPage, includes } = parseTransactionList(c);
    const page = await c.var.useCases.listTransactions(c.var.caller, query);
    return respondPage(c, { ...page, items: await Promise.all(page.items.map(presenter(c, includes))) }, perPage);
  });
  app.post('/transactions', need('transaction.write'), async (c) => {
    const present = presenter(c, singleIncludes(c));
    const body = await readBody(c, CreateTransactionBody);
    const input = { ...body, billingDetails: billingDetailsOf(body.billingDetails) };
    return respond(c, await present(await c.var.useCases.createTransaction(c.var.caller, input)), 201);
  });
  app.get('/transactions/:id', need('transaction.read'), async (c) => {
    const present = presenter(c, singleIncludes(c));
    return respond(c, await present(await c.var.useCases.getTransaction(c.var.caller, pathId(c, 'txn'))));
  });
  app.patch('/transactions/:id', need('transaction.write'), async (c) => {
    const id = pathId(c, 'txn');
    const present = presenter(c, singleIncludes(c));
    const body = await readBody(c, UpdateTransactionBody);
    const input = { ...body, billingDetails: billingDetailsOf(body.billingDetails) };
    return respond(c, await present(await c.var.useCases.updateTransaction(c.var.caller, id, input)));
  });
  app.post('/transactions/:id/revise', need('transaction.write'), async (c) => {
    const id = pathId(c, 'txn');
    const body = await readBody(c, ReviseTransactionBody);
    return respond(c, await c.var.useCases.reviseTransaction(c.var.caller, id, body));
  });
  app.post('/transactions/:id/simulate-payment', need('transaction.write'), async (c) => {
    const id = pathId(c, 'txn');
    const { outcome } = await readBody(c, SimulatePaymentBody);
    return respond(c, await c.var.useCases.simulateTransactionPayment(c.var.caller, id, outcome));
  });
  app.post('/transactions/:id/payments', need('transaction.write'), async (c) => {
    const id = pathId(c, 'txn');
    const body = await readBody(c, RecordPaymentBody);
    const report = {
      amount: body.amount,
      status: body.status ?? 'captured',
      methodType: body.methodType,
      providerReference: body.providerReference,
      errorCode: body.errorCode,
    };
    return respond(c, await c.var.useCases.recordTransactionPayment(c.var.caller, id, report), 201);
  });
  app.get('/transactions/:id/invoice', need('transaction.read'), async (c) => {
    const id = pathId(c, 'txn');
    const claims = await c.var.useCases.issueInvoiceLink(c.var.caller, id, disposition(c));
    const url = await invoiceLinks.url(c.var.publicBaseUrl, claims);
    // Expires is wall-clock HTTP time: the link lives one hour of the environment's clock from now.
    c.header('Expires', new Date(Date.now() + INVOICE_LINK_LIFETIME_MS).toUTCString());
    return respond(c, { url });
  });

  app.post('/adjustments', need('adjustment.write'), async (c) => {
    const body = await readBody(c, CreateAdjustmentBody);
    const input = {
      action: body.action,
      transactionId: body.transactionId,
      reason: body.reason,
      type: body.type,
      items: body.items,
    };
    return respond(c, await c.var.useCases.createAdjustment(c.var.caller, input), 201);
  });
  app.get('/adjustments/:id/credit-note', need('adjustment.read'), async (c) => {
    const id = pathId(c, 'adj');
    const claims = await c.var.useCases.issueCreditNoteLink(c.var.caller, id, disposition(c));
    const url = await invoiceLinks.creditNoteUrl(c.var.publicBaseUrl, claims);
    c.header('Expires', new Date(Date.now() + INVOICE_LINK_LIFETIME_MS).toUTCString());
    return respond(c, { url });
  });
  app.get('/adjustments', need('adjustment.read'), async (c) => {
    const { query, perPage } = parseListParams(c, adjustmentListSpec);
    return respondPage(c, await c.var.useCases.listAdjustments(c.var.caller, query), perPage);
  });

  // The settings name the location rates dataset in use (ADR 1430).
  const presentTaxSettings = (settings: TaxSettings) => ({ ...settings, locationRates: TAX_RATE_DATASET_NAME });
  app.get('/tax-settings', need('transaction.read'), async (c) =>
    respond(c, presentTaxSettings(await c.var.useCases.getTaxSettings(c.var.caller))),
  );
  app.patch('/tax-settings', need('transaction.write'), async (c) => {
    const body = await readBody(c, UpdateTaxSettingsBody);
    return respond(c, presentTaxSettings(await c.var.useCases.updateTaxSettings(c.var.caller, body)));
  });

  // The seller the documents name (ADR 1106): a Drawdown resource, the public API has none.
  app.get('/seller-details', need('transaction.read'), async (c) =>
    respond(c, await c.var.useCases.getSellerDetails(c.var.caller)),
  );
  // The logo file (ADR 0810): the billing portal shows it from its own origin, as its CSP asks.
  app.get('/seller-details/logo', need('transaction.read'), async (c) =>
    respond(c, await c.var.useCases.getSellerLogo(c.var.caller)),
  );
  app.patch('/seller-details', need('transaction.write'), async (c) => {
    const body = await readBody(c, UpdateSellerDetailsBody);
    return respond(c, await c.var.useCases.updateSellerDetails(c.var.caller, body));
  });
}
