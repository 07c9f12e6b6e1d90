/**
 * @module
 * Reports: a request for a CSV export of one kind of entity, with filters. A worker generates
 * the CSV in pages (`generate-report.ts`) into stored chunks, so memory stays bounded however
 * many rows there are, and `rows` shows progress while the report is `pending` (ADR 1303).
 */
import type { Collection } from '../shared/repository.js';
import type { Scope } from '../shared/scope.js';

export const REPORT_TYPES = [
  'transactions',
  'transaction_line_items',
  'adjustments',
  'adjustment_line_items',
  'products_prices',
  'discounts',
  'balance',
  'payout_reconciliation',
  'usage_balances',
] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

export type ReportStatus = 'pending' | 'ready' | 'failed' | 'expired';

export interface ReportFilter {
  readonly name: string;
  readonly operator: 'lt' | 'gte' | null;
  readonly value: string | readonly string[];
}

export interface Report {
  readonly id: string;
  readonly status: ReportStatus;
  /** Rows written so far while pending; the total once ready. */
  readonly rows: number | null;
  readonly type: ReportType;
  readonly filters: readonly ReportFilter[];
  readonly expiresAt: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** When a worker should take it: the epoch at once, a lease while generating, null when done. */
  readonly dueAt: string | null;
}

export type ReportColumn = 'id' | 'status';

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
