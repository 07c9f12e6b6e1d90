/**
 * @module
 * The use cases of reports (ADR 1303), bound once: requesting and reading reports, their signed
 * download links, and the report worker's steps.
 */
import { BillingError } from '../shared/billing-error.js';
import type { Context } from '../shared/context.js';
import type { UseCaseBase } from '../shared/use-case-base.js';
import { type ClaimedReport, claimDueReports, generateReport } from './generate-report.js';
import {
  createReport,
  getReport,
  issueReportLink,
  listReports,
  type ReportLinkClaims,
  requireDownloadableReport,
} from './reports.js';
import type { ReportSlice } from './repositories.js';

/** What reports need from the outside world. */
export interface ReportPorts {
  /** Waits a while (the core has no timers of its own). */
  pause(milliseconds: number): Promise<void>;
}

export function reportUseCases(base: UseCaseBase<Context<ReportSlice>>, ports: ReportPorts) {
  const { bind, store } = base;
  const generation = { store, wallClock: base.wallClock, pause: ports.pause, contextFor: base.contextOf };
  return {
    createReport: bind(createReport),
    getReport: bind(getReport),
    listReports: bind(listReports),
    issueReportLink: bind(issueReportLink),
    /** The report behind a link whose signature the caller verified, refused once expired. */
    openReportLink: async (claims: ReportLinkClaims) => {
      const scope = { accountId: claims.accountId, environment: claims.environment };
      const context = await base.contextOf(scope);
      if (!context) throw new BillingError('report_link_invalid', 'This report link is not valid.');
      const report = await requireDownloadableReport(context, claims);
      return { report, readChunk: (sequence: number) => store.reports.readChunk(scope, report.id, sequence) };
    },
    /** The report worker's steps: claim a due report, generate its CSV. */
    claimDueReports: (options: { readonly limit: number; readonly leaseMs: number }) =>
      claimDueReports(generation, options),
    generateReport: (claim: ClaimedReport) => generateReport(generation, claim),
  };
}
