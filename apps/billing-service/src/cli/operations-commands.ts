/**
 * @module
 * The operator's commands that work on the database itself: `migrate`, `migrate status` and
 * `backup`. They open the database without the store, so `migrate status` and `backup` never
 * change the schema.
 */
import { resolve } from 'node:path';
import { backupDatabase, databaseMigrationStatus, migrateDatabase } from '../compose-services.js';
import type { ServiceConfig } from '../config.js';
import { printResult } from './output.js';

export async function runMigrate(config: ServiceConfig, json: boolean): Promise<number> {
  const applied = await migrateDatabase(config);
  printResult(json, { applied }, [
    ['Applied', applied.length > 0 ? applied.join(', ') : 'nothing: the schema is current'],
  ]);
  return 0;
}

export async function runMigrateStatus(config: ServiceConfig, json: boolean): Promise<number> {
  const status = await databaseMigrationStatus(config);
  printResult(json, { ...status }, [
    ['Schema', status.state],
    ['Applied', status.applied.join(', ') || 'none'],
    ['Pending', status.pending.join(', ') || 'none'],
    ...(status.unknown.length > 0 ? [['Unknown (newer build)', status.unknown.join(', ')] as [string, string]] : []),
  ]);
  // Scripts can gate a deploy on it: 0 only when the schema is this build's.
  return status.state === 'current' ? 0 : 3;
}

export async function runBackup(
  config: ServiceConfig,
  destination: string | undefined,
  json: boolean,
): Promise<number> {
  if (!destination) throw new BackupUsage('backup needs the destination file: drawdown backup FILE');
  const result = await backupDatabase(config, resolve(destination));
  printResult(json, { backup: result }, [
    ['Backup', result.file],
    ['Pages', String(result.totalPages)],
  ]);
  return 0;
}

export class BackupUsage extends Error {}
