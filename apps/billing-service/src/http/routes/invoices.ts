/**
 * @module
 * The public end of a signed invoice link: no API key, the signature is the credential. A
 * malformed, altered or foreign link is `invoice_link_invalid` (404: it names nothing); an
 * expired one (an hour of the account environment's clock) `invoice_link_expired` (410).
 * Neither says more.
 */
import {
  BillingError,
  type Environment,
  getInvoiceDocument,
  type OperationContext,
  requireUnexpired,
  type Scope,
} from '@drawdown/billing-core';
import type { Hono } from 'hono';
import { verifyInvoiceLink } from '../../rendering/invoice-links.js';
import { renderInvoicePdf } from '../../rendering/invoice-pdf.js';
import type { AppDependencies } from '../app.js';
import type { AppEnv } from '../app-env.js';

function invalidLink(): BillingError {
  return new BillingError('invoice_link_invalid', 'This invoice link is not valid.');
}

export function registerInvoiceDownloadRoutes(
  app: Hono<AppEnv>,
  dependencies: AppDependencies,
  environment: Environment,
): void {
  app.get('/invoices/:transactionId/pdf', async (c) => {
    const transactionId = c.req.param('transactionId');
    const params = new URL(c.req.url).searchParams;
    const claims = await verifyInvoiceLink(dependencies.store, environment, transactionId, params);
    if (!claims) throw invalidLink();
    const account = await dependencies.store.accounts.findById(claims.accountId);
    if (!account) throw invalidLink();
    const scope: Scope = { accountId: account.id, environment };
    const context: OperationContext = {
      store: dependencies.store,
      ids: dependencies.ids,
      clock: await dependencies.clockFor(scope),
      scope,
      account,
    };
    requireUnexpired(context, claims);
    const document = await getInvoiceDocument(context, claims.transactionId);
    const pdf = await renderInvoicePdf(document);
    const filename = `invoice-${document.invoiceNumber.replace(/[^A-Za-z\d_-]/g, '_')}.pdf`;
    return c.body(new Uint8Array(pdf), 200, {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `${claims.disposition}; filename="${filename}"`,
      'Cache-Control': 'private, no-store',
    });
  });
}
