/**
 * @module
 * Online backups of the SQLite database with SQLite's backup API (better-sqlite3 `backup()`):
 * a consistent copy of every committed transaction, taken while `serve` keeps writing, WAL
 * included. Copying the file instead loses whatever the WAL has not yet checkpointed. PostgreSQL
 * is backed up with its own tools (`pg_dump`; docs/deployment.md).
 */
import { existsSync, rmSync } from 'node:fs';
import Sqlite from 'better-sqlite3';
import { createOwnerOnlyFile } from './sql/owner-only-files.js';

export interface BackupResult {
  readonly file: string;
  readonly totalPages: number;
}

/**
 * Copies the database in `source` to `destination`, which must not exist yet. The copy holds
 * what the database holds (secret keys, customers' data), so it is created readable and
 * writable by its owner only (0600; ADR 1481) before a page is copied; a failed copy is removed.
 */
export async function backupSqlite(source: string, destination: string): Promise<BackupResult> {
  if (!existsSync(source)) throw new Error(`No database at ${source}`);
  try {
    createOwnerOnlyFile(destination);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new Error(`${destination} exists already; a backup never overwrites a file`);
    }
    throw error;
  }
  let connection: Sqlite.Database | undefined;
  try {
    connection = new Sqlite(source, { fileMustExist: true });
    connection.pragma('busy_timeout = 10000');
    const metadata = await connection.backup(destination);
    return { file: destination, totalPages: metadata.totalPages };
  } catch (error) {
    rmSync(destination, { force: true });
    throw error;
  } finally {
    connection?.close();
  }
}
