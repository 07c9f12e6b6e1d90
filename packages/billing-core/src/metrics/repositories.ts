/**
 * @module
 * Storage port of metrics: the daily rollups (ADR 1302).
 */

import type { Scope } from '../shared/scope.js';
import type { MetricDay, MetricDelta, MetricName } from './metric-rollups.js';

export interface MetricRollupRepository {
  /** Adds each delta to its day's row (creating the row), in the current transaction. */
  add(scope: Scope, deltas: readonly MetricDelta[]): Promise<void>;
  /** The rows of days in [fromDay, toDay), in day order; days without a row are absent. */
  /** `currencyCode` null sums every currency (for counts). */
  days(
    scope: Scope,
    metric: MetricName,
    currencyCode: string | null,
    fromDay: string,
    toDay: string,
  ): Promise<MetricDay[]>;
  /** The sum of every row before `day` (for metrics that are running totals). */
  totalBefore(scope: Scope, metric: MetricName, currencyCode: string | null, day: string): Promise<MetricDay>;
}

/** The repositories metrics own. */
export interface MetricRepositories {
  readonly metricRollups: MetricRollupRepository;
}

/** What metrics use: their rollups alone. */
export interface MetricSlice extends MetricRepositories {}
