import { describe, expect, it, onTestFinished } from 'vitest';
import { CANDIDATE_CAP, type CatalogueQuery, CatalogueStore } from '../../src/catalogue/catalogue-store.js';
import type { CatalogueItem } from '../../src/catalogue/feed/feed-record.js';
import type { Pence } from '../../src/money/pence.js';

function openStore(items: CatalogueItem[]): CatalogueStore {
  const store = CatalogueStore.open(':memory:');
  onTestFinished(() => store.close());
  store.upsert(items);
  return store;
}

const item = (
  index: number,
  title: string,
  pricePence: number,
  overrides: Partial<CatalogueItem> = {},
): CatalogueItem => ({
  itemId: `item-${index}`,
  network: 'argos_uk',
  title,
  brand: '',
  category: '',
  url: `https://argos.example.co.uk/product/${index}`,
  pricePence: pricePence as Pence,
  condition: 'new',
  availability: 'in_stock',
  ...overrides,
});

const query = (terms: string[], overrides: Partial<CatalogueQuery> = {}): CatalogueQuery => ({
  terms,
  networks: ['argos_uk'],
  minPence: undefined,
  maxPence: undefined,
  condition: undefined,
  sort: 'relevance',
  limit: 5,
  ...overrides,
});

describe('CatalogueStore.search', () => {
  it('does not relax the words when listings match them but the budget excludes them', async () => {
    const store = openStore([
      item(1, 'Smeg KLF03 Kettle Cream', 14995),
      item(2, 'Russell Hobbs Glass Kettle', 2999, { brand: 'Russell Hobbs' }),
    ]);
    expect(await store.search(query(['smeg', 'klf03', 'kettle'], { maxPence: 5000 as Pence }))).toEqual([]);
  });

  it('asks its "does anything match" probes again after a write (their answers are kept between lookups)', async () => {
    const store = openStore([
      item(1, 'Nintendo Switch Pro Controller', 5500, { category: 'Video Games > Accessories' }),
    ]);
    // Only an accessory has the words: nothing is demoted; "oled", unknown, may name the product asked for, so it
    // is not dropped (issue 38: no substitute) and nothing answers.
    expect((await store.search(query(['nintendo', 'switch']))).map((hit) => hit.title)).toEqual([
      'Nintendo Switch Pro Controller',
    ]);
    expect((await store.search(query(['nintendo', 'switch', 'oled']))).map((hit) => hit.title)).toEqual([]);
    store.upsert([item(2, 'Nintendo Switch OLED Model White', 27895, { category: 'Video Games > Consoles' })]);
    // The console now names the product, so the controller goes after it; "oled" now matches.
    expect((await store.search(query(['nintendo', 'switch']))).map((hit) => hit.title)).toEqual([
      'Nintendo Switch OLED Model White',
      'Nintendo Switch Pro Controller',
    ]);
    expect((await store.search(query(['nintendo', 'switch', 'oled']))).map((hit) => hit.title)).toEqual([
      'Nintendo Switch OLED Model White',
    ]);
  });

  it('relaxes one word in another script when no listing matches all of them, never a Latin one', async () => {
    const store = openStore([item(1, 'Smeg KLF03 Kettle Cream', 14995)]);
    expect((await store.search(query(['黑色', 'smeg', 'kettle']))).map((hit) => hit.title)).toEqual([
      'Smeg KLF03 Kettle Cream',
    ]);
    expect(await store.search(query(['zzqx', 'smeg', 'kettle']))).toEqual([]);
  });

  describe(`a query matching more than ${CANDIDATE_CAP} listings`, () => {
    const broad = (): CatalogueStore => {
      // 800 listings (past the candidate window and past the 300 matches above which cheapest-first walks the
      // price index), two of them at 10.00.
      const items = Array.from({ length: Math.max(CANDIDATE_CAP, 300) + 500 }, (_, index) =>
        item(index, `Black Cable ${index}`, 1000 + (index % 700)),
      );
      // Past the candidate window: the only cheap one, and the only refurbished one.
      items.push(item(900_001, 'Black Cable Bargain', 99));
      items.push(item(900_002, 'Black Cable Refurbished', 5000, { condition: 'refurbished' }));
      return openStore(items);
    };

    it('still finds the cheapest listing exactly', async () => {
      const hits = await broad().search(query(['black', 'cable'], { sort: 'price_asc', limit: 3 }));
      expect(hits.map((hit) => hit.pricePence)).toEqual([99, 1000, 1000]);
    });

    it('ranks all matches when the filters leave too few in the candidate window', async () => {
      const hits = await broad().search(query(['black', 'cable'], { condition: 'refurbished' }));
      expect(hits.map((hit) => hit.title)).toEqual(['Black Cable Refurbished']);
    });

    it('returns a full page ranked within the candidate window', async () => {
      expect(await broad().search(query(['black']))).toHaveLength(5);
    });

    it(`scores only the first ${CANDIDATE_CAP} listings that pass the filters (ADR 0216)`, async () => {
      const store = broad();
      // The shortest title, so the best BM25 of all, but past the window: the window's own best comes first.
      store.upsert([item(900_003, 'Black Cable', 1500)]);
      const hits = await store.search(query(['black', 'cable'], { limit: 3 }));
      expect(hits).toHaveLength(3);
      expect(hits.map((hit) => hit.title)).not.toContain('Black Cable');
      // With a filter only it passes, it is the one candidate and is found.
      const cheap = await store.search(query(['black', 'cable'], { minPence: 1500 as Pence, maxPence: 1500 as Pence }));
      expect(cheap.map((hit) => hit.title)).toContain('Black Cable');
    });
  });
});
