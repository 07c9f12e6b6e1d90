/**
 * @module
 * Credit notes (ADR 1103): the document of an adjustment to an invoiced transaction, laid out as
 * an invoice is (the same document model and renderer), behind a signed link that lives one hour
 * of the account environment's clock, like an invoice's.
 */
import { BillingError } from '../shared/billing-error.js';
import type { Context } from '../shared/context.js';
import type { Scope } from '../shared/scope.js';
import type { Adjustment } from '../transactions/adjustment.js';
import type { Transaction } from '../transactions/transaction.js';
import { findRevision, revisedParties } from '../transactions/transaction-revision.js';
import { invoiceUnavailableReason } from './invoice-availability.js';
import {
  buildInvoiceDocument,
  documentFormat,
  type InvoiceDocument,
  type InvoiceLine,
  type InvoiceParties,
  taxNameLabel,
} from './invoice-document.js';
import { INVOICE_LINK_LIFETIME_MS, type InvoiceDisposition } from './invoice-links.js';
import type { InvoiceSlice } from './repositories.js';
import { findSellerDetails } from './seller-details.js';

/** What a signed credit note link carries. */
export interface CreditNoteLinkClaims {
  readonly accountId: string;
  readonly environment: Scope['environment'];
  readonly adjustmentId: string;
  readonly disposition: InvoiceDisposition;
  /** Milliseconds since the epoch, on the account environment's clock. */
  readonly expiresAt: number;
}

/** The exact text a credit note link's signature covers; its first line sets it apart from invoice links. */
export function creditNoteLinkPayload(claims: CreditNoteLinkClaims): string {
  return [
    'drawdown-credit-note-v1',
    claims.accountId,
    claims.environment,
    claims.adjustmentId,
    claims.disposition,
    String(claims.expiresAt),
  ].join('\n');
}

/** The credit note's number: the invoice's, then `CN` and the adjustment's place among the transaction's adjustments. */
export function creditNoteNumber(transaction: Transaction, position: number): string {
  return `${transaction.invoiceNumber ?? transaction.id}-CN${position}`;
}

async function loadAdjustment(
  context: Context<InvoiceSlice>,
  adjustmentId: string,
): Promise<{ adjustment: Adjustment; transaction: Transaction; position: number }> {
  const adjustment = await context.store.adjustments.findById(context.scope, adjustmentId);
  if (!adjustment) throw BillingError.notFound('Adjustment', adjustmentId);
  const transaction = await context.store.transactions.findById(context.scope, adjustment.transactionId);
  if (!transaction) throw BillingError.notFound('Transaction', adjustment.transactionId);
  if (invoiceUnavailableReason(transaction) !== null || adjustment.status !== 'approved') {
    throw new BillingError(
      'adjustment_credit_note_not_available',
      `Adjustment ${adjustmentId} has no credit note: its transaction ${transaction.id} has no invoice, or it is not approved.`,
    );
  }
  const siblings = await context.store.adjustments.list(context.scope, {
    filter: { transaction_id: [{ op: 'in', values: [transaction.id] }], id: [{ op: 'lte', value: adjustment.id }] },
    perPage: 1,
    direction: 'asc',
  });
  return { adjustment, transaction, position: siblings.estimatedTotal };
}

/** Checks the adjustment has a credit note and returns the claims of a link to it, valid one hour from now. */
export async function issueCreditNoteLink(
  context: Context<InvoiceSlice>,
  adjustmentId: string,
  disposition: InvoiceDisposition,
): Promise<CreditNoteLinkClaims> {
  await loadAdjustment(context, adjustmentId);
  return {
    accountId: context.scope.accountId,
    environment: context.scope.environment,
    adjustmentId,
    disposition,
    expiresAt: context.clock.now() + INVOICE_LINK_LIFETIME_MS,
  };
}

/** Builds the credit note of an adjustment: its items as lines, its totals, and the invoice it credits. */
export function buildCreditNoteDocument(
  adjustment: Adjustment,
  transaction: Transaction,
  parties: InvoiceParties,
  number: string,
): InvoiceDocument {
  const invoice = buildInvoiceDocument(transaction, parties);
  const format = documentFormat(transaction, parties.customer);
  const { labels, money } = format;
  const lines = adjustment.items.map((item): InvoiceLine => {
    const index = transaction.details.lineItems.findIndex((line) => line.id === item.itemId);
    const line = transaction.details.lineItems[index];
    const price = transaction.items[index]?.price;
    const name = line?.product.name ?? item.itemId;
    return {
      description: price?.description ? `${name} — ${price.description}` : name,
      quantity: item.type === 'full' ? String(line?.quantity ?? '') : '—',
      unitPrice: '—',
      discount: '',
      taxRate: invoice.lines[index]?.taxRate ?? '',
      tax: money(item.totals.tax),
      amount: money(item.totals.subtotal),
    };
  });
  const { totals } = adjustment;
  return {
    ...invoice,
    title: labels.creditNote,
    numberLabel: labels.creditNoteNumber,
    invoiceNumber: number,
    status: adjustment.action === 'refund' ? labels.refunded : labels.credited,
    facts: [
      [labels.creditNoteDate, format.date(adjustment.createdAt)],
      [labels.creditsInvoice, transaction.invoiceNumber ?? transaction.id],
    ],
    lines,
    // Refunded and credited amounts are after any discount: no discount column (ADR 1109).
    lineDiscounts: false,
    summary: [
      { label: labels.subtotal, amount: money(totals.subtotal), emphasis: false },
      { label: taxNameLabel(parties.address?.countryCode, labels), amount: money(totals.tax), emphasis: false },
      {
        label: adjustment.action === 'refund' ? labels.totalRefunded : labels.totalCredited,
        amount: money(totals.total),
        emphasis: true,
      },
    ],
    paymentInstructions: null,
    notes: [`${labels.reason}: ${adjustment.reason}`],
  };
}

/** The credit note document of an adjustment of the context's scope. */
export async function getCreditNoteDocument(
  context: Context<InvoiceSlice>,
  adjustmentId: string,
): Promise<InvoiceDocument> {
  const { adjustment, transaction, position } = await loadAdjustment(context, adjustmentId);
  const { store, scope } = context;
  const customer =
    transaction.customerId === null ? null : await store.customers.findById(scope, transaction.customerId);
  const address = transaction.addressId === null ? null : await store.addresses.findById(scope, transaction.addressId);
  const business =
    transaction.businessId === null ? null : await store.businesses.findById(scope, transaction.businessId);
  const parties = revisedParties(
    { customer: customer ?? null, address: address ?? null, business: business ?? null },
    await findRevision(context, transaction),
  );
  return buildCreditNoteDocument(
    adjustment,
    transaction,
    { account: context.account, ...parties, seller: (await findSellerDetails(context)) ?? null },
    creditNoteNumber(transaction, position),
  );
}
