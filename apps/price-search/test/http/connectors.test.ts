import { expectEvery } from '@drawdown/testkit';
import { describe, expect, it } from 'vitest';
import type { WireListing } from '../../src/listing/listing.js';
import type { HealthBody } from '../../src/lookup/service-health.js';
import {
  aListing,
  createTestService,
  failingConnector,
  fixedConnector,
  hangingConnector,
} from '../support/test-service.js';

async function health(app: { request(path: string): Response | Promise<Response> }): Promise<HealthBody> {
  return (await (await app.request('/health')).json()) as HealthBody;
}

describe('connectors', () => {
  it('answers from the other sources when one connector misses its deadline', async () => {
    const { query, app } = await createTestService({
      extraConnectors: [hangingConnector('slow_live', ['ebay_uk'])],
      deadlinesMs: { slow_live: 20 },
    });
    const response = await query({ query: 'ps5 console', max_results: 10 });
    expect(response.status).toBe(200);
    const listings = (await response.json()) as WireListing[];
    expectEvery(listings, (listing) => listing.network !== 'ebay_uk');
    expect(response.headers.get('x-networks-failed')).toBe('ebay_uk');
    expect(response.headers.get('x-networks-searched')).toBe('amazon_uk,argos_uk,currys_uk');

    const report = await health(app);
    expect(report.status).toBe('degraded');
    const source = report.sources.find((entry) => entry.id === 'slow_live');
    expect(source).toMatchObject({ status: 'failing', consecutive_failures: 1, last_error: 'no answer within 20 ms' });
    expect(report.networks.find((entry) => entry.network === 'ebay_uk')?.status).toBe('failing');
  });

  it('answers from the other sources when one connector throws, and reports it in health', async () => {
    const { query, app } = await createTestService({
      extraConnectors: [failingConnector('broken_live', ['ebay_uk'], 'eBay search failed with HTTP 500')],
    });
    const response = await query({ query: 'kindle paperwhite' });
    expect(response.status).toBe(200);
    expect(((await response.json()) as WireListing[]).length).toBeGreaterThan(0);
    const source = (await health(app)).sources.find((entry) => entry.id === 'broken_live');
    expect(source?.last_error).toBe('eBay search failed with HTTP 500');
  });

  it('recovers in health once the connector answers again', async () => {
    let fail = true;
    const { query, app } = await createTestService({
      demoFeed: false,
      extraConnectors: [
        {
          id: 'flaky',
          networks: ['ebay_uk'],
          async search() {
            if (fail) throw new Error('upstream 503');
            return [aListing({ network: 'ebay_uk' })];
          },
        },
      ],
    });
    await query({ query: 'lamp', networks: ['ebay_uk'] });
    expect((await health(app)).sources.find((entry) => entry.id === 'flaky')?.status).toBe('failing');
    fail = false;
    await query({ query: 'lamp', networks: ['ebay_uk'] });
    const source = (await health(app)).sources.find((entry) => entry.id === 'flaky');
    expect(source).toMatchObject({ status: 'ok', consecutive_failures: 0, last_error: 'upstream 503' });
  });

  it('answers 503 networks_unavailable when every requested network failed, and does not count the lookup', async () => {
    const { query } = await createTestService({
      demoFeed: false,
      monthlyLookups: { free: 1, pro: 1, scale: undefined },
      extraConnectors: [failingConnector('down', ['ebay_uk'], 'connection refused')],
    });
    const failed = await query({ query: 'lamp', networks: ['ebay_uk'] });
    expect(failed.status).toBe(503);
    expect(failed.headers.get('retry-after')).toBe('30');
    expect(((await failed.json()) as { error: { code: string } }).error.code).toBe('networks_unavailable');
    // The one free lookup is still available.
    expect((await query({ query: 'lamp', networks: ['argos_uk'] })).status).toBe(200);
  });

  it('lets a live connector replace the catalogue for its network', async () => {
    const live = fixedConnector('live', ['ebay_uk'], [aListing({ network: 'ebay_uk', product: 'PS5 live listing' })]);
    const { query, app } = await createTestService({ extraConnectors: [live] });
    const listings = (await (
      await query({ query: 'ps5', networks: ['ebay_uk'], max_results: 20 })
    ).json()) as WireListing[];
    expect(listings.map((listing) => listing.product)).toEqual(['PS5 live listing']);
    const ebay = (await health(app)).networks.find((entry) => entry.network === 'ebay_uk');
    expect(ebay?.sources).toEqual(['live']);
  });
});

describe('GET /health', () => {
  it('reports every network with its sources and catalogue listing counts', async () => {
    const { app } = await createTestService();
    const response = await app.request('/health');
    expect(response.status).toBe(200);
    const report = (await response.json()) as HealthBody;
    expect(report.status).toBe('ok');
    expect(report.version).toBe('0.1.0');
    expect(report.networks.map((entry) => entry.network)).toEqual(['amazon_uk', 'argos_uk', 'currys_uk', 'ebay_uk']);
    for (const entry of report.networks) {
      expect(entry.status).toBe('unknown');
      expect(entry.sources).toEqual(['catalogue']);
      expect(entry.listings).toBeGreaterThan(50);
    }
  });

  it('reports no_listings for a network the catalogue has nothing for', async () => {
    const { app } = await createTestService({ demoFeed: false });
    const report = (await (await app.request('/health')).json()) as HealthBody;
    expectEvery(report.networks, (entry) => entry.status === 'no_listings', { what: 'networks' });
    expect(report.status).toBe('ok');
  });

  it('answers 503 with status down when every network with a source is failing', async () => {
    const { app, query } = await createTestService({
      demoFeed: false,
      extraConnectors: [failingConnector('down', ['ebay_uk'], 'connection refused')],
    });
    await query({ query: 'lamp', networks: ['ebay_uk'] });
    const response = await app.request('/health');
    expect(response.status).toBe(503);
    expect(((await response.json()) as HealthBody).status).toBe('down');
  });
});
