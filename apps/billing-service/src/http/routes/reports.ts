/**
 * @module
 * `/reports`: create, list, get, and `GET /reports/{id}/download-url` (a signed link valid one
 * hour). The link's own route (`/reports/{id}/csv`) is public: the signature is the credential,
 * and the CSV streams from its stored chunks one at a time.
 */
import { CreateReportBody } from '@drawdown/billing-contract';
import { BillingError, type Environment, type ReportColumn } from '@drawdown/billing-core';
import type { Hono } from 'hono';
import { stream } from 'hono/streaming';
import type { InvoiceLinkSigner } from '../../rendering/invoice-links.js';
import { signedReportUrl, verifyReportLink } from '../../rendering/report-links.js';
import type { AppEnv } from '../app-env.js';
import { respond, respondPage } from '../envelope.js';
import { type ListSpec, parseListParams } from '../list-params.js';
import { presentReport } from '../presenters.js';
import { readWireBody } from '../request-body.js';
import { need, pathId } from '../route-helpers.js';

const listSpec: ListSpec<ReportColumn> = {
  idPrefix: 'rep',
  defaultPerPage: 50,
  maxPerPage: 200,
  filters: { status: { kind: 'enum', column: 'status', values: ['pending', 'ready', 'failed', 'expired'] } },
};

export function registerReportRoutes(app: Hono<AppEnv>, links: InvoiceLinkSigner, wakeReports: () => void): void {
  app.get('/reports', need('report.read'), async (c) => {
    const { query, perPage } = parseListParams(c, listSpec);
    return respondPage(c, await c.var.useCases.listReports(c.var.caller, query), perPage, presentReport);
  });
  app.post('/reports', need('report.write'), async (c) => {
    const body = await readWireBody(c, CreateReportBody);
    const report = await c.var.useCases.createReport(c.var.caller, { type: body.type, filters: body.filters });
    wakeReports();
    return respond(c, presentReport(report), 201);
  });
  app.get('/reports/:id', need('report.read'), async (c) =>
    respond(c, presentReport(await c.var.useCases.getReport(c.var.caller, pathId(c, 'rep')))),
  );
  app.get('/reports/:id/download-url', need('report.read'), async (c) => {
    const claims = await c.var.useCases.issueReportLink(c.var.caller, pathId(c, 'rep'));
    return respond(c, { url: await signedReportUrl(links, c.var.publicBaseUrl, claims) });
  });
}

function invalidLink(): BillingError {
  return new BillingError('report_link_invalid', 'This report link is not valid.');
}

/** The public end of a signed report link: the signature is the credential. */
export function registerReportDownloadRoutes(
  app: Hono<AppEnv>,
  links: InvoiceLinkSigner,
  environment: Environment,
): void {
  app.get('/reports/:id/csv', async (c) => {
    const claims = await verifyReportLink(links, environment, c.req.param('id'), new URL(c.req.url).searchParams);
    if (!claims) throw invalidLink();
    const { report, readChunk } = await c.var.useCases.openReportLink(claims);
    c.header('Content-Type', 'text/csv; charset=utf-8');
    c.header('Content-Disposition', `attachment; filename="${report.type}-${report.id}.csv"`);
    c.header('Cache-Control', 'private, no-store');
    return stream(c, async (out) => {
      for (let sequence = 0; ; sequence += 1) {
        const chunk = await readChunk(sequence);
        if (chunk === undefined) return;
        await out.write(chunk);
      }
    });
  });
}
