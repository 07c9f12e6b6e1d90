/**
 * @module
 * Reports as documents plus their CSV chunks. The due-report claim works across scopes like
 * simulation runs do (`SKIP LOCKED` on PostgreSQL).
 */
import type { Environment, Report, ReportColumn, ReportRepository, Scope } from '@drawdown/billing-core';
import type { SqlExecutor } from '../sql/sql-database.js';
import { DocumentCollection, type DocumentTableSpec } from './document-collection.js';

const reportsTable: DocumentTableSpec<Report, ReportColumn | 'due_at'> = {
  table: 'reports',
  columns: { status: (report) => report.status, due_at: (report) => report.dueAt },
};

export class SqlReportRepository extends DocumentCollection<Report, ReportColumn> implements ReportRepository {
  constructor(private readonly sql: SqlExecutor) {
    super(sql, reportsTable as DocumentTableSpec<Report, ReportColumn>);
  }

  async claimDue(now: string, limit: number): Promise<readonly { scope: Scope; report: Report }[]> {
    const lock = this.sql.dialect === 'postgres' ? ' for update skip locked' : '';
    const rows = await this.sql.all<{ account_id: string; environment: Environment; body: string }>(
      `select account_id, environment, body from reports where due_at is not null and due_at <= ?
       order by due_at, id limit ?${lock}`,
      [now, limit],
    );
    return rows.map((row) => ({
      scope: { accountId: row.account_id, environment: row.environment },
      report: JSON.parse(row.body) as Report,
    }));
  }

  async hasDue(now: string): Promise<boolean> {
    const row = await this.sql.get('select 1 as due from reports where due_at is not null and due_at <= ? limit 1', [
      now,
    ]);
    return row !== undefined;
  }

  async writeChunk(scope: Scope, reportId: string, sequence: number, text: string): Promise<void> {
    await this.sql.run(
      'insert into report_chunks (account_id, environment, report_id, sequence, body) values (?, ?, ?, ?, ?)',
      [scope.accountId, scope.environment, reportId, sequence, text],
    );
  }

  async readChunk(scope: Scope, reportId: string, sequence: number): Promise<string | undefined> {
    const row = await this.sql.get<{ body: string }>(
      'select body from report_chunks where account_id = ? and environment = ? and report_id = ? and sequence = ?',
      [scope.accountId, scope.environment, reportId, sequence],
    );
    return row?.body;
  }

  async deleteChunks(scope: Scope, reportId: string): Promise<void> {
    await this.sql.run('delete from report_chunks where account_id = ? and environment = ? and report_id = ?', [
      scope.accountId,
      scope.environment,
      reportId,
    ]);
  }
}
