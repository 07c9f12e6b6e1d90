/**
 * @module
 * `/reports`: create, list, get, and `GET /reports/{id}/download-url` (a signed link valid one
 * hour). The link's own route (`/reports/{id}/csv`) is public: the signature is the credential,
 * and the CSV streams from its stored chunks one at a time.
 */
import { CreateReportBody } from '@drawdown/billing-contract';
import {
  BillingError,
  createReport,
  type Environment,
  getReport,
  issueReportLink,
  listReports,
  type OperationContext,
  type Report,
  type ReportColumn,
  requireDownloadableReport,
  type Scope,
} from '@drawdown/billing-core';
import type { Hono } from 'hono';
import { stream } from 'hono/streaming';
import { signedReportUrl, verifyReportLink } from '../../rendering/report-links.js';
import type { AppDependencies } from '../app.js';
import type { AppEnv } from '../app-env.js';
import { respond, respondPage } from '../envelope.js';
import { type ListSpec, parseListParams } from '../list-params.js';
import { readWireBody } from '../request-body.js';
import { need, pathId } from '../route-helpers.js';

const listSpec: ListSpec<ReportColumn> = {
  idPrefix: 'rep',
  defaultPerPage: 50,
  maxPerPage: 200,
  filters: { status: { kind: 'enum', column: 'status', values: ['pending', 'ready', 'failed', 'expired'] } },
};

export function presentReport(report: Report): unknown {
  return {
    id: report.id,
    status: report.status,
    rows: report.rows,
    type: report.type,
    filters: report.filters,
    expiresAt: report.expiresAt,
    createdAt: report.createdAt,
    updatedAt: report.updatedAt,
  };
}

export function registerReportRoutes(app: Hono<AppEnv>, wakeReports: () => void): void {
  app.get('/reports', need('report.read'), async (c) => {
    const { query, perPage } = parseListParams(c, listSpec);
    return respondPage(c, await listReports(c.var.context, query), perPage, presentReport);
  });
  app.post('/reports', need('report.write'), async (c) => {
    const body = await readWireBody(c, CreateReportBody);
    const report = await createReport(c.var.context, { type: body.type, filters: body.filters });
    wakeReports();
    return respond(c, presentReport(report), 201);
  });
  app.get('/reports/:id', need('report.read'), async (c) =>
    respond(c, presentReport(await getReport(c.var.context, pathId(c, 'rep')))),
  );
  app.get('/reports/:id/download-url', need('report.read'), async (c) => {
    const claims = await issueReportLink(c.var.context, pathId(c, 'rep'));
    return respond(c, { url: await signedReportUrl(c.var.context.store, c.var.publicBaseUrl, claims) });
  });
}

function invalidLink(): BillingError {
  return new BillingError('report_link_invalid', 'This report link is not valid.');
}

/** The public end of a signed report link. */
export function registerReportDownloadRoutes(
  app: Hono<AppEnv>,
  dependencies: AppDependencies,
  environment: Environment,
): void {
  app.get('/reports/:id/csv', async (c) => {
    const reportId = c.req.param('id');
    const claims = await verifyReportLink(dependencies.store, environment, reportId, new URL(c.req.url).searchParams);
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
    const report = await requireDownloadableReport(context, claims);
    c.header('Content-Type', 'text/csv; charset=utf-8');
    c.header('Content-Disposition', `attachment; filename="${report.type}-${report.id}.csv"`);
    c.header('Cache-Control', 'private, no-store');
    return stream(c, async (out) => {
      for (let sequence = 0; ; sequence += 1) {
        const chunk = await dependencies.store.reports.readChunk(scope, report.id, sequence);
        if (chunk === undefined) return;
        await out.write(chunk);
      }
    });
  });
}
