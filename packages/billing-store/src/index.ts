/**
 * @module
 * Storage adapters for the billing core's ports: SQLite (the embedded default) and
 * PostgreSQL, with one schema and one set of migrations.
 */
export { type BackupResult, backupSqlite } from './backup.js';
export { MIGRATIONS, migrate } from './migrations/migrate.js';
export { type MigrationStatus, migrationStatus, type SchemaState, schemaState } from './migrations/migration-status.js';
export {
  openDatabase,
  openStore,
  openStoreOn,
  prepareSchema,
  repositoriesOn,
  SchemaMismatch,
  type SchemaPolicy,
  type StoreConfig,
  storeOn,
} from './open-store.js';
export {
  type PoolFigures,
  pingDatabase,
  poolFigures,
  type QueueFigures,
  readQueueFigures,
} from './operational-figures.js';
export { GroupCommit, type GroupCommitOptions } from './repositories/group-commit.js';
export { PostgresDatabase, parsePostgresTargets } from './sql/postgres-database.js';
export type { Dialect, SqlDatabase, SqlExecutor, SqlValue } from './sql/sql-database.js';
export { SqliteDatabase } from './sql/sqlite-database.js';
