/**
 * A feed's repeated ids, on both catalogue engines: a repeat within a batch is refused as it is read; a repeat
 * of an id an earlier batch wrote is found in the catalogue (the import's stamp), not in a set of every id the
 * import has seen. The first row stays either way; importing the same feed again is not a repeat.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importFeed } from '../../src/catalogue/import-feed.js';
import { ENGINES, openTestCatalogue } from '../support/catalogue-engines.js';

const dir = mkdtempSync(join(tmpdir(), 'feed-duplicates-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function feed(rows: readonly (readonly [id: string, title: string, price: string])[]): string {
  const path = join(dir, `feed-${rows.length}-${Math.random().toString(36).slice(2)}.tsv`);
  const lines = rows.map(([id, title, price]) =>
    [id, title, `https://www.example.co.uk/${id.toLowerCase()}`, `${price} GBP`, 'in_stock', 'new', 'Acme'].join('\t'),
  );
  writeFileSync(
    path,
    `${['id', 'title', 'link', 'price', 'availability', 'condition', 'brand'].join('\t')}\n${lines.join('\n')}\n`,
  );
  return path;
}

describe.each(ENGINES)('on %s', (engine) => {
  it('refuses ids repeated within a batch and across batches, keeping the first row', async () => {
    const store = await openTestCatalogue(engine);
    const path = feed([
      ['A1', 'Acme kettle one', '10.00'],
      ['A2', 'Acme toaster two', '20.00'],
      ['A1', 'Acme kettle again in the same batch', '11.00'],
      ['A3', 'Acme blender three', '30.00'],
      ['A2', 'Acme toaster again in a later batch', '21.00'],
      ['A4', 'Acme mixer four', '40.00'],
    ]);
    const report = await importFeed(store, { path, network: 'argos_uk', batchSize: 3 });
    expect(report).toMatchObject({ read: 6, imported: 4, rejected: 2 });
    expect(report.rejections).toEqual([
      { position: 4, itemId: 'A1', reason: 'duplicate id in this feed' },
      { position: 6, itemId: 'A2', reason: 'duplicate id in this feed' },
    ]);
    const hits = await store.search({
      terms: ['acme'],
      networks: ['argos_uk'],
      minPence: undefined,
      maxPence: undefined,
      condition: undefined,
      sort: 'price_asc',
      limit: 10,
    });
    expect(hits.map((hit) => [hit.title, hit.pricePence])).toEqual([
      ['Acme kettle one', 1000],
      ['Acme toaster two', 2000],
      ['Acme blender three', 3000],
      ['Acme mixer four', 4000],
    ]);

    // The same feed imported again is a new import: its rows replace the listings, none is a repeat.
    const again = await importFeed(store, { path, network: 'argos_uk', batchSize: 3 });
    expect(again).toMatchObject({ imported: 4, rejected: 2 });
    expect(again.rejections.map((rejection) => rejection.position)).toEqual([4, 6]);
  });
});
