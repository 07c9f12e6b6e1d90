/**
 * @module
 * The page (`GET {base}/`, `?after=txn_…` for browsers without script) and the invoice and credit
 * note buttons as plain form posts, answered with a page that links the PDF.
 */
import type { Hono } from 'hono';
import type { PortalOperations } from '../../portal/portal-operations.js';
import { renderMessagePage, renderPage } from '../../portal/render-page.js';
import { ADJUSTMENT_ID, idParam, readCursor, requireSameSite, TRANSACTION_ID } from './route-helpers.js';

export function registerPageRoutes(app: Hono, portal: PortalOperations): void {
  const { assets } = portal.settings;

  app.get('/', async (c) => {
    const viewer = await portal.viewerOf(c.req.raw);
    const after = readCursor(c);
    const text = await portal.textOf(c.req.raw, viewer);
    const page = await portal.page(c.req.raw, viewer, after, text);
    return c.html(renderPage({ ...page, notice: portal.noticeOf(c.req.query('done'), c.req.query('at'), text) }));
  });

  // Without script, the invoice button is a form post: answer with a page that links the PDF.
  app.post('/transactions/:id/invoice', async (c) => {
    requireSameSite(c);
    const customerId = await portal.customerOf(c.req.raw);
    const url = await portal.invoiceLink(customerId, idParam(c, TRANSACTION_ID, 'transaction'), 'attachment');
    const text = await portal.textOf(c.req.raw);
    const link = { href: url, text: text.t('downloadInvoicePdf') };
    return c.html(renderMessagePage(text.t('invoiceReady'), text.t('linkOneHour'), assets, link, text.language));
  });

  // A credit note without script: a page that links the PDF (a redirect to the service's
  // address would leave 'self', which the policy's form-action refuses).
  app.post('/adjustments/:id/credit-note', async (c) => {
    requireSameSite(c);
    const customerId = await portal.customerOf(c.req.raw);
    const url = await portal.creditNoteLink(customerId, idParam(c, ADJUSTMENT_ID, 'adjustment'));
    const text = await portal.textOf(c.req.raw);
    const link = { href: url, text: text.t('downloadCreditNotePdf') };
    return c.html(renderMessagePage(text.t('creditNoteReady'), text.t('linkOneHour'), assets, link, text.language));
  });
}
