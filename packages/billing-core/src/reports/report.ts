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
  'subscription_cancellations',
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
