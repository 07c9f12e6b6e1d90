/**
 * @module
 * One page of the signed-in customer's billing history, ready to display: the service is asked
 * for that customer only and the five history statuses only (seed 001, rules 1 and 2), newest
 * first, 30 a page; amounts are `grandTotal` with `grandTotalTax` as the tax within it, in the
 * currency's decimal places (`GET /currencies`, or the seed's fallback) and the viewer's locale.
 */
import { formatDate, formatMoney } from '@drawdown/http-kit';
import { BILLING_HISTORY_STATUSES, type Transaction, type TransactionStatus } from '@drawdown/sdk';
import { hasInvoice } from './invoice-availability.js';
import type { MessageKey, Translate } from './messages.js';
import type { PortalClient } from './portal-client.js';

/** The seed's page size: default and maximum. */
export const HISTORY_PAGE_SIZE = 30;

const SHOWN_STATUSES: ReadonlySet<string> = new Set<string>(BILLING_HISTORY_STATUSES);

/** A transaction as the page shows it; every text is already formatted for the viewer. */
export interface HistoryRow {
  readonly id: string;
  readonly status: TransactionStatus;
  readonly statusLabel: string;
  /** RFC 3339: when it was billed, or created when never billed. */
  readonly date: string;
  /** The date in the viewer's locale (UTC; the page script shows it in the viewer's time zone). */
  readonly dateText: string;
  readonly description: string;
  readonly invoiceNumber: string | null;
  readonly currencyCode: string;
  /** `grandTotal`, formatted. */
  readonly total: string;
  /** `grandTotalTax`, formatted: the tax within `total`. */
  readonly tax: string;
  readonly hasInvoice: boolean;
  /** The service's checkout for a billed or past-due transaction, when it offers one (ADR 1441); else null. */
  readonly payUrl: string | null;
}

export interface HistoryPage {
  readonly rows: readonly HistoryRow[];
  readonly hasMore: boolean;
  /** The cursor of the next page: the last row's id, or null at the end. */
  readonly next: string | null;
}

/** Plain words for the statuses; the machine value stays in `status`. */
export const STATUS_LABELS: Readonly<Record<TransactionStatus, string>> = {
  draft: 'Draft',
  ready: 'Ready',
  billed: 'Awaiting payment',
  paid: 'Paid, processing',
  completed: 'Paid',
  past_due: 'Past due',
  canceled: 'Canceled',
};

/** The message of each status, for a translated page. */
export const STATUS_MESSAGES: Readonly<Record<TransactionStatus, MessageKey>> = {
  draft: 'statusDraft',
  ready: 'statusReady',
  billed: 'statusBilled',
  paid: 'statusPaid',
  completed: 'statusCompleted',
  past_due: 'statusPastDue',
  canceled: 'statusCanceled',
};

/** An RFC 3339 instant as a medium date in `locale` (UTC; the page script shows the viewer's time zone). */
export function dateText(iso: string, locale: string): string {
  return formatDate(iso, locale, 'medium');
}

function describe(transaction: Transaction): string {
  const lines = transaction.details?.lineItems ?? [];
  const names = lines.map((line) => line.product?.name).filter((name): name is string => Boolean(name));
  const items = transaction.items ?? [];
  const fallback = items.map((item) => item.price?.name ?? item.price?.description).filter(Boolean) as string[];
  const all = names.length > 0 ? names : fallback;
  const [first] = all;
  if (first === undefined) return 'Purchase';
  return all.length > 1 ? `${first} and ${all.length - 1} more` : first;
}

async function toRow(
  client: PortalClient,
  transaction: Transaction,
  locale: string,
  t: Translate | undefined,
): Promise<HistoryRow> {
  const totals = transaction.details.totals;
  const currencyCode = transaction.currencyCode;
  const { decimalPlaces } = await client.currencies.decimalPlaces(currencyCode);
  const date = transaction.billedAt ?? transaction.createdAt;
  return {
    id: transaction.id,
    status: transaction.status,
    statusLabel: t
      ? t(STATUS_MESSAGES[transaction.status] ?? 'statusDraft')
      : (STATUS_LABELS[transaction.status] ?? transaction.status),
    date,
    dateText: dateText(date, locale),
    description: describe(transaction),
    invoiceNumber: transaction.invoiceNumber ?? null,
    currencyCode,
    total: formatMoney(totals.grandTotal, currencyCode, decimalPlaces, locale),
    tax: formatMoney(totals.grandTotalTax ?? totals.tax, currencyCode, decimalPlaces, locale),
    hasInvoice: hasInvoice(transaction),
    payUrl:
      (transaction.status === 'billed' || transaction.status === 'past_due') && transaction.checkout?.url
        ? transaction.checkout.url
        : null,
  };
}

/**
 * Reads one page of the customer's history after the cursor (the first page when null).
 * Rows are checked again here, so a service that ignored a filter still shows nothing foreign.
 */
export async function loadHistoryPage(
  client: PortalClient,
  customerId: string,
  after: string | null,
  locale: string,
  t?: Translate,
): Promise<HistoryPage> {
  const collection = client.transactions.list({
    customerId: [customerId],
    status: [...BILLING_HISTORY_STATUSES],
    perPage: HISTORY_PAGE_SIZE,
    orderBy: 'id[DESC]',
    ...(after === null ? {} : { after }),
  });
  const transactions = await collection.next();
  const own = transactions.filter(
    (transaction) => transaction.customerId === customerId && SHOWN_STATUSES.has(transaction.status),
  );
  const rows = await Promise.all(own.map((transaction) => toRow(client, transaction, locale, t)));
  const last = transactions.at(-1);
  const hasMore = collection.hasMore && last !== undefined;
  return { rows, hasMore, next: hasMore && last ? last.id : null };
}

/** The history of a signed-in user with no customer record: nothing, and nothing more. */
export const EMPTY_HISTORY: HistoryPage = { rows: [], hasMore: false, next: null };
