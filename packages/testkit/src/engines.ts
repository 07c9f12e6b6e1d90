/**
 * @module
 * Both storage engines, for suites that must hold on each: `describe.each(ENGINES)`.
 * TEST_ENGINES=sqlite (or postgres) narrows a local run; CI runs both.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store } from '@drawdown/billing-core';
import { openStore, type StoreConfig } from '@drawdown/billing-store';
import { createPostgresTestDatabase } from './test-database.js';

export type Engine = 'sqlite' | 'postgres';

export const ENGINES: readonly Engine[] = (process.env.TEST_ENGINES?.split(',') as Engine[] | undefined) ?? [
  'sqlite',
  'postgres',
];

/** Where a test's data lives, and how to throw it away afterwards. */
export interface TestStorage {
  readonly dataDir: string;
  readonly databaseUrl: string | undefined;
  dispose(): Promise<void>;
}

/**
 * A data folder, and on PostgreSQL a database of its own: empty, or with `migrated` a copy of the
 * run's migrated template (for a test that opens it with migrations applied anyway: the harness,
 * `openTestStore`). SQLite's file is made by the service in the folder, migrated on opening.
 */
export async function createTestStorage(
  engine: Engine,
  options: { readonly migrated?: boolean } = {},
): Promise<TestStorage> {
  const dataDir = mkdtempSync(join(tmpdir(), 'drawdown-test-'));
  if (engine === 'sqlite') {
    return { dataDir, databaseUrl: undefined, dispose: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const database = await createPostgresTestDatabase({ migrated: options.migrated ?? false });
  return {
    dataDir,
    databaseUrl: database.url,
    // The database is dropped in the background (0.2-0.6 s each on a loaded machine, some hundred
    // a run): nothing waits on it, a failed drop harms no test, and the run's teardown drops any
    // that a worker's end cut short (they are named with the run's tag).
    dispose: async () => {
      database.drop().catch(() => {});
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * How to open a test's database: its PostgreSQL database, or the SQLite file in its data
 * directory (where a harness's service keeps it). `maxConnections` only bounds a PostgreSQL pool.
 */
export function storeConfigOf(
  storage: { readonly dataDir: string; readonly databaseUrl?: string | undefined },
  options: { readonly maxConnections?: number } = {},
): StoreConfig {
  return storage.databaseUrl
    ? { engine: 'postgres', url: storage.databaseUrl, ...options }
    : { engine: 'sqlite', file: join(storage.dataDir, 'drawdown.sqlite') };
}

/** A migrated store on a fresh database of the engine. */
export async function openTestStore(engine: Engine): Promise<{ store: Store; dispose(): Promise<void> }> {
  const storage = await createTestStorage(engine, { migrated: true });
  const store = await openStore(storeConfigOf(storage));
  return {
    store,
    dispose: async () => {
      await store.close();
      await storage.dispose();
    },
  };
}
