/**
 * @module
 * Storage adapters for the billing core's ports: SQLite (the embedded default) and
 * PostgreSQL, with one schema and one set of migrations.
 */
export { MIGRATIONS, migrate } from './migrations/migrate.js';
export { openDatabase, openStore, repositoriesOn, type StoreConfig, storeOn } from './open-store.js';
export { PostgresDatabase } from './sql/postgres-database.js';
export type { Dialect, SqlDatabase, SqlExecutor, SqlValue } from './sql/sql-database.js';
export { SqliteDatabase } from './sql/sqlite-database.js';
