/**
 * @module
 * `GET /metrics/{metric}`: the seven timeseries. `from` and `to` are required full dates;
 * `currency_code` (a Drawdown extension: amounts are never converted) picks the currency of
 * amount metrics. Any other query parameter is refused, not ignored.
 */
import { BillingError, METRIC_ENDPOINTS } from '@drawdown/billing-core';
import type { Hono } from 'hono';
import type { AppEnv } from '../app-env.js';
import { respond } from '../envelope.js';
import { need } from '../route-helpers.js';

const PARAMETERS = new Set(['from', 'to', 'currency_code']);

export function registerMetricsRoutes(app: Hono<AppEnv>): void {
  for (const endpoint of METRIC_ENDPOINTS) {
    app.get(`/metrics/${endpoint}`, need('metrics.read'), async (c) => {
      const params = new URL(c.req.url).searchParams;
      for (const name of params.keys()) {
        if (!PARAMETERS.has(name)) throw BillingError.invalidField(name, 'is not a parameter of metrics');
      }
      const value = (name: string) => params.get(name) ?? undefined;
      return respond(
        c,
        await c.var.useCases.getMetrics(c.var.caller, endpoint, {
          from: value('from'),
          to: value('to'),
          currencyCode: value('currency_code'),
        }),
      );
    });
  }
}
