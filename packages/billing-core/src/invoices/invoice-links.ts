/**
 * @module
 * Invoice PDF links: the core decides whether a link may be issued and until when; the service
 * signs it (HMAC-SHA256 over the fields below, ADR 0406) and serves the PDF behind it. A link
 * lives exactly one hour of the account environment's clock, so a sandbox clock moved forward
 * expires it as live time would.
 */
import { BillingError } from '../shared/billing-error.js';
import type { Context } from '../shared/context.js';
import type { Scope } from '../shared/scope.js';
import { requireInvoice } from './invoice-availability.js';
import type { InvoiceSlice } from './repositories.js';

export const INVOICE_LINK_LIFETIME_MS = 60 * 60 * 1000;
export const INVOICE_DISPOSITIONS = ['attachment', 'inline'] as const;
export type InvoiceDisposition = (typeof INVOICE_DISPOSITIONS)[number];

/** What a signed invoice link carries. */
export interface InvoiceLinkClaims {
  readonly accountId: string;
  readonly environment: Scope['environment'];
  readonly transactionId: string;
  readonly disposition: InvoiceDisposition;
  /** Milliseconds since the epoch, on the account environment's clock. */
  readonly expiresAt: number;
}

/** The exact text a link's signature covers: every claim, in a fixed order, newline-separated. */
export function invoiceLinkPayload(claims: InvoiceLinkClaims): string {
  return [
    'drawdown-invoice-v1',
    claims.accountId,
    claims.environment,
    claims.transactionId,
    claims.disposition,
    String(claims.expiresAt),
  ].join('\n');
}

/** Checks the transaction has an invoice and returns the claims of a link to it, valid for one hour from now. */
export async function issueInvoiceLink(
  context: Context<InvoiceSlice>,
  transactionId: string,
  disposition: InvoiceDisposition,
): Promise<InvoiceLinkClaims> {
  const transaction = await context.store.transactions.findById(context.scope, transactionId);
  if (!transaction) throw BillingError.notFound('Transaction', transactionId);
  requireInvoice(transaction);
  return {
    accountId: context.scope.accountId,
    environment: context.scope.environment,
    transactionId,
    disposition,
    expiresAt: context.clock.now() + INVOICE_LINK_LIFETIME_MS,
  };
}

/** @throws BillingError `invoice_link_expired` once the environment's clock reaches the expiry. */
export function requireUnexpired(context: Context<InvoiceSlice>, claims: { readonly expiresAt: number }): void {
  if (context.clock.now() >= claims.expiresAt) {
    throw new BillingError('invoice_link_expired', 'This invoice link has expired; request a new one from the API.');
  }
}
