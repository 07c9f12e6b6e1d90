/**
 * @module
 * Storage port of reports: each report and its generated CSV chunks (ADR 1303).
 */
import type { CatalogueRepositories } from '../catalogue/repositories.js';
import type { DiscountRepositories } from '../discounts/repositories.js';
import type { EventRepositories } from '../events/repositories.js';
import type { Collection } from '../shared/collection.js';
import type { Scope } from '../shared/scope.js';
import type { SubscriptionRepositories } from '../subscriptions/repositories.js';
import type { TransactionRepositories } from '../transactions/repositories.js';
import type { UsageRepositories } from '../usage/repositories.js';
import type { Report, ReportColumn } from './report.js';

export interface ReportRepository extends Collection<Report, ReportColumn> {
  /** Pending reports of any scope due at or before `now`, held until commit (skipped when locked). */
  claimDue(now: string, limit: number): Promise<readonly { readonly scope: Scope; readonly report: Report }[]>;
  hasDue(now: string): Promise<boolean>;
  /** Stores one chunk of the CSV, in the current transaction. */
  writeChunk(scope: Scope, reportId: string, sequence: number, text: string): Promise<void>;
  /** The chunk with this sequence number, or undefined past the last. */
  readChunk(scope: Scope, reportId: string, sequence: number): Promise<string | undefined>;
  /** Drops every chunk of a report (before regenerating it). */
  deleteChunks(scope: Scope, reportId: string): Promise<void>;
}

/** The repositories reports own. */
export interface ReportRepositories {
  readonly reports: ReportRepository;
}

/** What reports use: their repositories, the rows they export and the event log. */
export interface ReportSlice
  extends ReportRepositories,
    EventRepositories,
    Pick<TransactionRepositories, 'transactions' | 'adjustments'>,
    Pick<CatalogueRepositories, 'products' | 'prices'>,
    Pick<DiscountRepositories, 'discounts'>,
    Pick<UsageRepositories, 'usageBalances'>,
    SubscriptionRepositories {}
