import { createPostgresTestDatabase } from '@drawdown/testkit';
import pg from 'pg';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import type { CatalogueItem } from '../../src/catalogue/feed/feed-record.js';
import { PostgresCatalogue } from '../../src/catalogue/postgres-catalogue.js';
import { kettleOffer } from '../support/catalogue-engines.js';

// 450 offers of five products ("Smeg Kettle 0" to "4"), cheapest first in turn: offer i is of product i % 5.
const offer = (index: number): CatalogueItem => kettleOffer(index, index % 5);

describe('PostgresCatalogue ranked query (ADR 0219)', () => {
  it('reads the first two pages of rows in one query, with the same products and offer counts', async () => {
    const database = await createPostgresTestDatabase();
    onTestFinished(() => database.drop());
    const catalogue = await PostgresCatalogue.open(database.url, { maxConnections: 2 });
    onTestFinished(() => catalogue.close());
    await catalogue.upsert(Array.from({ length: 450 }, (_, index) => offer(index)));
    const query = {
      terms: ['smeg', 'kettle'],
      networks: ['argos_uk'] as const,
      minPence: undefined,
      maxPence: undefined,
      condition: undefined,
      limit: 3,
    };
    for (const sort of ['relevance', 'price_asc'] as const) {
      // Probes are answered once and kept: a second lookup runs only the ranked query.
      await catalogue.search({ ...query, sort });
      const spy = vi.spyOn(pg.Pool.prototype, 'query');
      onTestFinished(() => spy.mockRestore());
      const hits = await catalogue.search({ ...query, sort });
      const selects = spy.mock.calls.filter(([sql]) => String(sql).includes('ORDER BY'));
      spy.mockRestore();
      expect(selects).toHaveLength(1);
      expect(hits).toHaveLength(3);
      if (sort === 'relevance') continue;
      // Cheapest first: the products of the first page, each offer among the first 400 rows counted (80 of each
      // product's 90). By relevance the rows are the candidate window's (ADR 0220), whichever the scan finds first.
      expect(hits.map((hit) => [hit.title, hit.pricePence, hit.offers])).toEqual([
        ['Smeg Kettle 0', 1000, 80],
        ['Smeg Kettle 1', 1001, 80],
        ['Smeg Kettle 2', 1002, 80],
      ]);
    }
  });
});
