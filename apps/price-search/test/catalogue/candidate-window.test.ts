import { describe, expect, it, onTestFinished } from 'vitest';
import { CANDIDATE_CAP, type Catalogue, type CatalogueQuery } from '../../src/catalogue/catalogue.js';
import { CatalogueStore } from '../../src/catalogue/catalogue-store.js';
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

/**
 * Three products (by GTIN), 40 used offers each with the words in the title (ranked first), then 5 new, cheaper
 * offers each that match by category only (ranked last): 135 candidates, one window, read whole; each product
 * shows its cheapest offer (ADR 0238), found at the window's end.
 */
async function expectWholeWindowRead(catalogue: Catalogue): Promise<void> {
  const colours = ['Red', 'Blue', 'Green'];
  const gtinOf = (product: number): string => `501234567890${product}`;
  const items: CatalogueItem[] = [];
  for (let index = 0; index < 120; index += 1) {
    const product = index % 3;
    items.push({ ...item(index, `Acme Braided Cable ${colours[product]}`), condition: 'used', gtin: gtinOf(product) });
  }
  for (let index = 120; index < 135; index += 1) {
    const product = index % 3;
    items.push({
      ...item(index, `Acme Lead ${colours[product]}`, 'Braided Cables'),
      pricePence: (500 + index) as Pence,
      gtin: gtinOf(product),
    });
  }
  await catalogue.upsert(items);
  const hits = await catalogue.search(query(['braided', 'cable'], 3));
  expect(hits.map((hit) => [hit.title, hit.condition, hit.pricePence, hit.offers])).toEqual([
    ['Acme Lead Red', 'new', 620, 45],
    ['Acme Lead Blue', 'new', 621, 45],
    ['Acme Lead Green', 'new', 622, 45],
  ]);
}

describe.each(ENGINES)('offers counted in the candidate window on %s (ADR 0231)', (engine) => {
  it("reads the whole window: each product's offers are counted among every candidate, its best offer shown", async () => {
    await expectWholeWindowRead(await openTestCatalogue(engine));
  });
});

describe('offers counted in the candidate window on sqlite without its listing facts (ADR 0231)', () => {
  it('reads the whole window in SQL too', async () => {
    const store = CatalogueStore.open(':memory:', { listingFacts: false });
    onTestFinished(() => store.close());
    await expectWholeWindowRead(store);
  });
});
