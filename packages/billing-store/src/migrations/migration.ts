import type { Dialect, SqlExecutor } from '../sql/sql-database.js';

/**
 * A step of a migration: a statement, or work in the migration's transaction for what SQL alone
 * cannot do on one engine (a backfill computed in JavaScript, say).
 */
export type MigrationStep = string | ((tx: SqlExecutor) => Promise<void>);

/** One forward-only schema change, written once for both engines. */
export interface Migration {
  readonly id: string;
  statements(dialect: Dialect): readonly MigrationStep[];
}

/** Column types that differ between the engines. */
export function columnTypes(dialect: Dialect) {
  return dialect === 'postgres'
    ? { sequence: 'bigserial primary key', integer: 'bigint', boolean: 'smallint' }
    : { sequence: 'integer primary key autoincrement', integer: 'integer', boolean: 'integer' };
}

/**
 * A table of entity documents: the entity as JSON in `body`, plus the columns that lists
 * filter on, promoted out of it (ADR 0002).
 */
export function documentTable(name: string, columns: readonly string[]): string {
  const promoted = columns.map((column) => `  ${column} text,\n`).join('');
  return `create table ${name} (
  account_id text not null,
  environment text not null,
  id text not null,
${promoted}  body text not null,
  primary key (account_id, environment, id)
)`;
}
