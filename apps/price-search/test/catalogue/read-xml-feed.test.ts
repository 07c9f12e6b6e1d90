/**
 * The streaming RSS 2.0 reader: items come out as the file is read, one item's attributes at a
 * time, with GMC's nested shipping flattened, the first of a repeated attribute kept, CDATA and
 * entities decoded, nested elements it does not know skipped, and a file that breaks part-way
 * refused after the items before the break.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { FeedRow } from '../../src/catalogue/feed/feed-record.js';
import { FeedFormatError, readFeed } from '../../src/catalogue/feed/read-feed.js';

const dir = mkdtempSync(join(tmpdir(), 'xml-feed-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function feedFile(name: string, items: string, tail = '</channel></rss>'): string {
  const path = join(dir, name);
  writeFileSync(
    path,
    `<?xml version="1.0"?><rss version="2.0" xmlns:g="http://base.google.com/ns/1.0"><channel><title>T</title>${items}${tail}`,
  );
  return path;
}

async function rows(path: string): Promise<FeedRow[]> {
  const out: FeedRow[] = [];
  for await (const row of readFeed(path, 'xml')) out.push(row);
  return out;
}

describe('readFeed (xml)', () => {
  it('flattens nested shipping, keeps the first repeated attribute, decodes CDATA and entities, skips unknown nesting', async () => {
    const path = feedFile(
      'shapes.xml',
      `<item><g:id>007</g:id><title>RSS title</title><g:title>GMC title</g:title>
        <g:description><![CDATA[Fish & <b>chips</b>]]></g:description>
        <g:shipping><g:country>GB</g:country><g:service>Standard</g:service><g:price>3.95 GBP</g:price></g:shipping>
        <g:shipping>IE:::6.00 GBP</g:shipping>
        <g:installment><g:months>6</g:months><g:amount>10 GBP</g:amount></g:installment>
        <g:brand>Marks &amp; Spencer</g:brand><g:gtin></g:gtin></item>`,
    );
    const [row] = await rows(path);
    expect(row?.position).toBe(1);
    expect(row?.fields).toEqual({
      id: '007',
      title: 'RSS title',
      description: 'Fish & <b>chips</b>',
      shipping: 'GB::Standard:3.95 GBP,IE:::6.00 GBP',
      brand: 'Marks & Spencer',
      gtin: '',
    });
    expect(row?.bytesRead).toBe(statSync(path).size);
  });

  it('streams a feed larger than one read chunk, numbering items in order and counting bytes up to the size', async () => {
    const items = Array.from(
      { length: 3_000 },
      (_, index) =>
        `<item><g:id>${index + 1}</g:id><title>Kettle number ${index + 1} with a long enough title</title></item>`,
    ).join('');
    const path = feedFile('large.xml', items);
    const all = await rows(path);
    expect(all).toHaveLength(3_000);
    expect(all.map((row) => row.position)).toEqual(all.map((_, index) => index + 1));
    expect(all.at(-1)?.fields.id).toBe('3000');
    const bytes = all.map((row) => row.bytesRead ?? 0);
    expect(bytes[0]).toBeLessThan(statSync(path).size);
    expect(bytes).toEqual([...bytes].sort((a, b) => a - b));
    expect(bytes.at(-1)).toBe(statSync(path).size);
  });

  it('refuses a document that is not RSS, and one that breaks part-way after yielding what came before', async () => {
    const atom = join(dir, 'atom.xml');
    writeFileSync(atom, '<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>A</title></feed>');
    await expect(rows(atom)).rejects.toThrow(new FeedFormatError('not an RSS 2.0 feed: no rss > channel element'));
    const noChannel = join(dir, 'no-channel.xml');
    writeFileSync(noChannel, '<rss version="2.0"></rss>');
    await expect(rows(noChannel)).rejects.toThrow('not an RSS 2.0 feed');

    // Cut off in the middle of the second item, as an interrupted download is.
    const broken = feedFile('broken.xml', '<item><g:id>1</g:id></item><item><g:id>2</g:id><title>Ket', '');
    const seen: FeedRow[] = [];
    await expect(
      (async () => {
        for await (const row of readFeed(broken, 'xml')) seen.push(row);
      })(),
    ).rejects.toThrow(/^not well-formed XML/);
    expect(seen.map((row) => row.fields.id)).toEqual(['1']);
  });
});
