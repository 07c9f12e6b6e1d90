import { expectEvery } from '@drawdown/testkit';
import { describe, expect, it } from 'vitest';
import type { WireListing } from '../../src/listing/listing.js';
import type { Pence } from '../../src/money/pence.js';
import { aListing, createTestService, fixedConnector } from '../support/test-service.js';

describe('POST /api/query on the demo catalogue', () => {
  it('answers a natural-language query with listings in the contract shape', async () => {
    const { query } = await createTestService();
    const response = await query({ query: 'sony headphones', max_results: 3 });
    expect(response.status).toBe(200);
    const listings = (await response.json()) as WireListing[];
    expect(listings).toHaveLength(3);
    for (const listing of listings) {
      expect(Object.keys(listing).sort()).toEqual([
        'affiliate_disclosure',
        'availability',
        'condition',
        'currency',
        'delivery_cost',
        'image',
        'network',
        'offers',
        'price',
        'product',
        'seller',
        'total_price',
        'url',
      ]);
      expect(listing.product).toMatch(/^Sony /);
      expect(typeof listing.price).toBe('number');
      expect(listing.currency).toBe('GBP');
      expect(['New', 'Used', 'Refurbished']).toContain(listing.condition);
      expect(listing.network).toMatch(/^[a-z]+_uk$/);
      expect(listing.url).toMatch(/^https:\/\/[a-z]+\.example\.co\.uk\//);
    }
  });

  it('adds the shopper fields: delivery and total, image, seller, offers, affiliate disclosure', async () => {
    const affiliate = aListing({
      network: 'ebay_uk',
      product: 'Nintendo Switch OLED',
      url: 'https://www.ebay.co.uk/itm/1?campid=5338&mkevt=1',
      pricePence: 27999 as Pence,
      shippingPence: 350 as Pence,
      imageUrl: 'https://i.ebayimg.com/1.jpg',
      seller: 'games_direct',
      affiliate: true,
    });
    const plain = aListing({
      network: 'ebay_uk',
      product: 'Nintendo Switch Lite',
      url: 'https://www.ebay.co.uk/itm/2',
    });
    const { query } = await createTestService({
      demoFeed: false,
      extraConnectors: [fixedConnector('live', ['ebay_uk'], [affiliate, plain])],
    });
    const listings = (await (await query({ query: 'nintendo switch' })).json()) as WireListing[];
    expect(listings).toHaveLength(2);
    expect(listings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          price: 279.99,
          delivery_cost: 3.5,
          total_price: 283.49,
          availability: 'in_stock',
          image: 'https://i.ebayimg.com/1.jpg',
          seller: 'games_direct',
          offers: 1,
          affiliate_disclosure: expect.stringMatching(/^Affiliate link/),
        }),
        expect.objectContaining({
          delivery_cost: null,
          total_price: null,
          image: null,
          seller: null,
          affiliate_disclosure: null,
        }),
      ]),
    );
  });

  it('returns an empty array when nothing matches', async () => {
    const { query } = await createTestService();
    const response = await query({ query: 'zeppelin mooring mast' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([]);
  });

  it('keeps every result within a budget stated in the text', async () => {
    const { query } = await createTestService();
    const listings = (await (await query({ query: 'headphones under £100', max_results: 20 })).json()) as WireListing[];
    expectEvery(listings, (listing) => listing.price <= 100, { atLeast: 4 });
  });

  it('lets max_price win over a budget in the text', async () => {
    const { query } = await createTestService();
    const listings = (await (
      await query({ query: 'headphones under £300', max_price: 60, max_results: 20 })
    ).json()) as WireListing[];
    expectEvery(listings, (listing) => listing.price <= 60);
  });

  it('filters by the condition named in the query', async () => {
    const { query } = await createTestService();
    const listings = (await (await query({ query: 'refurbished iphone', max_results: 20 })).json()) as WireListing[];
    expectEvery(listings, (listing) => listing.condition === 'Refurbished');
  });

  it('sorts cheapest first when asked', async () => {
    const { query } = await createTestService();
    const listings = (await (await query({ query: 'cheapest air fryer', max_results: 10 })).json()) as WireListing[];
    const prices = listings.map((listing) => listing.price);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
  });

  it('searches only the requested networks', async () => {
    const { query } = await createTestService();
    const listings = (await (
      await query({ query: 'playstation 5', networks: ['argos_uk', 'currys_uk'], max_results: 20 })
    ).json()) as WireListing[];
    expectEvery(listings, (listing) => listing.network === 'argos_uk' || listing.network === 'currys_uk');
  });

  it('never offers out-of-stock catalogue rows', async () => {
    const { query, service } = await createTestService({ demoFeed: false });
    service.catalogue.upsert([
      {
        itemId: 'a',
        network: 'argos_uk',
        title: 'Russell Hobbs Kettle',
        brand: 'Russell Hobbs',
        category: '',
        url: 'https://argos.example.co.uk/product/1',
        pricePence: 2999 as Pence,
        condition: 'new',
        availability: 'out_of_stock',
      },
    ]);
    expect(await (await query({ query: 'kettle' })).json()).toEqual([]);
  });
});

describe('merging sources', () => {
  it('shows a product once, at its best-ranked offer, counting the other offers', async () => {
    const first = aListing({ network: 'ebay_uk', product: 'Nintendo Switch OLED', url: 'https://e.example/1' });
    const sameUrl = aListing({ network: 'ebay_uk', product: 'Nintendo Switch OLED White', url: 'https://e.example/1' });
    const sameOffer = aListing({ network: 'ebay_uk', product: 'NINTENDO switch  oled!', url: 'https://e.example/2' });
    const other = aListing({
      network: 'ebay_uk',
      product: 'Nintendo Switch OLED',
      url: 'https://e.example/3',
      pricePence: 999 as Pence,
    });
    const { query } = await createTestService({
      demoFeed: false,
      extraConnectors: [fixedConnector('live', ['ebay_uk'], [first, sameUrl, sameOffer, other])],
    });
    const listings = (await (await query({ query: 'switch oled', max_results: 20 })).json()) as WireListing[];
    // Equal source rank: the cheaper offer wins; the repeated url is not another offer.
    expect(listings.map((listing) => [listing.url, listing.offers])).toEqual([['https://e.example/3', 3]]);
  });

  it('re-applies the budget and condition to whatever a source returns', async () => {
    const { query } = await createTestService({
      demoFeed: false,
      extraConnectors: [
        fixedConnector(
          'sloppy',
          ['ebay_uk'],
          [
            aListing({ network: 'ebay_uk', pricePence: 5001 as Pence, url: 'https://e.example/over' }),
            aListing({ network: 'ebay_uk', pricePence: 5000 as Pence, url: 'https://e.example/at' }),
            aListing({
              network: 'ebay_uk',
              pricePence: 4000 as Pence,
              condition: 'used',
              url: 'https://e.example/used',
            }),
          ],
        ),
      ],
    });
    const listings = (await (await query({ query: 'new lamp under £50' })).json()) as WireListing[];
    expect(listings.map((listing) => listing.url)).toEqual(['https://e.example/at']);
    expect(listings[0]?.price).toBe(50);
  });

  it('passes the url through unchanged', async () => {
    const url = 'https://ebay.example.co.uk/itm/123?mkcid=1&campid=5338&toolid=10001#frag';
    const { query } = await createTestService({
      demoFeed: false,
      extraConnectors: [fixedConnector('live', ['ebay_uk'], [aListing({ network: 'ebay_uk', url })])],
    });
    const listings = (await (await query({ query: 'lamp' })).json()) as WireListing[];
    expect(listings[0]?.url).toBe(url);
  });

  it('returns prices as exact pounds from integer pence', async () => {
    const { query } = await createTestService({
      demoFeed: false,
      extraConnectors: [
        fixedConnector('live', ['ebay_uk'], [aListing({ network: 'ebay_uk', pricePence: 129999 as Pence })]),
      ],
    });
    expect(await (await query({ query: 'lamp' })).text()).toContain('"price":1299.99');
  });
});
