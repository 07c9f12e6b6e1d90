import type { Migration } from './migration.js';
import { columnTypes, documentTable } from './migration.js';

/**
 * Reports as documents, and their CSV in ordered chunks stored beside them (ADR 1303), so any
 * service process on the database can serve a download. `due_at` is the generation claim.
 */
export const reports: Migration = {
  id: '0053-reports',
  statements: (dialect) => {
    const types = columnTypes(dialect);
    return [
      documentTable('reports', ['status', 'due_at']),
      'create index reports_by_status on reports (account_id, environment, status, id)',
      'create index reports_due on reports (due_at) where due_at is not null',
      `create table report_chunks (
  account_id text not null,
  environment text not null,
  report_id text not null,
  sequence ${types.integer} not null,
  body text not null,
  primary key (account_id, environment, report_id, sequence)
)`,
    ];
  },
};
