// The PostgreSQL catalogue's full-text indexes of used and of refurbished listings (ADR 0234): a lookup filtered
// to one of those conditions reads its own index, and answers exactly as through the index of every listing.
import { createPostgresTestDatabase } from '@drawdown/testkit';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { CatalogueQuery } from '../../src/catalogue/catalogue.js';
import type { CatalogueItem } from '../../src/catalogue/feed/feed-record.js';
import { PostgresCatalogue } from '../../src/catalogue/postgres-catalogue.js';
import type { Condition } from '../../src/listing/listing.js';
import type { Pence } from '../../src/money/pence.js';
import { queryDatabase } from '../support/catalogue-engines.js';

const CONDITIONS: Condition[] = ['new', 'new', 'new', 'new', 'used', 'refurbished'];

// 1,200 kettles of 12 products over the three conditions (used and refurbished each 200), so that a lookup
// filtered to one of them fills a 150-listing window, then ranks.
function kettles(): CatalogueItem[] {
  return Array.from({ length: 1_200 }, (_, index) => ({
    itemId: `kettle-${index}`,
    network: index % 2 === 0 ? 'argos_uk' : 'currys_uk',
    title: `Acme Kettle ${index % 12} ${index % 5 === 0 ? 'Rapid Boil' : 'Classic'}`,
    brand: 'Acme',
    category: 'Kettles',
    url: `https://shop.example.co.uk/product/${index}`,
    pricePence: (2_000 + ((index * 37) % 900)) as Pence,
    condition: CONDITIONS[index % CONDITIONS.length] as Condition,
    availability: 'in_stock',
  }));
}

const query = (condition: Condition, overrides: Partial<CatalogueQuery> = {}): CatalogueQuery => ({
  terms: ['acme', 'kettle'],
  networks: ['argos_uk', 'currys_uk'],
  minPence: undefined,
  maxPence: undefined,
  condition,
  sort: 'relevance',
  limit: 5,
  ...overrides,
});

const QUERIES: CatalogueQuery[] = (['used', 'refurbished', 'new'] as const).flatMap((condition) => [
  query(condition),
  query(condition, { terms: ['kettle', 'rapid'], limit: 8 }),
  query(condition, { maxPence: 2_500 as Pence }),
  query(condition, { sort: 'price_asc' }),
]);

async function scansOf(url: string, index: string): Promise<number> {
  const [row] = await queryDatabase<{ scans: string }>(
    url,
    `SELECT idx_scan AS scans FROM pg_stat_user_indexes WHERE indexrelname = '${index}'`,
  );
  return Number(row?.scans ?? 0);
}

describe('PostgresCatalogue condition indexes (ADR 0234)', () => {
  it('reads the used and the refurbished listings through their own indexes, with the same answers', async () => {
    const database = await createPostgresTestDatabase();
    onTestFinished(() => database.drop());
    const open = () => PostgresCatalogue.open(database.url, { maxConnections: 2 });

    // Written, then closed: closing waits for the statistics and index merge the first lookup starts, so that
    // every lookup below is planned on the same statistics.
    const writer = await open();
    await writer.upsert(kettles());
    await writer.search(query('new'));
    await writer.close();

    const catalogue = await open();
    const answers = [];
    for (const lookup of QUERIES) answers.push(await catalogue.search(lookup));
    // Closing ends the connections, which reports their index statistics.
    await catalogue.close();
    expect(await scansOf(database.url, 'catalogue_listings_document_used')).toBeGreaterThan(0);
    expect(await scansOf(database.url, 'catalogue_listings_document_refurbished')).toBeGreaterThan(0);
    expect(answers.flat().length).toBeGreaterThan(40);

    // Without them (dropped after opening, which creates them), every lookup goes through the index of every
    // listing: the same answers.
    const without = await open();
    try {
      await queryDatabase(
        database.url,
        'DROP INDEX catalogue_listings_document_used, catalogue_listings_document_refurbished',
      );
      for (const [index, lookup] of QUERIES.entries()) expect(await without.search(lookup)).toEqual(answers[index]);
    } finally {
      await without.close();
    }
  });
});
