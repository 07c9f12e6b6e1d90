import { describe, expect, it, onTestFinished } from 'vitest';
import { createApp } from '../../src/app.js';
import { CatalogueStore } from '../../src/catalogue/catalogue-store.js';
import { composeService } from '../../src/compose-service.js';
import { FeedRefresher } from '../../src/feeds/feed-refresher.js';
import { type FeedSource, parseFeedSources } from '../../src/feeds/feed-source.js';
import type { WireListing } from '../../src/listing/listing.js';
import type { HealthBody } from '../../src/lookup/service-health.js';
import { FakeClock } from '../support/fake-clock.js';
import { startFakeFeedHost } from '../support/fake-feed-server.js';

const gmcItem = (id: string, title: string, price: string, extra = '') => `
    <item>
      <g:id>${id}</g:id>
      <title>${title}</title>
      <link>https://www.argos.co.uk/product/${id}</link>
      <g:price>${price} GBP</g:price>
      <g:availability>in stock</g:availability>
      <g:condition>new</g:condition>
      <g:brand>Ninja</g:brand>
      <g:gtin>0622356${id}</g:gtin>
      <g:image_link>https://media.argos.co.uk/i/${id}.jpg</g:image_link>
      <g:shipping><g:country>GB</g:country><g:price>3.95 GBP</g:price></g:shipping>${extra}
    </item>`;
const gmcXml = (...items: string[]) => `<?xml version="1.0"?>
<rss version="2.0" xmlns:g="http://base.google.com/ns/1.0"><channel><title>Argos</title>${items.join('')}
</channel></rss>`;

const AWIN_HEADER =
  'aw_deep_link,product_name,aw_product_id,merchant_product_id,merchant_image_url,description,merchant_category,search_price,merchant_name,merchant_id,category_name,aw_image_url,currency,store_price,delivery_cost,merchant_deep_link,language,last_updated,display_price,data_feed_id,brand_name,ean,mpn,product_GTIN,in_stock,stock_quantity,condition';
const awinRow = (id: string, title: string, price: string, inStock: string) =>
  [
    `https://www.awin1.com/pclick.php?p=${id}&a=123456&m=1599`,
    `"${title}"`,
    `9${id}`,
    id,
    `https://media.currys.biz/i/${id}.jpg`,
    '"A product"',
    'Televisions',
    price,
    'Currys',
    '1599',
    'TVs',
    '',
    'GBP',
    price,
    '0.00',
    `https://www.currys.co.uk/products/${id}.html`,
    'en',
    '2026-11-22',
    `GBP${price}`,
    '42',
    'Samsung',
    `880${id}`,
    `QE55Q60D-${id}`,
    '',
    inStock,
    '10',
    'new',
  ].join(',');

function source(overrides: Partial<FeedSource> & Pick<FeedSource, 'url' | 'format'>): FeedSource {
  return { id: 'argos-gmc', network: 'argos_uk', refreshMinutes: 60, staleAfterMinutes: 180, ...overrides };
}

function openStore(): CatalogueStore {
  const store = CatalogueStore.open(':memory:');
  onTestFinished(() => store.close());
  return store;
}

const search = (store: CatalogueStore, terms: string[]) =>
  store.search({
    terms,
    networks: ['argos_uk', 'currys_uk'],
    minPence: undefined,
    maxPence: undefined,
    condition: undefined,
    sort: 'relevance',
    limit: 10,
  });

describe('live feed refresh (Google Merchant Center RSS)', () => {
  it('imports, then asks conditionally and skips an unchanged feed, then expires offers the feed dropped', async () => {
    const host = await startFakeFeedHost({
      '/argos.xml': {
        body: gmcXml(
          gmcItem('101', 'Ninja Air Fryer AF100UK', '99.00'),
          gmcItem('102', 'Ninja Blender BN610UK', '84.00'),
        ),
        contentType: 'application/rss+xml',
        etag: '"v1"',
      },
    });
    const clock = new FakeClock('2026-11-23T10:00:00Z');
    const store = openStore();
    const refresher = new FeedRefresher({
      store,
      clock,
      sources: [source({ url: `${host.baseUrl}/argos.xml`, format: 'xml' })],
    });

    expect(await refresher.refresh('argos-gmc')).toEqual({ kind: 'imported', imported: 2, rejected: 0, expired: 0 });
    const [fryer] = await search(store, ['air', 'fryer']);
    expect(fryer).toMatchObject({
      title: 'Ninja Air Fryer AF100UK',
      pricePence: 9900,
      shippingPence: 395,
      imageUrl: 'https://media.argos.co.uk/i/101.jpg',
    });

    clock.advance(60 * 60_000);
    expect(await refresher.refresh('argos-gmc')).toEqual({ kind: 'unchanged' });
    expect(host.received.at(-1)?.headers['if-none-match']).toBe('"v1"');
    expect(await search(store, ['ninja'])).toHaveLength(2);

    host.files['/argos.xml'] = {
      body: gmcXml(gmcItem('101', 'Ninja Air Fryer AF100UK', '89.00')),
      contentType: 'application/rss+xml',
      etag: '"v2"',
    };
    clock.advance(60 * 60_000);
    expect(await refresher.refresh('argos-gmc')).toEqual({ kind: 'imported', imported: 1, rejected: 0, expired: 1 });
    expect((await search(store, ['ninja'])).map((hit) => [hit.title, hit.pricePence])).toEqual([
      ['Ninja Air Fryer AF100UK', 8900],
    ]);
    expect(await refresher.report()).toEqual([
      expect.objectContaining({
        id: 'argos-gmc',
        status: 'ok',
        listings: 1,
        last_success_at: '2026-11-23T12:00:00.000Z',
        last_changed_at: '2026-11-23T12:00:00.000Z',
        last_error: null,
      }),
    ]);
  });

  it('uses Last-Modified when the host sends no ETag', async () => {
    const host = await startFakeFeedHost({
      '/feed.xml': {
        body: gmcXml(gmcItem('201', 'Ninja Foodi MAX Dual Zone Air Fryer AF400UK', '249.00')),
        contentType: 'application/xml',
        lastModified: 'Sun, 22 Nov 2026 23:00:00 GMT',
      },
    });
    const refresher = new FeedRefresher({
      store: openStore(),
      clock: new FakeClock('2026-11-23T10:00:00Z'),
      sources: [source({ url: `${host.baseUrl}/feed.xml`, format: 'xml' })],
    });
    await refresher.refresh('argos-gmc');
    expect(await refresher.refresh('argos-gmc')).toEqual({ kind: 'unchanged' });
    expect(host.received.at(-1)?.headers['if-modified-since']).toBe('Sun, 22 Nov 2026 23:00:00 GMT');
  });

  it('keeps the listings when the host fails or sends an empty feed, reports failing, then stale', async () => {
    const host = await startFakeFeedHost({
      '/argos.xml': {
        body: gmcXml(gmcItem('101', 'Ninja Air Fryer AF100UK', '99.00')),
        contentType: 'application/rss+xml',
        etag: '"v1"',
      },
    });
    const clock = new FakeClock('2026-11-23T10:00:00Z');
    const store = openStore();
    const refresher = new FeedRefresher({
      store,
      clock,
      sources: [source({ url: `${host.baseUrl}/argos.xml`, format: 'xml' })],
    });
    await refresher.refresh('argos-gmc');

    host.files['/argos.xml'] = { body: '', contentType: 'text/plain', failWith: 503 };
    clock.advance(60 * 60_000);
    expect(await refresher.refresh('argos-gmc')).toEqual({ kind: 'failed', error: 'HTTP 503 from the feed' });
    host.files['/argos.xml'] = { body: gmcXml(), contentType: 'application/rss+xml', etag: '"empty"' };
    expect(await refresher.refresh('argos-gmc')).toEqual({ kind: 'failed', error: 'the feed had no rows' });
    expect(await search(store, ['ninja'])).toHaveLength(1);
    expect((await refresher.report())[0]).toMatchObject({
      status: 'failing',
      listings: 1,
      last_success_at: '2026-11-23T10:00:00.000Z',
      last_error: 'the feed had no rows',
    });

    host.files['/argos.xml'] = {
      body: gmcXml(gmcItem('101', 'Ninja Air Fryer AF100UK', '99.00')),
      contentType: 'application/xml',
      etag: '"v1"',
    };
    await refresher.refresh('argos-gmc');
    clock.advance(181 * 60_000);
    expect((await refresher.report())[0]?.status).toBe('stale');
  });

  it('refreshes only the feeds that are due', async () => {
    const host = await startFakeFeedHost({
      '/a.xml': { body: gmcXml(gmcItem('1', 'Ninja Kettle', '30.00')), contentType: 'application/xml', etag: '"a"' },
    });
    const clock = new FakeClock('2026-11-23T10:00:00Z');
    const refresher = new FeedRefresher({
      store: openStore(),
      clock,
      sources: [source({ url: `${host.baseUrl}/a.xml`, format: 'xml', refreshMinutes: 60 })],
    });
    await refresher.refreshDue();
    clock.advance(30 * 60_000);
    await refresher.refreshDue();
    expect(host.received).toHaveLength(1);
    clock.advance(30 * 60_000);
    await refresher.refreshDue();
    expect(host.received).toHaveLength(2);
  });
});

describe('live feed refresh (Awin product feed CSV)', () => {
  it('reads a gzipped Awin download: tracked links with a disclosure, delivery, image, stock, GTIN grouping', async () => {
    const csv = [
      AWIN_HEADER,
      awinRow('301', 'Samsung 55 Inch QE55Q60D QLED 4K HDR Smart TV', '549.00', '1'),
      awinRow('302', 'Samsung 65 Inch QE65Q60D QLED 4K HDR Smart TV', '749.00', '0'),
    ].join('\n');
    const host = await startFakeFeedHost({
      '/datafeed/currys.csv.gz': { body: csv, contentType: 'text/csv', etag: 'W/"awin-1"', gzipFile: true },
    });
    const feeds = parseFeedSources([
      { id: 'currys-awin', network: 'currys_uk', url: `${host.baseUrl}/datafeed/currys.csv.gz`, format: 'awin_csv' },
    ]);
    const service = await composeService({ cataloguePath: ':memory:', statePath: ':memory:', feeds });
    onTestFinished(() => service.close());
    expect(await service.feeds?.refresh('currys-awin')).toEqual({
      kind: 'imported',
      imported: 2,
      rejected: 0,
      expired: 0,
    });

    const app = createApp(service.deps);
    const response = await app.request('/api/query', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'samsung qled tv at currys' }),
    });
    const listings = (await response.json()) as WireListing[];
    // The 65 inch is out of stock (in_stock 0) and not offered.
    expect(listings).toEqual([
      expect.objectContaining({
        product: 'Samsung 55 Inch QE55Q60D QLED 4K HDR Smart TV',
        price: 549,
        delivery_cost: 0,
        total_price: 549,
        network: 'currys_uk',
        url: 'https://www.awin1.com/pclick.php?p=301&a=123456&m=1599',
        image: 'https://media.currys.biz/i/301.jpg',
        affiliate_disclosure: expect.stringMatching(/commission/),
      }),
    ]);

    const health = (await (await app.request('/health')).json()) as HealthBody;
    expect(health.catalogue).toEqual({ source: 'live_feeds', notice: null });
    expect(health.feeds).toEqual([
      expect.objectContaining({
        id: 'currys-awin',
        network: 'currys_uk',
        format: 'awin_csv',
        status: 'ok',
        listings: 2,
      }),
    ]);
  });
});

describe('feed configuration', () => {
  it('refuses unknown networks and formats, bad urls and repeated ids', async () => {
    const ok = { id: 'a', network: 'argos_uk', url: 'https://feeds.example.co.uk/a.xml', format: 'xml' };
    expect(parseFeedSources([ok])[0]).toMatchObject({ refreshMinutes: 360, staleAfterMinutes: 1080 });
    expect(() => parseFeedSources([{ ...ok, network: 'tesco_uk' }])).toThrow(/network/);
    expect(() => parseFeedSources([{ ...ok, format: 'json' }])).toThrow(/format/);
    expect(() => parseFeedSources([{ ...ok, url: 'ftp://x/a' }])).toThrow(/url/);
    expect(() => parseFeedSources([ok, ok])).toThrow(/twice/);
    expect(() => parseFeedSources([{ ...ok, every: 5 }])).toThrow();
  });
});

describe('health on the demo catalogue', () => {
  it('says plainly that only the demo feed is served', async () => {
    const service = await composeService();
    onTestFinished(() => service.close());
    const health = (await (await createApp(service.deps).request('/health')).json()) as HealthBody;
    expect(health.catalogue.source).toBe('demo_feed');
    expect(health.catalogue.notice).toMatch(/Only the bundled demo feed is served/);
    expect(health.feeds).toEqual([]);
  });
});
