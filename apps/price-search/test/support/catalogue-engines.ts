import { createPostgresTestDatabase, ENGINES, type Engine } from '@drawdown/testkit';
import pg from 'pg';
import { onTestFinished } from 'vitest';
import type { Catalogue } from '../../src/catalogue/catalogue.js';
import { CatalogueStore } from '../../src/catalogue/catalogue-store.js';
import type { CatalogueItem } from '../../src/catalogue/feed/feed-record.js';
import { PostgresCatalogue } from '../../src/catalogue/postgres-catalogue.js';
import type { Pence } from '../../src/money/pence.js';

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

/** The rows of one statement, asked on a connection of its own to the database of `url` (a check from outside). */
export async function queryDatabase<Row extends Record<string, unknown>>(url: string, sql: string): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(sql)).rows;
  } finally {
    await client.end();
  }
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

/**
 * Offer `index` of a catalogue of Smeg kettles on argos_uk: `Smeg Kettle <product>` (the product defaults to the
 * offer's own index), priced 1,000 + index pence, new and in stock.
 */
export function kettleOffer(index: number, product: number = index): CatalogueItem {
  return {
    itemId: `item-${index}`,
    network: 'argos_uk',
    title: `Smeg Kettle ${product}`,
    brand: 'Smeg',
    category: 'Kettles',
    url: `https://argos.example.co.uk/product/${index}`,
    pricePence: (1000 + index) as Pence,
    condition: 'new',
    availability: 'in_stock',
  };
}
