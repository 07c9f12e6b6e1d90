/**
 * Issue 38 item 1 and 4, on both catalogue engines through the HTTP API (the demo catalogue): words with no
 * product meaning stop being required, intents name products, comparisons answer both products, model codes
 * and units match however they are written, category words name what a product is, and a model the catalogue
 * lacks answers [] (never another model), with the broader query a client may retry with in a header.
 * The queries are the issue's own examples, the dev set's (quality/dev-queries.json) and the first held-out set's
 * (quality/held-out-queries.json, spent: now tuned on), never the second held-out set's (held-out-2-queries.json).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { composeService, type PriceSearchService } from '../../src/compose-service.js';
import type { WireListing } from '../../src/listing/listing.js';
import { productOf } from '../../src/quality/query-set.js';
import { catalogueLocation, ENGINES } from '../support/catalogue-engines.js';

describe.each(ENGINES)('recall without substitution on the %s catalogue', (engine) => {
  let service: PriceSearchService;
  let drop: () => Promise<void>;
  let app: ReturnType<typeof createApp>;

  beforeAll(async () => {
    const catalogue = await catalogueLocation(engine);
    drop = catalogue.drop;
    service = await composeService({
      ...(engine === 'sqlite' ? {} : { catalogueUrl: catalogue.location }),
      requestsPerMinute: { free: 1e9, pro: 1e9, scale: 1e9 },
      monthlyLookups: { free: undefined, pro: undefined, scale: undefined },
    });
    app = createApp(service.deps);
  });
  afterAll(async () => {
    await service.close();
    await drop();
  });

  async function search(query: string, maxResults = 10): Promise<{ listings: WireListing[]; headers: Headers }> {
    const response = await app.request('/api/query', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, max_results: maxResults }),
    });
    expect(response.status).toBe(200);
    return { listings: (await response.json()) as WireListing[], headers: response.headers };
  }

  const titles = (listings: readonly WireListing[]) => listings.map((listing) => listing.product);

  it('answers questions and gifts: the fillers, the audience and an age are not required words', async () => {
    expect((await search('how much is a dyson airwrap')).listings[0]?.product).toMatch(/Airwrap/);
    const game = await search('birthday present for my 10 year old, a nintendo switch game under £50');
    expect(game.listings.length).toBeGreaterThan(0);
    for (const listing of game.listings) {
      expect(listing.product).toMatch(/Mario Kart|Zelda/);
      expect(listing.price).toBeLessThanOrEqual(50);
    }
    expect((await search('lego for a 6 year old')).listings[0]?.product).toMatch(/^LEGO /);
  });

  it('reads an intent as the product that does it', async () => {
    expect((await search('something to make coffee')).listings[0]?.product).toMatch(/Coffee Machine|Espresso Machine/);
    expect((await search('laptop for university')).listings.length).toBeGreaterThan(0);
  });

  it('answers "A vs B" and "A or B" with both products', async () => {
    const versus = titles((await search('ps5 vs xbox series x')).listings);
    expect(versus.some((title) => /PlayStation 5/.test(title))).toBe(true);
    expect(versus.some((title) => /Xbox Series X/.test(title))).toBe(true);
    const or = titles((await search('iphone 16 or galaxy s24')).listings);
    expect(or.some((title) => /iPhone 16/.test(title))).toBe(true);
    expect(or.some((title) => /Galaxy S24/.test(title))).toBe(true);
  });

  it('matches a model code across spacing and a retailer suffix, never another model', async () => {
    for (const query of ['wh 1000 xm4', 'sony wh 1000 xm4']) {
      const { listings } = await search(query);
      expect(listings.length).toBeGreaterThan(0);
      for (const listing of listings) expect(listing.product).toMatch(/WH-1000XM4/);
    }
    const { listings } = await search('ninja af400');
    expect(listings.length).toBeGreaterThan(0);
    for (const listing of listings) expect(listing.product).toMatch(/AF400UK/);
  });

  it('reads units glued to numbers as the titles write them', async () => {
    expect((await search('48in oled tv')).listings[0]?.product).toMatch(/48 Inch OLED/);
  });

  it('reads category words as what the product is', async () => {
    expect((await search('ps5 games')).listings).toEqual([]);
    expect((await search('coffee maker')).listings[0]?.product).toMatch(/Coffee Machine|Espresso Machine/);
    const drills = new Set((await search('cordless drill')).listings.map((listing) => productOf(listing.product)));
    expect(drills.size).toBeGreaterThanOrEqual(3);
    const speakers = new Set((await search('smart speaker')).listings.map((listing) => productOf(listing.product)));
    expect(speakers.size).toBeGreaterThanOrEqual(2);
  });

  it('answers [] for a model or line the catalogue lacks, and names the broader query in a header', async () => {
    for (const query of ['lego technic bugatti', 'iphone 15 pro 256gb']) {
      const { listings, headers } = await search(query);
      expect(listings).toEqual([]);
      expect(decodeURIComponent(headers.get('x-broadened-query') ?? '')).not.toBe('');
    }
    const { headers } = await search('refurbished russell hobbs 26200 kettle under £60');
    expect(decodeURIComponent(headers.get('x-broadened-query') ?? '')).toBe('russell kettle');
    expect(headers.get('x-broadened-max-price')).toBe('60.00');
    expect((await search('kettle')).headers.get('x-broadened-query')).toBeNull();
  });

  it("reads the causes of the first held-out set's misses (ADR 0239)", async () => {
    const top = async (query: string) => (await search(query)).listings[0]?.product ?? '';
    // An audience word's possessive, a season, a usage word that is also a parent category ("Garden > ...").
    expect(await top("a drone for my husband's birthday")).toMatch(/Drone/);
    expect(await top('something to keep the house cool in summer')).toMatch(/Air Conditioner/);
    expect(await top('something to make pizza in the garden')).toMatch(/Pizza Oven/);
    // A plural category phrase, a misspelt half of a split name, a code's last piece, a letter after a number.
    const consoles = await search('games consoles under £300');
    expect(consoles.listings.length).toBeGreaterThan(0);
    for (const listing of consoles.listings) expect(listing.price).toBeLessThanOrEqual(300);
    expect(await top('bose quiet confort earbuds')).toMatch(/QuietComfort Earbuds/);
    expect(await top('xm4 headphones')).toMatch(/WH-1000XM4/);
    const pixel = await search('pixel 8 a');
    expect(pixel.listings.length).toBeGreaterThan(0);
    for (const listing of pixel.listings) expect(listing.product).toMatch(/Pixel 8a/);
    // Two codes end with "xm5": no guess, and no other model.
    expect((await search('xm5 headphones')).listings).toEqual([]);
  });
});
