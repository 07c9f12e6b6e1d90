/**
 * @module
 * The use case of metrics (ADR 1302), bound once.
 */
import type { Context } from '../shared/context.js';
import type { UseCaseBase } from '../shared/use-case-base.js';
import { getMetrics } from './metrics.js';
import type { MetricSlice } from './repositories.js';

export function metricUseCases({ bind }: UseCaseBase<Context<MetricSlice>>) {
  return { getMetrics: bind(getMetrics) };
}
