/**
 * @module
 * The operator's commands that work on the database itself: `migrate`, `migrate status` and
 * `backup`. They open the database without the store, so `migrate status` and `backup` never
 * change the schema.
 */
import { resolve } from 'node:path';
import {
  backupSqlite,
  MIGRATIONS,
  migrate,
  migrationStatus,
  openDatabase,
  SchemaMismatch,
  schemaState,
} from '@drawdown/billing-store';
import { sqliteFile, storeConfig } from '../compose-services.js';
import type { ServiceConfig } from '../config.js';
import { printResult } from './output.js';

export async function runMigrate(config: ServiceConfig, json: boolean): Promise<number> {
  const database = openDatabase(storeConfig(config));
  try {
    const before = await migrationStatus(database);
    if (schemaState(before) === 'ahead') throw new SchemaMismatch('ahead', before.unknown);
    const applied = await migrate(database, MIGRATIONS);
    printResult(json, { applied }, [
      ['Applied', applied.length > 0 ? applied.join(', ') : 'nothing: the schema is current'],
    ]);
    return 0;
  } finally {
    await database.close();
  }
}

export async function runMigrateStatus(config: ServiceConfig, json: boolean): Promise<number> {
  const database = openDatabase(storeConfig(config));
  try {
    const status = await migrationStatus(database);
    const state = schemaState(status);
    printResult(json, { state, ...status }, [
      ['Schema', state],
      ['Applied', status.applied.join(', ') || 'none'],
      ['Pending', status.pending.join(', ') || 'none'],
      ...(status.unknown.length > 0 ? [['Unknown (newer build)', status.unknown.join(', ')] as [string, string]] : []),
    ]);
    // Scripts can gate a deploy on it: 0 only when the schema is this build's.
    return state === 'current' ? 0 : 3;
  } finally {
    await database.close();
  }
}

export async function runBackup(
  config: ServiceConfig,
  destination: string | undefined,
  json: boolean,
): Promise<number> {
  if (config.databaseUrl) {
    throw new Error(
      'drawdown backup copies the SQLite database; back up PostgreSQL with pg_dump (docs/deployment.md, "Backups")',
    );
  }
  if (!destination) throw new BackupUsage('backup needs the destination file: drawdown backup FILE');
  const result = await backupSqlite(sqliteFile(config.dataDir), resolve(destination));
  printResult(json, { backup: result }, [
    ['Backup', result.file],
    ['Pages', String(result.totalPages)],
  ]);
  return 0;
}

export class BackupUsage extends Error {}
