/**
 * @module
 * Wires the ports to their adapters. The only file that picks a storage engine.
 */
import { join } from 'node:path';
import type { AccessDependencies, Store } from '@drawdown/billing-core';
import { openStoreOn, type SchemaPolicy, type SqlDatabase, type StoreConfig } from '@drawdown/billing-store';
import { keySecrets } from './infrastructure/key-secrets.js';
import { systemClock } from './infrastructure/system-clock.js';
import { createUlidIds } from './infrastructure/ulid-ids.js';

export interface StorageSettings {
  readonly dataDir: string;
  readonly databaseUrl: string | undefined;
  /** Most PostgreSQL connections this process opens; the pool's default (10) when absent. */
  readonly databasePoolSize?: number | undefined;
}

export function storeConfig(settings: StorageSettings): StoreConfig {
  return settings.databaseUrl
    ? {
        engine: 'postgres',
        url: settings.databaseUrl,
        ...(settings.databasePoolSize ? { maxConnections: settings.databasePoolSize } : {}),
      }
    : { engine: 'sqlite', file: sqliteFile(settings.dataDir) };
}

/** The SQLite database of a data folder. */
export function sqliteFile(dataDir: string): string {
  return join(dataDir, 'drawdown.sqlite');
}

export interface CoreServices extends AccessDependencies {
  readonly store: Store;
  /** The database under the store, for what operations read directly: health, queue depths, the pool. */
  readonly database: SqlDatabase;
}

/**
 * Opens the store. `migrate` (the default for library callers and `npm start`) applies pending
 * migrations; `require` refuses a database whose schema is not this build's (`drawdown serve`
 * without --migrate; ADR 1404).
 */
export async function composeServices(
  settings: StorageSettings,
  schema: SchemaPolicy = 'migrate',
): Promise<CoreServices> {
  const { store, database } = await openStoreOn(storeConfig(settings), schema);
  return { store, database, ids: createUlidIds(), clock: systemClock, secrets: keySecrets };
}
