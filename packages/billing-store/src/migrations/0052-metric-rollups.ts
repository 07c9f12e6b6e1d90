import type { Migration } from './migration.js';
import { columnTypes } from './migration.js';

/**
 * Daily metric rollups (ADR 1302): one row per scope, metric, currency and UTC day, holding the
 * sum of the deltas of that day. Amounts are integers in the smallest currency unit.
 */
export const metricRollups: Migration = {
  id: '0052-metric-rollups',
  statements: (dialect) => {
    const types = columnTypes(dialect);
    return [
      `create table metric_days (
  account_id text not null,
  environment text not null,
  metric text not null,
  currency_code text not null,
  day text not null,
  amount ${types.integer} not null,
  count ${types.integer} not null,
  primary key (account_id, environment, metric, currency_code, day)
)`,
      'create index metric_days_by_day on metric_days (account_id, environment, metric, day)',
    ];
  },
};
