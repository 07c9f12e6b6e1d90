import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expectEvery } from '@drawdown/testkit';
import { describe, expect, it, onTestFinished } from 'vitest';
import { CatalogueStore } from '../../src/catalogue/catalogue-store.js';
import { type ImportProgress, importFeed } from '../../src/catalogue/import-feed.js';
import { progressLine } from '../../src/cli.js';
import { DEMO_FEED_PATH } from '../../src/shared/package-info.js';

const fixture = (name: string): string => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));

function openStore(): CatalogueStore {
  const store = CatalogueStore.open(':memory:');
  onTestFinished(() => store.close());
  return store;
}

const search = (store: CatalogueStore, terms: string[]) =>
  store.search({
    terms,
    networks: ['amazon_uk', 'argos_uk', 'currys_uk', 'ebay_uk'],
    minPence: undefined,
    maxPence: undefined,
    condition: undefined,
    sort: 'relevance',
    limit: 10,
  });

describe('importFeed', () => {
  it('imports a TSV feed and reports each rejected row with its reason', async () => {
    const store = openStore();
    const report = await importFeed(store, { path: fixture('merchant-feed.tsv'), network: 'ebay_uk' });
    expect(report).toMatchObject({ read: 8, imported: 2, rejected: 6 });
    expect(report.rejections).toEqual([
      { position: 3, itemId: 'K2', reason: 'price is not "<amount> <currency>" with at most 2 decimals: about £30' },
      { position: 4, itemId: 'K3', reason: 'missing title' },
      { position: 5, itemId: 'K4', reason: 'link is not an http(s) URL: ftp://example.co.uk/k4' },
      { position: 6, itemId: 'K5', reason: 'unknown network: johnlewis_uk' },
      { position: 7, itemId: 'K1', reason: 'duplicate id in this feed' },
      { position: 9, itemId: 'K7', reason: 'unknown availability: sold_out' },
    ]);
    expect(store.countByNetwork()).toEqual({ argos_uk: 1, ebay_uk: 1 });
  });

  it('rejects a row without a network when no default network is given', async () => {
    const store = openStore();
    const report = await importFeed(store, { path: fixture('merchant-feed.tsv') });
    expect(report.rejections).toContainEqual({
      position: 8,
      itemId: 'K6',
      reason: 'no network column and no --network given',
    });
  });

  it('imports an RSS 2.0 feed with the g: namespace, keeping ids as text and decoding entities', async () => {
    const store = openStore();
    const report = await importFeed(store, { path: fixture('merchant-feed.xml'), network: 'amazon_uk' });
    expect(report).toMatchObject({ read: 4, imported: 2, rejected: 2 });
    expect(report.rejections).toEqual([
      { position: 3, itemId: '0012347', reason: 'price currency is EUR, only GBP is accepted' },
      { position: 4, itemId: '0012348', reason: 'unknown condition: broken (new, used or refurbished)' },
    ]);
    expect(await search(store, ['washing', 'machine'])).toMatchObject([
      {
        title: 'Hotpoint NSWM1045CWUKN 10kg 1400 Spin Washing Machine',
        pricePence: 32999,
        condition: 'refurbished',
        network: 'amazon_uk',
        url: 'https://www.example.co.uk/p/hotpoint-nswm1045',
      },
      {
        title: 'Bosch Serie 4 WAN28282GB 8kg 1400 Spin Washing Machine',
        pricePence: 44900,
        condition: 'new',
        network: 'currys_uk',
        url: 'https://www.example.co.uk/p/bosch-wan28282gb?ref=feed&src=gmc',
      },
    ]);
  });

  it('reports progress and finishes with the totals', async () => {
    const store = openStore();
    const progress: ImportProgress[] = [];
    await importFeed(store, { path: DEMO_FEED_PATH, batchSize: 200, onProgress: (step) => progress.push(step) });
    expect(progress.length).toBeGreaterThan(3);
    const size = statSync(DEMO_FEED_PATH).size;
    expect(progress.at(-1)).toEqual({ read: 807, imported: 807, rejected: 0, bytesRead: size });
    const bytes = progress.map((step) => step.bytesRead ?? 0);
    expect(bytes).toEqual([...bytes].sort((a, b) => a - b));
  });

  it('draws a progress bar from the bytes read', () => {
    const line = progressLine({ read: 310_000, imported: 309_990, rejected: 10, bytesRead: 31 }, 100, 25_000);
    expect(line).toBe('[#########.....................]  31%  310,000 rows  12,400 rows/s  10 rejected');
    expect(progressLine({ read: 5, imported: 5, rejected: 0 }, undefined, 1_000)).toBe('5 rows  5 rows/s  0 rejected');
  });

  it('replaces a listing imported again under the same network and id', async () => {
    const store = openStore();
    await importFeed(store, { path: fixture('merchant-feed.tsv'), network: 'argos_uk' });
    await importFeed(store, { path: fixture('merchant-feed.tsv'), network: 'argos_uk' });
    expect(store.countByNetwork()).toEqual({ argos_uk: 2 });
    expect(await search(store, ['russell', 'hobbs'])).toHaveLength(1);
  });

  it('fails as a whole on a file that is not a feed', async () => {
    const store = openStore();
    const notRss = fixture('not-a-feed.xml');
    await expect(importFeed(store, { path: notRss })).rejects.toThrow('not an RSS 2.0 feed');
  });
});

describe('the bundled demo feed', () => {
  it('is accepted whole and spans four networks and three conditions', async () => {
    const store = openStore();
    const report = await importFeed(store, { path: DEMO_FEED_PATH });
    expect(report.rejected).toBe(0);
    expect(Object.keys(store.countByNetwork()).sort()).toEqual(['amazon_uk', 'argos_uk', 'currys_uk', 'ebay_uk']);
  });
});

describe('catalogue ranking', () => {
  it('ranks title matches above brand-only or category-only matches (BM25 weights)', async () => {
    const store = openStore();
    await importFeed(store, { path: DEMO_FEED_PATH });
    const [best] = await search(store, ['dyson', 'v15']);
    expect(best?.title).toMatch(/^Dyson V15 Detect/);
  });

  it('stems plurals and finds hyphenated model names', async () => {
    const store = openStore();
    await importFeed(store, { path: DEMO_FEED_PATH });
    expect((await search(store, ['earbud'])).length).toBeGreaterThan(0);
    expectEvery(await search(store, ['wh-1000xm5']), (hit) => hit.title.includes('WH-1000XM5'));
  });

  it('tolerates one unmatched word in another script from three words on', async () => {
    const store = openStore();
    await importFeed(store, { path: DEMO_FEED_PATH });
    const hits = await search(store, ['黑色', 'lego', 'titanic']);
    expectEvery(hits, (hit) => hit.title.includes('Titanic'));
  });
});
