/**
 * @module
 * The use cases of invoices, bound once: signed links to invoice and credit-note documents, and
 * the seller the documents name (ADR 1106).
 */
import { BillingError } from '../shared/billing-error.js';
import type { Context } from '../shared/context.js';
import type { UseCaseBase } from '../shared/use-case-base.js';
import { type CreditNoteLinkClaims, getCreditNoteDocument, issueCreditNoteLink } from './credit-note.js';
import { getInvoiceDocument } from './invoice-document.js';
import { type InvoiceLinkClaims, issueInvoiceLink, requireUnexpired } from './invoice-links.js';
import type { InvoiceSlice } from './repositories.js';
import {
  getSellerDetails,
  getSellerLogo,
  type ImageDecoder,
  type UpdateSellerDetailsInput,
  updateSellerDetails,
} from './seller-details.js';

/** What invoices need from the outside world. */
export interface InvoicePorts {
  /** Decodes seller logos (PNG and JPEG) to check them (ADR 1106). */
  readonly images: ImageDecoder;
}

export function invoiceUseCases(base: UseCaseBase<Context<InvoiceSlice>>, ports: InvoicePorts) {
  const { bind } = base;
  /** The context of the account a signed link names, on its clock: refused when no such account or once expired. */
  async function linkContext(claims: InvoiceLinkClaims | CreditNoteLinkClaims, refusal: string) {
    const context = await base.contextOf({ accountId: claims.accountId, environment: claims.environment });
    if (!context) throw new BillingError('invoice_link_invalid', refusal);
    requireUnexpired(context, claims);
    return context;
  }
  return {
    issueInvoiceLink: bind(issueInvoiceLink),
    /** The invoice behind a link whose signature the caller verified: refused once the link expired on its account's clock. */
    openInvoiceLink: async (claims: InvoiceLinkClaims) =>
      getInvoiceDocument(await linkContext(claims, 'This invoice link is not valid.'), claims.transactionId),
    issueCreditNoteLink: bind(issueCreditNoteLink),
    /** The credit note behind a link whose signature the caller verified, refused once expired (ADR 1103). */
    openCreditNoteLink: async (claims: CreditNoteLinkClaims) =>
      getCreditNoteDocument(await linkContext(claims, 'This credit note link is not valid.'), claims.adjustmentId),
    /** The seller the documents name (ADR 1106): the API's `/seller-details` and the CLI. */
    getSellerDetails: bind(getSellerDetails),
    /** The logo file itself, for the billing portal's header (ADR 0810). */
    getSellerLogo: bind(getSellerLogo),
    updateSellerDetails: bind((context, input: UpdateSellerDetailsInput) =>
      updateSellerDetails({ ...context, images: ports.images }, input),
    ),
  };
}
