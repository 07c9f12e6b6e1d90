import { createPostgresTestDatabase, ENGINES, type Engine } from '@drawdown/testkit';
import { onTestFinished } from 'vitest';
import type { Catalogue } from '../../src/catalogue/catalogue.js';
import { CatalogueStore } from '../../src/catalogue/catalogue-store.js';
import { PostgresCatalogue } from '../../src/catalogue/postgres-catalogue.js';

export { ENGINES, type Engine };

/**
 * Where a catalogue lives for a test: `:memory:` for SQLite, a fresh PostgreSQL database for postgres. The
 * database is dropped by the returned cleanup.
 */
export async function catalogueLocation(engine: Engine): Promise<{ location: string; drop(): Promise<void> }> {
  if (engine === 'sqlite') return { location: ':memory:', drop: async () => {} };
  const database = await createPostgresTestDatabase();
  return { location: database.url, drop: () => database.drop() };
}

/** An empty catalogue on `engine`, closed (and its database dropped) when the test finishes. */
export async function openTestCatalogue(engine: Engine): Promise<Catalogue> {
  if (engine === 'sqlite') {
    const store = CatalogueStore.open(':memory:');
    onTestFinished(() => store.close());
    return store;
  }
  const database = await createPostgresTestDatabase();
  const catalogue = await PostgresCatalogue.open(database.url, { maxConnections: 2 });
  onTestFinished(async () => {
    await catalogue.close();
    await database.drop();
  });
  return catalogue;
}
