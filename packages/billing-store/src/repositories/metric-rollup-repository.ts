/**
 * @module
 * Daily metric rollups: deltas are added with one upsert per row, so concurrent changes to the
 * same day add up instead of overwriting each other. Sums come back as integers from both
 * engines (PostgreSQL's `sum` of a bigint is numeric, read as text and parsed to a BigInt).
 */
import type { MetricDay, MetricDelta, MetricName, MetricRollupRepository, Scope } from '@drawdown/billing-core';
import type { SqlExecutor, SqlValue } from '../sql/sql-database.js';

interface DayRow extends Record<string, unknown> {
  day: string;
  amount: string | number | bigint | null;
  count: string | number | bigint | null;
}

const fromRow = (row: DayRow): MetricDay => ({
  day: row.day,
  amount: BigInt(row.amount ?? 0),
  count: Number(row.count ?? 0),
});

export class SqlMetricRollupRepository implements MetricRollupRepository {
  constructor(private readonly executor: SqlExecutor) {}

  async add(scope: Scope, deltas: readonly MetricDelta[]): Promise<void> {
    for (const delta of deltas) {
      await this.executor.run(
        `insert into metric_days (account_id, environment, metric, currency_code, day, amount, count)
         values (?, ?, ?, ?, ?, ?, ?)
         on conflict (account_id, environment, metric, currency_code, day)
         do update set amount = metric_days.amount + excluded.amount, count = metric_days.count + excluded.count`,
        [
          scope.accountId,
          scope.environment,
          delta.metric,
          delta.currencyCode,
          delta.day,
          delta.amount.toString(),
          delta.count,
        ],
      );
    }
  }

  async days(
    scope: Scope,
    metric: MetricName,
    currencyCode: string | null,
    fromDay: string,
    toDay: string,
  ): Promise<MetricDay[]> {
    const { clause, params } = this.currency(currencyCode);
    const rows = await this.executor.all<DayRow>(
      `select day, sum(amount) as amount, sum(count) as count from metric_days
       where account_id = ? and environment = ? and metric = ?${clause} and day >= ? and day < ?
       group by day order by day`,
      [scope.accountId, scope.environment, metric, ...params, fromDay, toDay],
    );
    return rows.map(fromRow);
  }

  async totalBefore(scope: Scope, metric: MetricName, currencyCode: string | null, day: string): Promise<MetricDay> {
    const { clause, params } = this.currency(currencyCode);
    const row = await this.executor.get<DayRow>(
      `select '' as day, sum(amount) as amount, sum(count) as count from metric_days
       where account_id = ? and environment = ? and metric = ?${clause} and day < ?`,
      [scope.accountId, scope.environment, metric, ...params, day],
    );
    return row ? fromRow(row) : { day: '', amount: 0n, count: 0 };
  }

  private currency(currencyCode: string | null): { clause: string; params: SqlValue[] } {
    return currencyCode === null
      ? { clause: '', params: [] }
      : { clause: ' and currency_code = ?', params: [currencyCode] };
  }
}
