import { describe, expect, it } from 'vitest';
import { createEbayBrowseConnector } from '../../src/ebay/ebay-browse-connector.js';
import { EbayTokenProvider } from '../../src/ebay/ebay-token-provider.js';
import type { WireListing } from '../../src/listing/listing.js';
import type { HealthBody } from '../../src/lookup/service-health.js';
import type { Pence } from '../../src/money/pence.js';
import type { ConnectorQuery } from '../../src/search/connector.js';
import { FakeClock } from '../support/fake-clock.js';
import { anItemSummary, aSearchResponse, startFakeEbay } from '../support/fake-ebay-server.js';
import { createTestService } from '../support/test-service.js';

const aQuery = (overrides: Partial<ConnectorQuery> = {}): ConnectorQuery => ({
  terms: ['iphone', '13'],
  text: 'iphone 13',
  networks: ['ebay_uk'],
  minPence: undefined,
  maxPence: undefined,
  condition: undefined,
  sort: 'relevance',
  limit: 10,
  ...overrides,
});

function connectorFor(baseUrl: string, clock = new FakeClock('2026-11-20T12:00:00Z'), affiliate?: string) {
  const tokens = new EbayTokenProvider({ baseUrl, clientId: 'client-id', clientSecret: 'client-secret', clock });
  return createEbayBrowseConnector({ baseUrl, tokens, affiliateCampaignId: affiliate });
}

const signal = () => new AbortController().signal;

describe('eBay Browse connector', () => {
  it('sends the marketplace header, the bearer token and the filters in the documented form', async () => {
    const ebay = await startFakeEbay(() => ({ status: 200, body: aSearchResponse([]) }));
    const connector = connectorFor(ebay.baseUrl);
    await connector.search(
      aQuery({ minPence: 2000 as Pence, maxPence: 5000 as Pence, condition: 'refurbished', sort: 'price_asc' }),
      signal(),
    );
    const [search] = ebay.searches();
    expect(search?.headers['x-ebay-c-marketplace-id']).toBe('EBAY_GB');
    expect(search?.headers.authorization).toBe('Bearer token-1');
    expect(search?.query.get('q')).toBe('iphone 13');
    expect(search?.query.get('limit')).toBe('10');
    expect(search?.query.get('sort')).toBe('price');
    expect(search?.query.get('filter')).toBe(
      'buyingOptions:{FIXED_PRICE},deliveryCountry:GB,price:[20.00..50.00],priceCurrency:GBP,' +
        'conditionIds:{2000|2010|2020|2030|2500}',
    );
  });

  it('sends an open-ended price range and no sort for relevance', async () => {
    const ebay = await startFakeEbay(() => ({ status: 200, body: aSearchResponse([]) }));
    await connectorFor(ebay.baseUrl).search(aQuery({ maxPence: 4999 as Pence }), signal());
    const [search] = ebay.searches();
    expect(search?.query.get('filter')).toBe(
      'buyingOptions:{FIXED_PRICE},deliveryCountry:GB,price:[..49.99],priceCurrency:GBP',
    );
    expect(search?.query.has('sort')).toBe(false);
  });

  it('fetches a token with client credentials and reuses it until shortly before it expires', async () => {
    const ebay = await startFakeEbay(() => ({ status: 200, body: aSearchResponse([]) }));
    const clock = new FakeClock('2026-11-20T12:00:00Z');
    const connector = connectorFor(ebay.baseUrl, clock);
    await connector.search(aQuery(), signal());
    await connector.search(aQuery(), signal());
    expect(ebay.tokenGrants()).toHaveLength(1);
    const grant = ebay.tokenGrants()[0];
    expect(grant?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(new URLSearchParams(grant?.body)).toEqual(
      new URLSearchParams({ grant_type: 'client_credentials', scope: 'https://api.ebay.com/oauth/api_scope' }),
    );

    clock.advance(7_200_000 - 61_000);
    await connector.search(aQuery(), signal());
    expect(ebay.tokenGrants()).toHaveLength(1);
    clock.advance(2_000);
    await connector.search(aQuery(), signal());
    expect(ebay.tokenGrants()).toHaveLength(2);
    expect(ebay.searches().at(-1)?.headers.authorization).toBe('Bearer token-2');
  });

  it('shares one token grant between concurrent searches', async () => {
    const ebay = await startFakeEbay(() => ({ status: 200, body: aSearchResponse([]) }));
    const connector = connectorFor(ebay.baseUrl);
    await Promise.all([connector.search(aQuery(), signal()), connector.search(aQuery(), signal())]);
    expect(ebay.tokenGrants()).toHaveLength(1);
  });

  it('fetches a new token once when eBay rejects the cached one', async () => {
    const ebay = await startFakeEbay(() => ({ status: 200, body: aSearchResponse([anItemSummary()]) }));
    const connector = connectorFor(ebay.baseUrl);
    await connector.search(aQuery(), signal());
    ebay.rejectedTokens.add('token-1');
    const listings = await connector.search(aQuery(), signal());
    expect(listings).toHaveLength(1);
    expect(ebay.tokenGrants()).toHaveLength(2);
  });

  it('normalises items: decimal-string prices to pence, condition ids to conditions, links unchanged', async () => {
    const ebay = await startFakeEbay(() => ({
      status: 200,
      body: aSearchResponse([
        anItemSummary({
          shippingOptions: [
            { shippingCostType: 'FIXED', shippingCost: { value: '4.99', currency: 'GBP' } },
            { shippingCostType: 'FIXED', shippingCost: { value: '2.95', currency: 'GBP' } },
          ],
        }),
        anItemSummary({
          itemWebUrl: 'https://www.ebay.co.uk/itm/2',
          conditionId: '2010',
          price: { value: '389.5', currency: 'GBP' },
        }),
        anItemSummary({ itemWebUrl: 'https://www.ebay.co.uk/itm/3', conditionId: '1000', title: 'iPhone 13 sealed' }),
      ]),
    }));
    const listings = await connectorFor(ebay.baseUrl).search(aQuery(), signal());
    expect(listings).toEqual([
      {
        product: 'Apple iPhone 13 128GB Midnight Unlocked',
        pricePence: 32999,
        condition: 'used',
        network: 'ebay_uk',
        url: 'https://www.ebay.co.uk/itm/358845422976',
        sourceRank: 0,
        imageUrl: 'https://i.ebayimg.com/images/g/abc/s-l225.jpg',
        shippingPence: 295,
        seller: 'seller',
        affiliate: false,
      },
      expect.objectContaining({ pricePence: 38950, condition: 'refurbished', sourceRank: 1, shippingPence: undefined }),
      expect.objectContaining({ condition: 'new', sourceRank: 2 }),
    ]);
  });

  it('drops auctions, parts-only items, non-GBP prices and malformed items', async () => {
    const ebay = await startFakeEbay(() => ({
      status: 200,
      body: aSearchResponse([
        anItemSummary({ buyingOptions: ['AUCTION'], itemWebUrl: 'https://www.ebay.co.uk/itm/auction' }),
        anItemSummary({ conditionId: '7000', itemWebUrl: 'https://www.ebay.co.uk/itm/parts' }),
        anItemSummary({ price: { value: '300.00', currency: 'USD' }, itemWebUrl: 'https://www.ebay.co.uk/itm/usd' }),
        { title: 'no price, no link' },
        anItemSummary({ itemWebUrl: 'https://www.ebay.co.uk/itm/good' }),
      ]),
    }));
    const listings = await connectorFor(ebay.baseUrl).search(aQuery(), signal());
    expect(listings.map((listing) => listing.url)).toEqual(['https://www.ebay.co.uk/itm/good']);
  });

  it('re-filters rows locally when eBay answers an ignored filter with warnings', async () => {
    const ebay = await startFakeEbay(() => ({
      status: 200,
      body: aSearchResponse(
        [
          anItemSummary({ price: { value: '45.00', currency: 'GBP' }, itemWebUrl: 'https://www.ebay.co.uk/itm/in' }),
          anItemSummary({ price: { value: '55.00', currency: 'GBP' }, itemWebUrl: 'https://www.ebay.co.uk/itm/over' }),
          anItemSummary({
            price: { value: '40.00', currency: 'GBP' },
            conditionId: '1000',
            itemWebUrl: 'https://www.ebay.co.uk/itm/wrong-condition',
          }),
        ],
        {
          warnings: [
            { errorId: 12001, domain: 'API_BROWSE', category: 'REQUEST', message: "The filter 'price' is invalid." },
          ],
        },
      ),
    }));
    const connector = connectorFor(ebay.baseUrl);
    const listings = await connector.search(aQuery({ maxPence: 5000 as Pence, condition: 'used' }), signal());
    expect(listings.map((listing) => listing.url)).toEqual(['https://www.ebay.co.uk/itm/in']);
    expect(connector.describe?.().detail).toContain("The filter 'price' is invalid.");
  });

  it('returns affiliate links when a campaign is configured', async () => {
    const ebay = await startFakeEbay(() => ({
      status: 200,
      body: aSearchResponse([
        anItemSummary({ itemAffiliateWebUrl: 'https://www.ebay.co.uk/itm/1?mkcid=1&campid=5338' }),
      ]),
    }));
    const connector = connectorFor(ebay.baseUrl, new FakeClock('2026-11-20T12:00:00Z'), '5338');
    const listings = await connector.search(aQuery(), signal());
    expect(listings[0]?.url).toBe('https://www.ebay.co.uk/itm/1?mkcid=1&campid=5338');
    expect(ebay.searches()[0]?.headers['x-ebay-c-enduserctx']).toBe(
      'affiliateCampaignId=5338,contextualLocation=country%3DGB',
    );
  });

  it("fails with eBay's message on an error status", async () => {
    const ebay = await startFakeEbay(() => ({
      status: 500,
      body: { errors: [{ errorId: 10001, message: 'System error' }] },
    }));
    await expect(connectorFor(ebay.baseUrl).search(aQuery(), signal())).rejects.toThrow(
      'eBay search failed with HTTP 500: System error',
    );
  });
});

describe('ebay_uk through the HTTP API', () => {
  it('serves ebay_uk live and the other networks from the catalogue', async () => {
    const ebay = await startFakeEbay(() => ({ status: 200, body: aSearchResponse([anItemSummary()]) }));
    const { query, app } = await createTestService({
      ebay: { clientId: 'client-id', clientSecret: 'client-secret', baseUrl: ebay.baseUrl },
    });
    const listings = (await (await query({ query: 'iphone 13', max_results: 20 })).json()) as WireListing[];
    const fromEbay = listings.filter((listing) => listing.network === 'ebay_uk');
    expect(fromEbay.map((listing) => listing.url)).toEqual(['https://www.ebay.co.uk/itm/358845422976']);
    expect(listings.some((listing) => listing.network === 'amazon_uk')).toBe(true);
    const report = (await (await app.request('/health')).json()) as HealthBody;
    expect(report.sources.find((source) => source.id === 'ebay_browse')).toMatchObject({ status: 'ok' });
  });

  it('keeps answering from the catalogue when eBay is down, and shows eBay failing in health', async () => {
    const ebay = await startFakeEbay(() => ({
      status: 503,
      body: { errors: [{ errorId: 2, message: 'Service unavailable' }] },
    }));
    const { query, app } = await createTestService({
      ebay: { clientId: 'client-id', clientSecret: 'client-secret', baseUrl: ebay.baseUrl },
    });
    const response = await query({ query: 'iphone 13' });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-networks-failed')).toBe('ebay_uk');
    const report = (await (await app.request('/health')).json()) as HealthBody;
    expect(report.status).toBe('degraded');
    expect(report.sources.find((source) => source.id === 'ebay_browse')?.last_error).toBe(
      'eBay search failed with HTTP 503: Service unavailable',
    );
  });

  it('reports bad credentials as a failing connector', async () => {
    const ebay = await startFakeEbay(() => ({ status: 200, body: aSearchResponse([]) }));
    const { query, app } = await createTestService({
      ebay: { clientId: 'client-id', clientSecret: 'wrong', baseUrl: ebay.baseUrl },
    });
    expect((await query({ query: 'iphone 13' })).status).toBe(200);
    const report = (await (await app.request('/health')).json()) as HealthBody;
    expect(report.sources.find((source) => source.id === 'ebay_browse')?.last_error).toBe(
      'eBay token failed with HTTP 401: client authentication failed',
    );
  });
});
