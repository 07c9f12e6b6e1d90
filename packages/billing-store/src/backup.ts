/**
 * @module
 * Online backups of the SQLite database with SQLite's backup API (better-sqlite3 `backup()`):
 * a consistent copy of every committed transaction, taken while `serve` keeps writing, WAL
 * included. Copying the file instead loses whatever the WAL has not yet checkpointed. PostgreSQL
 * is backed up with its own tools (`pg_dump`; docs/deployment.md).
 */
import { existsSync } from 'node:fs';
import Sqlite from 'better-sqlite3';

export interface BackupResult {
  readonly file: string;
  readonly totalPages: number;
}

/** Copies the database in `source` to `destination`, which must not exist yet. */
export async function backupSqlite(source: string, destination: string): Promise<BackupResult> {
  if (!existsSync(source)) throw new Error(`No database at ${source}`);
  if (existsSync(destination)) throw new Error(`${destination} exists already; a backup never overwrites a file`);
  const connection = new Sqlite(source, { fileMustExist: true });
  try {
    connection.pragma('busy_timeout = 10000');
    const metadata = await connection.backup(destination);
    return { file: destination, totalPages: metadata.totalPages };
  } finally {
    connection.close();
  }
}
