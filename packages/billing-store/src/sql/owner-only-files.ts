/**
 * @module
 * The SQLite database holds API key hashes, providers' secret keys and customers' data, so its
 * files are readable and writable by their owner only (mode 0600; ADR 1481). SQLite creates
 * the `-wal` and `-shm` files with the database file's own mode, so creating the database file
 * 0600 before SQLite opens it is enough for new files. An existing database file, `-wal` or
 * `-shm` that grants its group or others any access is narrowed to 0600 when it is opened; one
 * the process may not change (another user's file) is left as it is.
 */
import { chmodSync, closeSync, constants, openSync, statSync } from 'node:fs';

export const OWNER_ONLY = 0o600;
const GROUP_OR_OTHERS = 0o077;

/** A file whose mode was narrowed to 0600, and the mode it had. */
export interface NarrowedFile {
  readonly file: string;
  readonly previousMode: number;
}

/** Creates `file` empty with mode 0600; fails if it exists (no file is ever replaced). */
export function createOwnerOnlyFile(file: string): void {
  closeSync(openSync(file, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, OWNER_ONLY));
}

/**
 * Makes sure the database `file` exists with mode 0600 before SQLite opens it, and narrows an
 * existing database file, `-wal` or `-shm` that others may read; answers what it narrowed.
 */
export function restrictDatabaseFiles(file: string): readonly NarrowedFile[] {
  try {
    createOwnerOnlyFile(file);
    return [];
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const narrowed: NarrowedFile[] = [];
  for (const candidate of [file, `${file}-wal`, `${file}-shm`]) {
    let mode: number;
    try {
      mode = statSync(candidate).mode & 0o777;
    } catch {
      continue;
    }
    if ((mode & GROUP_OR_OTHERS) === 0) continue;
    try {
      chmodSync(candidate, OWNER_ONLY);
      narrowed.push({ file: candidate, previousMode: mode });
    } catch {
      // Another user's file (EPERM): opening goes on as before; the operator's docs say to narrow it.
    }
  }
  return narrowed;
}
