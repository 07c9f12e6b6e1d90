import { createPostgresTestDatabase } from '@drawdown/testkit';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { CatalogueItem } from '../../src/catalogue/feed/feed-record.js';
import { PostgresCatalogue } from '../../src/catalogue/postgres-catalogue.js';
import { kettleOffer, queryDatabase } from '../support/catalogue-engines.js';

const item = (index: number): CatalogueItem => kettleOffer(index);

async function lastAnalyze(url: string): Promise<Date | null> {
  const [row] = await queryDatabase<{ at: Date | null }>(
    url,
    "SELECT last_analyze AS at FROM pg_stat_user_tables WHERE relname = 'catalogue_listings'",
  );
  return row?.at ?? null;
}

describe('PostgresCatalogue planner statistics (ADR 0216)', () => {
  it('analyzes the listings after writes, on the next lookup, before closing', async () => {
    const database = await createPostgresTestDatabase();
    onTestFinished(() => database.drop());
    const catalogue = await PostgresCatalogue.open(database.url, { maxConnections: 2 });
    await catalogue.upsert(Array.from({ length: 20 }, (_, index) => item(index)));
    const query = {
      terms: ['kettle'],
      networks: ['argos_uk'] as const,
      minPence: undefined,
      maxPence: undefined,
      condition: undefined,
      sort: 'relevance' as const,
      limit: 3,
    };
    expect(await lastAnalyze(database.url)).toBeNull();
    expect(await catalogue.search(query)).toHaveLength(3);
    // close() waits for the background work, the ANALYZE included.
    await catalogue.close();
    expect(await lastAnalyze(database.url)).toBeInstanceOf(Date);
  });

  it('merges the full-text indexes’ pending lists after writes, on the next lookup (ADRs 0221, 0234)', async () => {
    const database = await createPostgresTestDatabase();
    onTestFinished(() => database.drop());
    const catalogue = await PostgresCatalogue.open(database.url, { maxConnections: 2 });
    const conditions = ['new', 'used', 'refurbished'] as const;
    await catalogue.upsert(
      Array.from({ length: 300 }, (_, index) => ({ ...item(index), condition: conditions[index % 3] ?? 'new' })),
    );
    await catalogue.search({
      terms: ['kettle'],
      networks: ['argos_uk'],
      minPence: undefined,
      maxPence: undefined,
      condition: undefined,
      sort: 'relevance',
      limit: 3,
    });
    await catalogue.close();
    // Nothing left to merge: the pages the writes added to each pending list were merged already.
    const merged = await queryDatabase<{ name: string; pages: string }>(
      database.url,
      `SELECT name, gin_clean_pending_list(name::regclass) AS pages FROM unnest(ARRAY['catalogue_listings_document',
        'catalogue_listings_document_used', 'catalogue_listings_document_refurbished']) AS name`,
    );
    expect(merged.map(({ name, pages }) => [name, Number(pages)])).toEqual([
      ['catalogue_listings_document', 0],
      ['catalogue_listings_document_used', 0],
      ['catalogue_listings_document_refurbished', 0],
    ]);
  });
});
