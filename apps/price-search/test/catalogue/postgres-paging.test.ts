import { createPostgresTestDatabase } from '@drawdown/testkit';
import pg from 'pg';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import type { CatalogueHit, CatalogueQuery } from '../../src/catalogue/catalogue.js';
import type { CatalogueItem } from '../../src/catalogue/feed/feed-record.js';
import { PostgresCatalogue } from '../../src/catalogue/postgres-catalogue.js';
import { kettleOffer } from '../support/catalogue-engines.js';

const kettles = (sort: CatalogueQuery['sort']): CatalogueQuery => ({
  terms: ['smeg', 'kettle'],
  networks: ['argos_uk'],
  minPence: undefined,
  maxPence: undefined,
  condition: undefined,
  sort,
  limit: 3,
});

/** A catalogue of `items` in a fresh database, closed and dropped when the test finishes. */
async function catalogueOf(items: readonly CatalogueItem[]): Promise<PostgresCatalogue> {
  const database = await createPostgresTestDatabase();
  onTestFinished(() => database.drop());
  const catalogue = await PostgresCatalogue.open(database.url, { maxConnections: 2 });
  onTestFinished(() => catalogue.close());
  await catalogue.upsert(items);
  return catalogue;
}

/**
 * The query's hits and the ranked queries it sent. Asked twice: probes are answered once and kept, so the second
 * lookup runs only ranked queries.
 */
async function rankedQueriesOf(
  catalogue: PostgresCatalogue,
  query: CatalogueQuery,
): Promise<{ hits: CatalogueHit[]; selects: number }> {
  await catalogue.search(query);
  const spy = vi.spyOn(pg.Pool.prototype, 'query');
  onTestFinished(() => spy.mockRestore());
  const hits = await catalogue.search(query);
  // A ranked query reads the listings' product keys (relevance orders its rows in the ranking rule, ADR 0235;
  // cheapest first in SQL).
  const selects = spy.mock.calls.filter(([sql]) => String(sql).includes('AS "productKey"')).length;
  spy.mockRestore();
  return { hits, selects };
}

describe('PostgresCatalogue ranked query (ADR 0219)', () => {
  it('reads a page and its lookahead in one query, with the same products and offer counts', async () => {
    // 450 offers of five products ("Smeg Kettle 0" to "4"), cheapest first in turn: offer i is of product i % 5.
    const catalogue = await catalogueOf(Array.from({ length: 450 }, (_, index) => kettleOffer(index, index % 5)));
    const byRelevance = await rankedQueriesOf(catalogue, kettles('relevance'));
    expect(byRelevance.selects).toBe(1);
    expect(byRelevance.hits).toHaveLength(3);
    const cheapest = await rankedQueriesOf(catalogue, kettles('price_asc'));
    expect(cheapest.selects).toBe(1);
    // Cheapest first: the products of the first page, their offers counted among the rows up to the one that
    // filled the page (the third) and 50 more, as on SQLite (ADR 0231): 11 of each product's 90. By relevance the
    // rows are the candidate window's (ADR 0220), whichever the scan finds first, read whole.
    expect(cheapest.hits.map((hit) => [hit.title, hit.pricePence, hit.offers])).toEqual([
      ['Smeg Kettle 0', 1000, 11],
      ['Smeg Kettle 1', 1001, 11],
      ['Smeg Kettle 2', 1002, 11],
    ]);
  });

  it('reads on when the page fills late, up to the row that fills it and 50 more (ADR 0231)', async () => {
    // The 390 cheapest offers are of two products; the next ones of three more, in turn.
    const catalogue = await catalogueOf(
      Array.from({ length: 600 }, (_, index) => kettleOffer(index, index < 390 ? index % 2 : 2 + (index % 3))),
    );
    const { hits, selects } = await rankedQueriesOf(catalogue, kettles('price_asc'));
    // The page fills at the 391st row, so rows up to the 441st are read: 400 in the first query, then one more.
    expect(selects).toBe(2);
    expect(hits.map((hit) => [hit.title, hit.pricePence, hit.offers])).toEqual([
      ['Smeg Kettle 0', 1000, 195],
      ['Smeg Kettle 1', 1001, 195],
      ['Smeg Kettle 2', 1390, 17],
    ]);
  });
});
