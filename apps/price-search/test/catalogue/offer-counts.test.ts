import { describe, expect, it } from 'vitest';
import type { CatalogueItem } from '../../src/catalogue/feed/feed-record.js';
import { ENGINES, kettleOffer, openTestCatalogue } from '../support/catalogue-engines.js';

// The 390 cheapest offers are of two products ("Smeg Kettle 0" and "1"); the next 210 of three more, in turn.
const offer = (index: number): CatalogueItem => kettleOffer(index, index < 390 ? index % 2 : 2 + (index % 3));

describe.each(ENGINES)('offer counts, cheapest first, on %s (ADR 0231)', (engine) => {
  it('counts the offers among the rows up to the one that fills the page and 50 more', async () => {
    const catalogue = await openTestCatalogue(engine);
    await catalogue.upsert(Array.from({ length: 600 }, (_, index) => offer(index)));
    const hits = await catalogue.search({
      terms: ['smeg', 'kettle'],
      networks: ['argos_uk'],
      minPence: undefined,
      maxPence: undefined,
      condition: undefined,
      sort: 'price_asc',
      limit: 3,
    });
    // The page fills at the 391st row: rows up to the 441st are read. Every offer of the first two products is
    // among them; 17 of the third's 70.
    expect(hits.map((hit) => [hit.title, hit.pricePence, hit.offers])).toEqual([
      ['Smeg Kettle 0', 1000, 195],
      ['Smeg Kettle 1', 1001, 195],
      ['Smeg Kettle 2', 1390, 17],
    ]);
  });
});
