import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import type { CatalogueQuery } from '../../src/catalogue/catalogue.js';
import { CatalogueStore } from '../../src/catalogue/catalogue-store.js';
import type { CatalogueItem } from '../../src/catalogue/feed/feed-record.js';
import { composeService } from '../../src/compose-service.js';
import type { Condition } from '../../src/listing/listing.js';
import { NETWORKS, type NetworkId } from '../../src/listing/networks.js';
import type { Pence } from '../../src/money/pence.js';
import { parseQuery } from '../../src/query/parse-query.js';
import { kettleOffer } from '../support/catalogue-engines.js';

// A catalogue shaped like a real one, from a fixed seed: product families with several offers each across
// networks, conditions and prices, accessories, out-of-stock offers, a GTIN on some (grouping offers whose
// titles differ), and one word ("deal") on more than 2,000 in-stock listings so that cheapest-first takes the
// price walk (ADR 0225).
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const BRANDS = ['Sony', 'Samsung', 'Bosch', 'Makita', 'Lego'];
const KINDS = ['Headphones', 'Television', 'Drill', 'Kettle', 'Starter Set'];
const COLOURS = ['Black', 'Silver', 'Red', 'Blue'];
const CONDITIONS: Condition[] = ['new', 'new', 'new', 'used', 'refurbished'];

function catalogue(): CatalogueItem[] {
  const random = seededRandom(17);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;
  const items: CatalogueItem[] = [];
  for (let index = 0; index < 4_000; index += 1) {
    const brand = pick(BRANDS);
    const kind = pick(KINDS);
    const model = 1 + Math.floor(random() * 6);
    const accessory = random() < 0.12;
    const title = accessory
      ? `Case for ${brand} ${kind} ${model}`
      : `${brand} ${kind} ${model} ${pick(COLOURS)}${random() < 0.8 ? ' Deal' : ''}`;
    items.push({
      itemId: `item-${index}`,
      network: pick(NETWORKS),
      title,
      brand,
      category: accessory ? 'Accessories' : kind,
      url: `https://shop.example.co.uk/product/${index}`,
      // A few equal prices on purpose, so the order of equal prices is checked too.
      pricePence: (500 + Math.floor(random() * 400) * 250) as Pence,
      condition: pick(CONDITIONS),
      availability: random() < 0.9 ? 'in_stock' : 'out_of_stock',
      ...(random() < 0.2 ? { gtin: `50000000000${model}${brand.length}` } : {}),
    });
  }
  // A window of candidates (ADR 0220) filled with offers of two products, four more products after it.
  const cable = (index: number, colour: string): CatalogueItem => ({
    itemId: `cable-${index}`,
    network: 'argos_uk',
    title: `Acme Braided Cable ${colour}`,
    brand: 'Acme',
    category: 'Cables',
    url: `https://argos.example.co.uk/product/cable-${index}`,
    pricePence: (1000 + index) as Pence,
    condition: 'new',
    availability: 'in_stock',
  });
  for (let index = 0; index < 170; index += 1) items.push(cable(index, index % 2 === 0 ? 'Red' : 'Blue'));
  for (const [offset, colour] of ['Green', 'White', 'Black', 'Grey'].entries()) items.push(cable(200 + offset, colour));
  return items;
}

function cases(): CatalogueQuery[] {
  const termSets = [
    ['sony'],
    ['deal'],
    ['samsung', 'television'],
    ['bosch', 'drill', '3'],
    ['case', 'makita'],
    ['lego', 'starter', 'set', 'red'],
    ['kettle', 'blue', 'deal'],
    ['headphones', 'silver'],
    ['sony', 'television', 'gift', 'boxed'],
    ['braided', 'cable'],
  ];
  const budgets: Array<[number | undefined, number | undefined]> = [
    [undefined, undefined],
    [undefined, 20_000],
    [30_000, 60_000],
    [100_000, undefined],
  ];
  const networkSets: NetworkId[][] = [[...NETWORKS], ['argos_uk', 'ebay_uk'], ['amazon_uk', 'currys_uk']];
  const all: CatalogueQuery[] = [];
  for (const terms of termSets)
    for (const [minPence, maxPence] of budgets)
      for (const condition of [undefined, 'new', 'used'] as const)
        for (const sort of ['relevance', 'price_asc'] as const)
          for (const [index, limit] of [1, 5, 40].entries())
            all.push({
              terms,
              networks: networkSets[(index + terms.length) % networkSets.length] as NetworkId[],
              minPence: minPence as Pence | undefined,
              maxPence: maxPence as Pence | undefined,
              condition,
              sort,
              limit,
            });
  return all;
}

describe('lookups on the listing facts (ADR 0225)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'price-search-facts-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answer every lookup exactly as the lookup in SQL does', async () => {
    const path = join(dir, 'equivalence.db');
    const writer = CatalogueStore.open(path, { listingFacts: false });
    writer.upsert(catalogue());
    const inSql = CatalogueStore.open(path, { listingFacts: false });
    const onFacts = CatalogueStore.open(path);
    onFacts.prepare();
    try {
      const all = cases();
      let answered = 0;
      for (const query of all) {
        const expected = await inSql.search(query);
        expect(await onFacts.search(query), JSON.stringify(query)).toEqual(expected);
        if (expected.length > 0) answered += 1;
      }
      // Most cases find something, and none was answered in SQL by the facts store.
      expect(answered).toBeGreaterThan(all.length / 2);
      expect(inSql.lookupsOnFacts).toBe(0);
      expect(onFacts.lookupsOnFacts).toBeGreaterThanOrEqual(all.length);
    } finally {
      for (const store of [writer, inSql, onFacts]) store.close();
    }
  });

  const kettle = (
    index: number,
    pricePence: number,
    availability: CatalogueItem['availability'] = 'in_stock',
  ): CatalogueItem => ({ ...kettleOffer(index), pricePence: pricePence as Pence, availability });
  const underFifty = {
    terms: ['smeg', 'kettle'],
    networks: ['argos_uk'],
    minPence: undefined,
    maxPence: 5_000 as Pence,
    condition: undefined,
    sort: 'relevance',
    limit: 5,
  } as const;

  // Another process (`price-search import` beside a running server) changes prices and stock and adds a
  // listing. Facts read before would still exclude kettle 2 (£60 then) and not know kettle 4: both must show.
  it.each([
    { rebuild: 'rebuilt at once', spacing: 0, onFacts: 1 },
    { rebuild: 'not rebuilt yet (an import is writing)', spacing: Number.POSITIVE_INFINITY, onFacts: 0 },
  ])('see what another process writes, the facts $rebuild', async ({ spacing, onFacts }) => {
    const path = join(dir, `other-writer-${spacing}.db`);
    const reader = CatalogueStore.open(path, { rebuildSpacing: spacing });
    const other = CatalogueStore.open(path);
    try {
      other.upsert([kettle(1, 4_000), kettle(2, 6_000)]);
      reader.prepare();
      const titles = async () => (await reader.search(underFifty)).map((hit) => hit.title);
      expect(await titles()).toEqual(['Smeg Kettle 1']);
      expect(reader.lookupsOnFacts).toBe(1);
      const stamp = reader.cacheStamp();

      other.upsert([kettle(1, 7_000), kettle(2, 4_500), kettle(3, 3_000, 'out_of_stock'), kettle(4, 2_000)]);
      expect(await titles()).toEqual(['Smeg Kettle 4', 'Smeg Kettle 2']);
      // Results cached under the old stamp are no longer served (the stamp reads the data version at most every
      // 100 ms; a computed lookup always reads it).
      expect(reader.cacheStamp()).not.toBe(stamp);
      expect(reader.lookupsOnFacts).toBe(1 + onFacts);

      // A word only the other process's listings have: corrected once the vocabulary is rebuilt (while it is
      // not, the lookup finds nothing, as before the write).
      other.upsert([{ ...kettle(5, 3_500), itemId: 'toaster-5', title: 'Dualit Toaster', category: 'Toasters' }]);
      const toasters = await reader.search({ ...underFifty, terms: ['toastre'] });
      expect(toasters.map((hit) => hit.title)).toEqual(onFacts === 1 ? ['Dualit Toaster'] : []);
    } finally {
      reader.close();
      other.close();
    }
  });

  it('answer exactly as in SQL when offers that came and went left the rowids sparse', async () => {
    const path = join(dir, 'sparse.db');
    const writer = CatalogueStore.open(path, { listingFacts: false });
    const items = catalogue();
    // A feed's first run lists every offer; its second lists one in forty, and the rest expire.
    writer.upsert(items, { feedId: 'feed', run: 1 });
    const kept = items.filter((_, index) => index % 40 === 0);
    writer.upsert(kept, { feedId: 'feed', run: 2 });
    expect(writer.expireFeed('feed', 2)).toBe(items.length - kept.length);
    writer.upsert([kettle(90_001, 4_000), kettle(90_002, 2_500)]);
    const inSql = CatalogueStore.open(path, { listingFacts: false });
    const onFacts = CatalogueStore.open(path);
    onFacts.prepare();
    try {
      let answered = 0;
      for (const query of [...cases(), { ...underFifty, networks: [...NETWORKS] }]) {
        const expected = await inSql.search(query);
        expect(await onFacts.search(query), JSON.stringify(query)).toEqual(expected);
        if (expected.length > 0) answered += 1;
      }
      expect(answered).toBeGreaterThan(100);
      expect(onFacts.lookupsOnFacts).toBeGreaterThan(cases().length);
    } finally {
      for (const store of [writer, inSql, onFacts]) store.close();
    }
  });

  it('are prepared after the full-text index is merged into one segment (ADR 0226)', () => {
    const path = join(dir, 'segments.db');
    const store = CatalogueStore.open(path);
    try {
      // Each transaction's rows become a segment of the index until FTS5 merges them.
      for (let batch = 0; batch < 6; batch += 1) {
        store.upsert(Array.from({ length: 20 }, (_, index) => kettle(batch * 20 + index, 2_000 + index)));
      }
      const segments = new Database(path, { readonly: true });
      const count = () => segments.prepare('SELECT count(DISTINCT segid) FROM listings_fts_idx').pluck().get();
      try {
        expect(count()).toBeGreaterThan(1);
        store.prepare();
        expect(count()).toBe(1);
      } finally {
        segments.close();
      }
    } finally {
      store.close();
    }
  });

  it('are prepared while another process holds the write lock, the index left unmerged', async () => {
    const path = join(dir, 'locked.db');
    const store = CatalogueStore.open(path);
    const other = new Database(path);
    try {
      store.upsert([kettle(1, 4_000)]);
      other.exec('BEGIN IMMEDIATE');
      store.prepare();
      expect((await store.search(underFifty)).map((hit) => hit.title)).toEqual(['Smeg Kettle 1']);
      expect(store.lookupsOnFacts).toBe(1);
    } finally {
      other.exec('ROLLBACK');
      other.close();
      store.close();
    }
  });

  it('answer in SQL when another process writes between noticing changes and reading the listings', async () => {
    const path = join(dir, 'race.db');
    const reader = CatalogueStore.open(path);
    const other = CatalogueStore.open(path);
    try {
      other.upsert([kettle(1, 4_000), kettle(2, 6_000)]);
      reader.prepare();
      // The lookup notices other writers when it starts and reads the listings after a turn of the event loop's
      // microtasks: the write lands in between, so the facts it holds are stale without its knowing.
      const pending = reader.search(underFifty);
      other.upsert([kettle(1, 7_000), kettle(2, 4_500), kettle(4, 2_000)]);
      expect((await pending).map((hit) => [hit.title, hit.pricePence])).toEqual([
        ['Smeg Kettle 4', 2_000],
        ['Smeg Kettle 2', 4_500],
      ]);
      expect(reader.lookupsOnFacts).toBe(0);
    } finally {
      reader.close();
      other.close();
    }
  });
});

describe('a running service and an import by another process', () => {
  it('answers from the import within a tenth of a second, cached answers included', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'price-search-import-beside-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'catalogue.db');
    const importer = CatalogueStore.open(path);
    importer.upsert([{ ...kettleOffer(1), pricePence: 4_000 as Pence }]);
    const service = await composeService({ cataloguePath: path, statePath: ':memory:', demoFeed: false });
    onTestFinished(async () => {
      await service.close();
      importer.close();
    });
    const lookup = async () =>
      (
        await service.deps.engine.search({
          parsed: parseQuery('smeg kettle under £50'),
          networks: NETWORKS,
          maxResults: 5,
        })
      ).listings.map((listing) => listing.product);
    expect(await lookup()).toEqual(['Smeg Kettle 1']);
    expect(service.deps.engine.cachedLookups).toBe(1);

    importer.upsert([{ ...kettleOffer(2), pricePence: 2_000 as Pence }]);
    // The cache's stamp reads the catalogue's data version at most every 100 ms.
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await lookup()).toEqual(['Smeg Kettle 2', 'Smeg Kettle 1']);
  });
});
