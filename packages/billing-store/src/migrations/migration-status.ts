/**
 * @module
 * What a database's schema is, compared with this build's migrations, without changing it:
 * `drawdown migrate status`, the refusal to serve an unmigrated or newer schema, and readiness
 * all read it.
 */
import type { SqlExecutor } from '../sql/sql-database.js';
import { MIGRATIONS } from './migrate.js';
import type { Migration } from './migration.js';

export interface MigrationStatus {
  /** Migrations of this build recorded as applied, in this build's order. */
  readonly applied: readonly string[];
  /** Migrations of this build not yet applied. */
  readonly pending: readonly string[];
  /** Migrations the database records but this build does not know: a newer build migrated it. */
  readonly unknown: readonly string[];
}

export type SchemaState = 'current' | 'behind' | 'ahead';

export function schemaState(status: MigrationStatus): SchemaState {
  if (status.unknown.length > 0) return 'ahead';
  return status.pending.length > 0 ? 'behind' : 'current';
}

async function appliedIds(executor: SqlExecutor): Promise<string[]> {
  const table =
    executor.dialect === 'postgres'
      ? await executor.get(
          "select 1 as found from pg_tables where tablename = 'schema_migrations' and schemaname = current_schema()",
        )
      : await executor.get("select 1 as found from sqlite_master where type = 'table' and name = 'schema_migrations'");
  if (!table) return [];
  return (await executor.all<{ id: string }>('select id from schema_migrations order by id')).map((row) => row.id);
}

export async function migrationStatus(
  executor: SqlExecutor,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<MigrationStatus> {
  const recorded = new Set(await appliedIds(executor));
  const known = new Set(migrations.map((migration) => migration.id));
  return {
    applied: migrations.map((migration) => migration.id).filter((id) => recorded.has(id)),
    pending: migrations.map((migration) => migration.id).filter((id) => !recorded.has(id)),
    unknown: [...recorded].filter((id) => !known.has(id)),
  };
}
