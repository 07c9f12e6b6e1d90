/**
 * Issue 38 item 2 (ADR 0238), on both catalogue engines through the HTTP API (the demo catalogue): a query that
 * names one product answers with its offers, one listing per offer, cheapest first, and `max_results` counts
 * listings; a category query keeps one listing per product at its cheapest offer meeting the query.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { composeService, type PriceSearchService } from '../../src/compose-service.js';
import type { WireListing } from '../../src/listing/listing.js';
import { productOf } from '../../src/quality/query-set.js';
import { catalogueLocation, ENGINES } from '../support/catalogue-engines.js';

describe.each(ENGINES)('comparing offers on the %s catalogue', (engine) => {
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

  async function search(query: string, maxResults: number): Promise<WireListing[]> {
    const response = await app.request('/api/query', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, max_results: maxResults }),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as WireListing[];
  }

  it('answers a query for one product with its offers across marketplaces and conditions, cheapest first', async () => {
    const offers = await search('sony wh-1000xm5', 10);
    expect(offers.length).toBeGreaterThanOrEqual(3);
    expect(new Set(offers.map((listing) => productOf(listing.product))).size).toBe(1);
    expect(new Set(offers.map((listing) => listing.url)).size).toBe(offers.length);
    expect(new Set(offers.map((listing) => listing.condition)).size).toBeGreaterThan(1);
    const prices = offers.map((listing) => listing.price);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    // max_results counts listings.
    expect(await search('sony wh-1000xm5', 2)).toEqual(offers.slice(0, 2));
  });

  it('keeps one listing per product for a category query, at its cheapest offer meeting the query', async () => {
    const phones = await search('iphone', 10);
    const products = phones.map((listing) => productOf(listing.product));
    expect(new Set(products).size).toBe(products.length);
    expect(products.length).toBeGreaterThanOrEqual(4);
    const iphone13 = (await search('iphone 13 128gb starlight', 10))[0];
    // The cheapest offer of any condition (a used one), since the query names none.
    expect(phones.find((listing) => productOf(listing.product) === productOf(iphone13?.product ?? ''))?.price).toBe(
      iphone13?.price,
    );
    for (const listing of await search('new iphone', 10)) expect(listing.condition).toBe('New');
  });
});
