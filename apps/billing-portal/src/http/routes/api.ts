/**
 * @module
 * The page script's JSON routes under `{base}/api` (ADR 0800): a page of history, fresh invoice
 * and credit note links, the usage bars. Refusals are answered as JSON, `{ error: { code, detail } }`.
 */
import { Hono } from 'hono';
import { NOT_FOUND, Refused, refusalBody } from '../../portal/portal-error.js';
import type { PortalOperations } from '../../portal/portal-operations.js';
import { ADJUSTMENT_ID, idParam, readCursor, readSmallJson, requireSameSite, TRANSACTION_ID } from './route-helpers.js';

export function apiRoutes(portal: PortalOperations): Hono {
  const api = new Hono({ strict: false });
  api.get('/transactions', async (c) => {
    const viewer = await portal.viewerOf(c.req.raw);
    const page = await portal.history(c.req.raw, viewer, readCursor(c), await portal.textOf(c.req.raw, viewer));
    return c.json({ data: page.rows, hasMore: page.hasMore, next: page.next });
  });
  api.post('/transactions/:id/invoice', async (c) => {
    // Only `disposition` is read from the body, and only from a small one (counted on the stream,
    // ADR 0903); any customer id in it is ignored.
    const body = (await readSmallJson(c, 1_024)) as { disposition?: unknown } | null;
    const disposition = body?.disposition === 'inline' ? 'inline' : 'attachment';
    requireSameSite(c);
    const customerId = await portal.customerOf(c.req.raw);
    const url = await portal.invoiceLink(customerId, idParam(c, TRANSACTION_ID, 'transaction'), disposition);
    return c.json({ data: { url } });
  });
  api.post('/adjustments/:id/credit-note', async (c) => {
    requireSameSite(c);
    const customerId = await portal.customerOf(c.req.raw);
    const url = await portal.creditNoteLink(customerId, idParam(c, ADJUSTMENT_ID, 'adjustment'));
    return c.json({ data: { url } });
  });
  api.get('/usage', async (c) => {
    const viewer = await portal.viewerOf(c.req.raw);
    return c.json({ data: await portal.usage(viewer, await portal.textOf(c.req.raw, viewer)) });
  });
  api.all('*', () => {
    throw new Refused(NOT_FOUND);
  });
  api.onError((error, c) => {
    const refusal = portal.refusalOf(error);
    return c.json(refusalBody(refusal), refusal.status);
  });
  return api;
}
