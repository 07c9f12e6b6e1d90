import { createPostgresTestDatabase } from '@drawdown/testkit';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { CatalogueQuery } from '../../src/catalogue/catalogue.js';
import type { CatalogueItem } from '../../src/catalogue/feed/feed-record.js';
import { PostgresCatalogue } from '../../src/catalogue/postgres-catalogue.js';
import type { Pence } from '../../src/money/pence.js';

async function openCatalogue(suffix = ''): Promise<PostgresCatalogue> {
  const database = await createPostgresTestDatabase();
  const catalogue = await PostgresCatalogue.open(`${database.url}${suffix}`, { maxConnections: 2 });
  onTestFinished(async () => {
    await catalogue.close();
    await database.drop();
  });
  return catalogue;
}

describe('PostgresCatalogue ranked window (ADR 0227)', () => {
  it('turns synchronized sequential scans off on its connections, keeping the URL’s own options', async () => {
    const plain = await openCatalogue();
    expect(await plain.sessionSetting('synchronize_seqscans')).toBe('off');
    const withOptions = await openCatalogue('?options=-c%20statement_timeout%3D4000');
    expect(await withOptions.sessionSetting('synchronize_seqscans')).toBe('off');
    expect(await withOptions.sessionSetting('statement_timeout')).toBe('4s');
  });

  it('groups the window’s offers by product: place, best offer and offer count', async () => {
    const catalogue = await openCatalogue();
    const offer = (
      index: number,
      product: string,
      pricePence: number,
      condition: CatalogueItem['condition'] = 'new',
    ): CatalogueItem => ({
      itemId: `item-${index}`,
      network: index % 2 === 0 ? 'argos_uk' : 'currys_uk',
      title: `Acme Kettle ${product}`,
      brand: 'Acme',
      category: 'Kettles',
      url: `https://shop.example.co.uk/product/${index}`,
      pricePence: pricePence as Pence,
      condition,
      availability: 'in_stock',
    });
    await catalogue.upsert([
      offer(1, 'Red', 3_000),
      offer(2, 'Red', 2_500, 'used'),
      offer(3, 'Red', 2_800),
      offer(4, 'Blue', 4_000),
      offer(5, 'Blue', 3_900),
      offer(6, 'Green', 5_000, 'refurbished'),
      offer(7, 'Green', 5_500, 'refurbished'),
    ]);
    const query: CatalogueQuery = {
      terms: ['acme', 'kettle'],
      networks: ['argos_uk', 'currys_uk'],
      minPence: undefined,
      maxPence: undefined,
      condition: undefined,
      sort: 'relevance',
      limit: 2,
    };
    const hits = await catalogue.search(query);
    // Each product shows its cheapest offer that meets the query (no condition asked: Red's 2,500 used one,
    // ADR 0238) and counts every offer in the window.
    expect(hits.map((hit) => [hit.title, hit.pricePence, hit.condition, hit.offers])).toEqual([
      ['Acme Kettle Red', 2_500, 'used', 3],
      ['Acme Kettle Blue', 3_900, 'new', 2],
    ]);
    const all = await catalogue.search({ ...query, limit: 5 });
    expect(all.map((hit) => [hit.title, hit.pricePence, hit.offers])).toEqual([
      ['Acme Kettle Red', 2_500, 3],
      ['Acme Kettle Blue', 3_900, 2],
      ['Acme Kettle Green', 5_000, 2],
    ]);
  });
});
