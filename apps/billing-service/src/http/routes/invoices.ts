/**
 * @module
 * The public end of a signed invoice link: no API key, the signature is the credential. A
 * malformed, altered or foreign link is `invoice_link_invalid` (404: it names nothing); an
 * expired one (an hour of the account environment's clock) `invoice_link_expired` (410).
 * Neither says more.
 */
import { BillingError, type Environment } from '@drawdown/billing-core';
import type { Hono } from 'hono';
import type { DocumentPool } from '../../rendering/document-pool.js';
import type { InvoiceLinkSigner } from '../../rendering/invoice-links.js';
import type { AppEnv } from '../app-env.js';

function invalidLink(): BillingError {
  return new BillingError('invoice_link_invalid', 'This invoice link is not valid.');
}

function invalidCreditNoteLink(): BillingError {
  return new BillingError('invoice_link_invalid', 'This credit note link is not valid.');
}

export function registerInvoiceDownloadRoutes(
  app: Hono<AppEnv>,
  invoiceLinks: InvoiceLinkSigner,
  documents: DocumentPool,
  environment: Environment,
): void {
  // Rendered on a worker thread of the document pool (ADR 1491): one link holder's PDFs never hold
  // up another tenant's requests; a full queue answers documents_busy (503).
  app.get('/invoices/:transactionId/pdf', async (c) => {
    const params = new URL(c.req.url).searchParams;
    const claims = await invoiceLinks.verify(environment, c.req.param('transactionId'), params);
    if (!claims) throw invalidLink();
    const document = await c.var.useCases.openInvoiceLink(claims);
    const { pdf } = await documents.renderInvoice(document);
    const filename = `invoice-${document.invoiceNumber.replace(/[^A-Za-z\d_-]/g, '_')}.pdf`;
    return c.body(new Uint8Array(pdf), 200, {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `${claims.disposition}; filename="${filename}"`,
      'Cache-Control': 'private, no-store',
    });
  });
  // Credit notes follow the same rules (ADR 1103): the signature is the credential, an hour of the account's clock.
  app.get('/credit-notes/:adjustmentId/pdf', async (c) => {
    const params = new URL(c.req.url).searchParams;
    const claims = await invoiceLinks.verifyCreditNote(environment, c.req.param('adjustmentId'), params);
    if (!claims) throw invalidCreditNoteLink();
    const document = await c.var.useCases.openCreditNoteLink(claims);
    const { pdf } = await documents.renderInvoice(document);
    const filename = `credit-note-${document.invoiceNumber.replace(/[^A-Za-z\d_-]/g, '_')}.pdf`;
    return c.body(new Uint8Array(pdf), 200, {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `${claims.disposition}; filename="${filename}"`,
      'Cache-Control': 'private, no-store',
    });
  });
}
