/**
 * @module
 * The service's own state (API keys, quota counters) in one SQLite file, separate from the catalogue so that a
 * catalogue can be rebuilt or replaced without touching keys and usage.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

/** Opens the state database at `path` (`:memory:` for tests), creating its folder. */
export function openStateDatabase(path: string): Database.Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  if (path !== ':memory:') {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
  }
  return db;
}
