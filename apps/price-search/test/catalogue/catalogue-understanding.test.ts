import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Catalogue } from '../../src/catalogue/catalogue.js';
import { type CatalogueQuery, CatalogueStore } from '../../src/catalogue/catalogue-store.js';
import type { CatalogueItem } from '../../src/catalogue/feed/feed-record.js';
import type { NetworkId } from '../../src/listing/networks.js';
import type { Pence } from '../../src/money/pence.js';
import { ENGINES, type Engine, openTestCatalogue } from '../support/catalogue-engines.js';

let engine: Engine = 'sqlite';

async function openStore(items: CatalogueItem[]): Promise<Catalogue> {
  const store = await openTestCatalogue(engine);
  await store.upsert(items);
  return store;
}

let next = 0;
const item = (title: string, pricePence: number, overrides: Partial<CatalogueItem> = {}): CatalogueItem => {
  next += 1;
  return {
    itemId: `item-${next}`,
    network: 'argos_uk',
    title,
    brand: '',
    category: '',
    url: `https://shop.example.co.uk/product/${next}`,
    pricePence: pricePence as Pence,
    condition: 'new',
    availability: 'in_stock',
    ...overrides,
  };
};

const ALL: NetworkId[] = ['amazon_uk', 'argos_uk', 'currys_uk', 'ebay_uk'];
const query = (terms: string[], overrides: Partial<CatalogueQuery> = {}): CatalogueQuery => ({
  terms,
  networks: ALL,
  minPence: undefined,
  maxPence: undefined,
  condition: undefined,
  sort: 'relevance',
  limit: 5,
  ...overrides,
});
const titles = async (store: Catalogue, terms: string[], overrides: Partial<CatalogueQuery> = {}) =>
  (await store.search(query(terms, overrides))).map((hit) => hit.title);

describe.each(ENGINES)('on %s', (current) => {
  beforeAll(() => {
    engine = current;
  });

  describe('catalogue query understanding', () => {
    it('corrects misspelt words to the most common catalogue word nearby, never a model number', async () => {
      const store = await openStore([
        item('Apple iPhone 16 128GB Black', 71900),
        item('Apple iPhone 15 128GB Blue', 59900),
      ]);
      expect(await titles(store, ['iphnoe', '16'])).toEqual(['Apple iPhone 16 128GB Black']);
      expect(await titles(store, ['iphone', '14'])).toEqual([]);
    });

    it('corrects a short word only to one that fits the rest of the query', async () => {
      const store = await openStore([item('Apple AirPods Pro (2nd generation)', 21999), item('Pop Up Toaster', 2999)]);
      expect(await titles(store, ['airpods', 'por'])).toEqual(['Apple AirPods Pro (2nd generation)']);
      expect(await titles(store, ['sofa'])).toEqual([]);
    });

    it('splits and joins words: airfryer, quiet comfort, smart watch', async () => {
      const store = await openStore([
        item('Ninja Air Fryer AF100UK', 8499),
        item('Bose QuietComfort Ultra Headphones', 41300),
        item('Garmin Forerunner 265 GPS Running Smartwatch', 29900),
      ]);
      expect(await titles(store, ['airfryer'])).toEqual(['Ninja Air Fryer AF100UK']);
      expect(await titles(store, ['quiet', 'comfort', 'ultra'])).toEqual(['Bose QuietComfort Ultra Headphones']);
      expect(await titles(store, ['garmin', 'smart', 'watch'])).toEqual([
        'Garmin Forerunner 265 GPS Running Smartwatch',
      ]);
    });

    it('matches model codes however they are spaced or hyphenated', async () => {
      const store = await openStore([
        item('Samsung Galaxy Z Flip6 256GB', 99900),
        item('Samsung Galaxy S24 Ultra 256GB', 109900),
        item('Sony WH-1000XM5 Headphones', 27900),
        item('Meta Quest 3S 128GB', 27500),
      ]);
      expect(await titles(store, ['galaxy', 'z', 'flip', '6'])).toEqual(['Samsung Galaxy Z Flip6 256GB']);
      expect(await titles(store, ['s24ultra'])).toEqual(['Samsung Galaxy S24 Ultra 256GB']);
      expect(await titles(store, ['wh1000xm5'])).toEqual(['Sony WH-1000XM5 Headphones']);
      expect(await titles(store, ['quest', '3'])).toEqual([]);
    });

    it('folds accents on both sides', async () => {
      const store = await openStore([
        item('Pokemon TCG Booster Box', 14999),
        item('Kärcher K4 Pressure Washer', 25900),
      ]);
      expect(await titles(store, ['pokémon'])).toEqual(['Pokemon TCG Booster Box']);
      expect(await titles(store, ['karcher'])).toEqual(['Kärcher K4 Pressure Washer']);
    });

    it('drops an unknown stray word in another script from three words on, never a Latin word or a known one', async () => {
      const store = await openStore([
        item('LEGO Icons Titanic 10294', 62999),
        item('LEGO Technic Lamborghini Sian FKP 37 42115', 36800),
        item('Apple MacBook Pro 14-inch M3', 179900),
      ]);
      expect(await titles(store, ['lego', 'titanic', '黑色'])).toEqual(['LEGO Icons Titanic 10294']);
      // An unknown Latin word may be the model asked for: no Lamborghini for a Bugatti (issue 38).
      expect(await titles(store, ['lego', 'technic', 'bugatti'])).toEqual([]);
      expect(await titles(store, ['iphone', '14', 'pro'])).toEqual([]);
    });

    it('makes usage words optional only when nothing has every word, never a product word or a brand', async () => {
      const store = await openStore([
        item('Sony WF-1000XM5 Noise Cancelling Earbuds Black', 22900, { category: 'Electronics > Headphones' }),
        item('JBL Wireless Speaker', 9900),
        item('Breville Curve Kettle 1.7L', 3999, { category: 'Home > Kettles' }),
        item('Apple MacBook Pro 14-inch M3', 179900),
        item('Ninja Air Fryer', 9999),
      ]);
      expect(await titles(store, ['wireless', 'earbuds'])).toEqual(['Sony WF-1000XM5 Noise Cancelling Earbuds Black']);
      expect(await titles(store, ['kettle', 'kitchen'])).toEqual(['Breville Curve Kettle 1.7L']);
      // Every word matched by something: the usage word stays required.
      expect(await titles(store, ['wireless', 'speaker'])).toEqual(['JBL Wireless Speaker']);
      // Not usage words: "macbook air" must not become air fryers, nor "sony kettle" another brand's kettle.
      expect(await titles(store, ['macbook', 'air'])).toEqual([]);
      expect(await titles(store, ['sony', 'kettle'])).toEqual([]);
    });

    it('completes a shortened catalogue word, and reads "exercise" as fitness', async () => {
      const store = await openStore([
        item('SanDisk Ultra 128GB microSDXC Memory Card', 1169),
        item('Peloton Bike Basics', 112300, { category: 'Sports > Fitness' }),
        item('Brompton C Line Folding Bike', 167400, { category: 'Sports > Cycling' }),
      ]);
      expect(await titles(store, ['microsd', 'card', '128gb'])).toEqual(['SanDisk Ultra 128GB microSDXC Memory Card']);
      expect(await titles(store, ['exercise', 'bike'])).toEqual(['Peloton Bike Basics']);
    });
  });

  describe('catalogue ranking', () => {
    it('ranks the product before its accessories unless the accessory is asked for', async () => {
      const store = await openStore([
        item('Nintendo Switch Pro Controller', 5500, { category: 'Video Games > Accessories' }),
        item('Mario Kart 8 Deluxe (Nintendo Switch)', 4500, { category: 'Video Games > Games' }),
        item('Nintendo Switch OLED Model White', 27895, { category: 'Video Games > Consoles' }),
      ]);
      expect((await titles(store, ['nintendo', 'switch']))[0]).toBe('Nintendo Switch OLED Model White');
      expect((await titles(store, ['switch', 'controller']))[0]).toBe('Nintendo Switch Pro Controller');
    });

    it('does not demote an accessory whose title has every word when no product’s title does', async () => {
      const store = await openStore([
        item('Meta Quest 3 128GB Mixed Reality Headset', 42299, { category: 'Video Games > VR' }),
        item('HyperX Cloud III Wired Gaming Headset Black', 8095, { category: 'Video Games > Accessories' }),
      ]);
      // "gaming" matches the VR headset only through its category.
      expect((await titles(store, ['headset', 'gaming']))[0]).toBe('HyperX Cloud III Wired Gaming Headset Black');
      expect((await titles(store, ['meta', 'quest']))[0]).toBe('Meta Quest 3 128GB Mixed Reality Headset');
    });

    it('puts accessories last when any product in the catalogue has every word in its title, though none passes the filters', async () => {
      const store = await openStore([
        // In the page: a product matching "headphones" by its category only, and an accessory by its title.
        item('Sony WH-1000XM5 Wireless', 25000, { category: 'Audio > Headphones' }),
        item('Sony Headphones Case', 1500, { category: 'Audio > Accessories' }),
        // Outside the filters (used): the product with both words in its title, which makes the query name a
        // product (on PostgreSQL, the check past the window's own listings, ADR 0228).
        item('Sony Headphones WH-CH520', 4000, { category: 'Audio > Headphones', condition: 'used' }),
      ]);
      expect(await titles(store, ['sony', 'headphones'], { condition: 'new' })).toEqual([
        'Sony WH-1000XM5 Wireless',
        'Sony Headphones Case',
      ]);
    });

    it('shows each product once, at its cheapest offer of any condition, with the number of offers', async () => {
      const store = await openStore([
        item('Dyson V8 Absolute', 29999, { network: 'amazon_uk' }),
        item('Dyson V8 Absolute', 27999, { network: 'currys_uk' }),
        item('Dyson V8 Absolute - Used, Good Condition', 15000, { network: 'ebay_uk', condition: 'used' }),
        item('Dyson V11 Cordless', 39999, { network: 'argos_uk' }),
      ]);
      const hits = await store.search(query(['dyson']));
      expect(hits.map((hit) => [hit.title, hit.network, hit.pricePence, hit.offers])).toEqual([
        ['Dyson V8 Absolute - Used, Good Condition', 'ebay_uk', 15000, 3],
        ['Dyson V11 Cordless', 'argos_uk', 39999, 1],
      ]);
      // A query for new ones shows the cheapest new offer (the shown offer meets the query's conditions).
      const newOnes = await store.search({ ...query(['dyson']), condition: 'new' });
      expect(newOnes.map((hit) => [hit.title, hit.network, hit.pricePence, hit.offers])).toEqual([
        ['Dyson V8 Absolute', 'currys_uk', 27999, 2],
        ['Dyson V11 Cordless', 'argos_uk', 39999, 1],
      ]);
    });

    it('groups offers by GTIN, then brand and MPN, whatever their titles', async () => {
      const store = await openStore([
        item('Sony WH-1000XM5 Black', 27900, { network: 'amazon_uk', gtin: '04548736132610' }),
        item('SONY WH1000XM5 Noise Cancelling Headphones', 26900, { network: 'currys_uk', gtin: '4548736132610' }),
        item('Bosch GSB 18V-55 Combi Drill', 21900, { network: 'amazon_uk', brand: 'Bosch', mpn: '06019H5302' }),
        item('Bosch Professional GSB18V-55 Drill Kit', 19900, {
          network: 'argos_uk',
          brand: 'Bosch',
          mpn: '06019H5302',
        }),
      ]);
      // One product each: its offers, one entry each, cheapest first (ADR 0238).
      expect((await store.search(query(['sony']))).map((hit) => [hit.pricePence, hit.offers])).toEqual([
        [26900, 2],
        [27900, 2],
      ]);
      expect((await store.search(query(['bosch']))).map((hit) => [hit.pricePence, hit.offers])).toEqual([
        [19900, 2],
        [21900, 2],
      ]);
    });

    it('never returns a short page while more products match, however many offers each has', async () => {
      const offers = Array.from({ length: 8 }, (_, product) =>
        Array.from({ length: 30 }, (_, copy) => item(`Acme Kettle Model ${product + 1}`, 2000 + copy * 10 + product)),
      ).flat();
      const store = await openStore(offers);
      for (const sort of ['relevance', 'price_asc'] as const) {
        expect(new Set(await titles(store, ['acme', 'kettle'], { sort, limit: 6 })).size).toBe(6);
      }
    });
  });
});

describe('catalogue file format', () => {
  it('converts a version 1 catalogue file in place, keeping its listings searchable', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'catalogue-v1-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'catalogue.db');
    const v1 = new Database(path);
    v1.exec(`
      CREATE TABLE listings (rowid INTEGER PRIMARY KEY, network TEXT NOT NULL, item_id TEXT NOT NULL,
        title TEXT NOT NULL, brand TEXT NOT NULL, category TEXT NOT NULL, url TEXT NOT NULL,
        price_pence INTEGER NOT NULL, condition TEXT NOT NULL, availability TEXT NOT NULL, UNIQUE (network, item_id));
      CREATE VIRTUAL TABLE listings_fts USING fts5(title, brand, category, content = 'listings', content_rowid = 'rowid');
      INSERT INTO listings VALUES (1, 'argos_uk', 'a1', 'JBL Flip6 Speaker', 'JBL', 'Audio', 'https://a.example/1', 11999, 'new', 'in_stock');
    `);
    v1.close();
    const store = CatalogueStore.open(path);
    onTestFinished(() => store.close());
    expect(await titles(store, ['flip', '6'])).toEqual(['JBL Flip6 Speaker']);
  });
});
