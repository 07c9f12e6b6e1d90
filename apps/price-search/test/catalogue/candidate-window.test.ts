import { describe, expect, it } from 'vitest';
import { CANDIDATE_CAP, type CatalogueQuery } from '../../src/catalogue/catalogue.js';
import type { CatalogueItem } from '../../src/catalogue/feed/feed-record.js';
import type { Pence } from '../../src/money/pence.js';
import { ENGINES, openTestCatalogue } from '../support/catalogue-engines.js';

const item = (index: number, title: string, category = 'Cables'): CatalogueItem => ({
  itemId: `item-${index}`,
  network: 'argos_uk',
  title,
  brand: 'Acme',
  category,
  url: `https://argos.example.co.uk/product/${index}`,
  pricePence: (1000 + index) as Pence,
  condition: 'new',
  availability: 'in_stock',
});

const query = (terms: string[], limit: number): CatalogueQuery => ({
  terms,
  networks: ['argos_uk'],
  minPence: undefined,
  maxPence: undefined,
  condition: undefined,
  sort: 'relevance',
  limit,
});

describe.each(ENGINES)('the candidate window on %s (ADR 0220)', (engine) => {
  it('ranks every match when a full window holds fewer products than the page needs', async () => {
    const catalogue = await openTestCatalogue(engine);
    // The window is filled with offers of two products; four more products come after it.
    const items = Array.from({ length: CANDIDATE_CAP + 20 }, (_, index) =>
      item(index, index % 2 === 0 ? 'Acme Braided Cable Red' : 'Acme Braided Cable Blue'),
    );
    for (const [offset, colour] of ['Green', 'White', 'Black', 'Grey'].entries()) {
      items.push(item(CANDIDATE_CAP + 100 + offset, `Acme Braided Cable ${colour}`));
    }
    await catalogue.upsert(items);
    const hits = await catalogue.search(query(['braided', 'cable'], 5));
    expect(hits).toHaveLength(5);
    expect(hits.map((hit) => hit.title)).toEqual(
      expect.arrayContaining(['Acme Braided Cable Red', 'Acme Braided Cable Blue']),
    );
  });
});
