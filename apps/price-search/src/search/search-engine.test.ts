import { describe, expect, it } from 'vitest';
import type { Listing } from '../listing/listing.js';
import type { Pence } from '../money/pence.js';
import { parseQuery } from '../query/parse-query.js';
import type { Connector } from './connector.js';
import { ConnectorHealth } from './connector-health.js';
import { SearchEngine } from './search-engine.js';

const listing = (url: string, pricePence: number, sourceRank: number): Listing => ({
  product: url,
  pricePence: pricePence as Pence,
  condition: 'new',
  network: url.startsWith('a') ? 'amazon_uk' : 'ebay_uk',
  url,
  sourceRank,
});

const connector = (id: string, networks: Connector['networks'], listings: Listing[]): Connector => ({
  id,
  networks,
  search: async () => listings,
});

function engine(connectors: Connector[]) {
  return new SearchEngine({
    connectors,
    health: new ConnectorHealth({ now: () => new Date(0) }),
    deadlinesMs: {},
    defaultDeadlineMs: 1_000,
  });
}

describe('SearchEngine', () => {
  const sources = [
    connector('amazon', ['amazon_uk'], [listing('a1', 900, 0), listing('a2', 100, 1)]),
    connector('ebay', ['ebay_uk'], [listing('e1', 500, 0), listing('e2', 300, 1)]),
  ];

  it('interleaves sources by their own rank for relevance, cheaper first at equal rank', async () => {
    const outcome = await engine(sources).search({
      parsed: parseQuery('lamp'),
      networks: ['amazon_uk', 'ebay_uk'],
      maxResults: 4,
    });
    expect(outcome.listings.map((item) => item.url)).toEqual(['e1', 'a1', 'a2', 'e2']);
  });

  it('orders by price for a cheapest query', async () => {
    const outcome = await engine(sources).search({
      parsed: parseQuery('cheapest lamp'),
      networks: ['amazon_uk', 'ebay_uk'],
      maxResults: 3,
    });
    expect(outcome.listings.map((item) => item.url)).toEqual(['a2', 'e2', 'e1']);
  });

  it('only calls connectors serving a requested network', async () => {
    const outcome = await engine(sources).search({ parsed: parseQuery('lamp'), networks: ['ebay_uk'], maxResults: 5 });
    expect(outcome.runs.map((run) => run.connectorId)).toEqual(['ebay']);
    expect(outcome.networksSearched).toEqual(['ebay_uk']);
  });

  it('answers a repeated lookup from its cache while the catalogue is unchanged, and asks again after a change', async () => {
    let calls = 0;
    let stamp = 'v1';
    const catalogue: Connector = {
      id: 'catalogue',
      networks: ['amazon_uk'],
      search: async () => {
        calls += 1;
        return [listing('a1', 900, 0)];
      },
      cacheStamp: () => stamp,
    };
    const search = engine([catalogue]);
    const request = { parsed: parseQuery('lamp'), networks: ['amazon_uk'] as const, maxResults: 5 };
    await search.search(request);
    const again = await search.search(request);
    expect(calls).toBe(1);
    expect(again.listings.map((item) => item.url)).toEqual(['a1']);
    await search.search({ ...request, maxResults: 4 });
    expect(calls).toBe(2);
    stamp = 'v2';
    await search.search(request);
    expect(calls).toBe(3);
  });

  it("keeps each answer no longer than the source's maximum age, counted from when that answer was computed", async () => {
    let calls = 0;
    let clock = 0;
    const shared: Connector = {
      id: 'catalogue',
      networks: ['amazon_uk'],
      search: async () => {
        calls += 1;
        return [listing('a1', 900, 0)];
      },
      cacheStamp: () => 'v1',
      answersMaxAgeMs: 60_000,
    };
    const search = new SearchEngine({
      connectors: [shared],
      health: new ConnectorHealth({ now: () => new Date(0) }),
      deadlinesMs: {},
      defaultDeadlineMs: 1_000,
      now: () => clock,
    });
    const lamp = { parsed: parseQuery('lamp'), networks: ['amazon_uk'] as const, maxResults: 5 };
    const desk = { ...lamp, parsed: parseQuery('desk') };
    await search.search(lamp);
    clock = 30_000;
    await search.search(desk);
    clock = 59_999;
    await search.search(lamp);
    await search.search(desk);
    expect(calls).toBe(2);
    // The lamp answer is a minute old, the desk answer half a minute: only the first is computed again.
    clock = 60_000;
    await search.search(lamp);
    await search.search(desk);
    expect(calls).toBe(3);
    clock = 90_000;
    await search.search(desk);
    expect(calls).toBe(4);
  });

  it('always asks a live source (no cache stamp)', async () => {
    let calls = 0;
    const live: Connector = {
      id: 'ebay',
      networks: ['ebay_uk'],
      search: async () => {
        calls += 1;
        return [];
      },
    };
    const search = engine([live]);
    await search.search({ parsed: parseQuery('lamp'), networks: ['ebay_uk'], maxResults: 5 });
    await search.search({ parsed: parseQuery('lamp'), networks: ['ebay_uk'], maxResults: 5 });
    expect(calls).toBe(2);
  });
});
