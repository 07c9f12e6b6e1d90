/**
 * @module
 * Saving a transaction and writing its events, in the caller's database transaction. Every
 * change emits `transaction.updated`, plus the event of the status it entered
 * (`transaction.ready`, `.billed`, `.paid`, `.completed`, `.past_due`, `.canceled`).
 */

import type { EventTypeName } from '../events/event-types.js';
import { recordEvent } from '../events/record-event.js';
import { transactionMetricDeltas } from '../metrics/metric-rollups.js';
import { type Context, nowTimestamp } from '../shared/context.js';
import { formatInvoiceNumber } from './invoice-number.js';
import type { TransactionSlice } from './repositories.js';
import type { Transaction, TransactionStatus } from './transaction.js';
import type { PaymentLinkPorts } from './transaction-context.js';

const STATUS_EVENTS: Partial<Record<TransactionStatus, EventTypeName>> = {
  ready: 'transaction.ready',
  billed: 'transaction.billed',
  paid: 'transaction.paid',
  completed: 'transaction.completed',
  past_due: 'transaction.past_due',
  canceled: 'transaction.canceled',
};

// A draft takes the customer's details at the checkout, which makes it ready.
const CHECKOUT_STATUSES: ReadonlySet<TransactionStatus> = new Set(['draft', 'ready', 'billed', 'past_due']);

/** The payment link with the transaction: `?_ptxn=txn_…` (or `&_ptxn=` when the link has a query). */
export function checkoutUrl(paymentLink: string, transactionId: string): string {
  return `${paymentLink}${paymentLink.includes('?') ? '&' : '?'}_ptxn=${transactionId}`;
}

/**
 * Whether a transaction is paid through a checkout: automatically collected, or a manual invoice
 * with `billing_details.enable_checkout` (issue 36).
 */
export function paysThroughCheckout(transaction: Pick<Transaction, 'collectionMode' | 'billingDetails'>): boolean {
  return transaction.collectionMode === 'automatic' || transaction.billingDetails?.enableCheckout === true;
}

/**
 * Gives a transaction paid through a checkout, while it can be paid, its `checkout.url`, once:
 * the account's payment link when it set one, else the page Drawdown serves (ADR 1412). A URL the
 * caller chose (`checkout.url` on create or update, ADR 1470) is kept.
 */
export async function withCheckout(
  context: Context<TransactionSlice> & PaymentLinkPorts,
  tx: TransactionSlice,
  transaction: Transaction,
): Promise<Transaction> {
  if (
    transaction.checkout !== null ||
    !paysThroughCheckout(transaction) ||
    !CHECKOUT_STATUSES.has(transaction.status) ||
    context.defaultPaymentLink === undefined
  ) {
    return transaction;
  }
  const settings = await tx.checkoutSettings.findById(context.scope, 'checkout');
  const link = settings?.defaultPaymentLink ?? context.defaultPaymentLink;
  return { ...transaction, checkout: { url: checkoutUrl(link, transaction.id) } };
}

/** Inserts a new transaction: `transaction.created`, then the event of its status. */
export async function insertTransaction(
  context: Context<TransactionSlice>,
  tx: TransactionSlice,
  unlinked: Transaction,
): Promise<Transaction> {
  const transaction = await withCheckout(context, tx, unlinked);
  await tx.transactions.insert(context.scope, transaction);
  await tx.metricRollups.add(context.scope, transactionMetricDeltas(null, transaction, nowTimestamp(context)));
  await recordEvent(context, tx, 'transaction.created', 'transaction', transaction);
  const statusEvent = STATUS_EVENTS[transaction.status];
  if (statusEvent) await recordEvent(context, tx, statusEvent, 'transaction', transaction);
  return transaction;
}

/**
 * Stores a changed transaction: `transaction.updated`, the event of a newly entered status, and
 * `extraEvents` (such as `transaction.payment_failed`) before them.
 */
export async function saveTransaction(
  context: Context<TransactionSlice>,
  tx: TransactionSlice,
  before: Transaction,
  unlinked: Transaction,
  extraEvents: readonly EventTypeName[] = [],
): Promise<Transaction> {
  const after = await withCheckout(context, tx, unlinked);
  await tx.transactions.update(context.scope, after);
  await tx.metricRollups.add(context.scope, transactionMetricDeltas(before, after, nowTimestamp(context)));
  for (const type of extraEvents) await recordEvent(context, tx, type, 'transaction', after);
  await recordEvent(context, tx, 'transaction.updated', 'transaction', after);
  const statusEvent = STATUS_EVENTS[after.status];
  if (statusEvent && before.status !== after.status) await recordEvent(context, tx, statusEvent, 'transaction', after);
  return after;
}

/** Gives the transaction its invoice number from the scope's sequence for the year of `at`. */
export async function withInvoiceNumber(
  context: Context<TransactionSlice>,
  tx: TransactionSlice,
  transaction: Transaction,
  at: string,
): Promise<Transaction> {
  if (transaction.invoiceNumber !== null) return transaction;
  const year = new Date(at).getUTCFullYear();
  const sequence = await tx.transactions.nextInvoiceNumber(context.scope, year);
  return { ...transaction, invoiceNumber: formatInvoiceNumber(year, sequence) };
}
