/**
 * @module
 * Reads a Google Merchant Center feed, TSV or RSS 2.0 XML (`g:` namespace), as a stream of raw rows.
 * The format is taken from the first non-blank character: `<` is XML, anything else TSV.
 */
import { createReadStream } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { parse } from 'csv-parse';
import { XMLParser } from 'fast-xml-parser';
import type { FeedRow } from './feed-record.js';

/**
 * The feed formats: Google Merchant Center TSV and RSS 2.0 XML, and Awin's product feed CSV (the "Create-a-Feed"
 * download of the UK's largest affiliate network, whose columns are mapped onto the GMC attributes).
 */
export const FEED_FORMATS = ['tsv', 'xml', 'awin_csv'] as const;
export type FeedFormat = (typeof FEED_FORMATS)[number];

/** Raised when a feed cannot be read at all (as opposed to single bad rows). */
export class FeedFormatError extends Error {
  override readonly name = 'FeedFormatError';
}

/** Detects the format of the feed at `path`. */
export async function detectFeedFormat(path: string): Promise<FeedFormat> {
  const handle = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(512), 0, 512, 0);
    const start = buffer
      .subarray(0, bytesRead)
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trimStart();
    return start.startsWith('<') ? 'xml' : 'tsv';
  } finally {
    await handle.close();
  }
}

/** Reads the rows of the feed at `path`. */
export async function* readFeed(path: string, format?: FeedFormat): AsyncGenerator<FeedRow> {
  const resolved = format ?? (await detectFeedFormat(path));
  if (resolved === 'xml') {
    yield* readXmlFeed(await readFile(path, 'utf8'));
  } else if (resolved === 'awin_csv') {
    yield* readAwinCsvFeed(path);
  } else {
    yield* readTsvFeed(path);
  }
}

// Header names are matched loosely: "Image Link", "image_link" and "g:image_link" are the same attribute.
function attributeName(header: string): string {
  return header
    .trim()
    .toLowerCase()
    .replace(/^g:/, '')
    .replace(/[\s-]+/g, '_');
}

async function* readTsvFeed(path: string): AsyncGenerator<FeedRow> {
  const file = createReadStream(path);
  let bytesRead = 0;
  file.on('data', (chunk) => {
    bytesRead += chunk.length;
  });
  const parser = file.pipe(
    parse({
      delimiter: '\t',
      columns: (headers: string[]) => headers.map(attributeName),
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
      relax_quotes: true,
      info: true,
    }),
  );
  for await (const record of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number } }>) {
    yield { position: record.info.lines, fields: record.record, bytesRead };
  }
}

// Awin column → GMC attribute, in order of preference. `aw_deep_link` is the tracked (affiliate) link.
const AWIN_COLUMNS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['id', ['merchant_product_id', 'aw_product_id']],
  ['title', ['product_name']],
  ['link', ['aw_deep_link', 'merchant_deep_link']],
  ['brand', ['brand_name']],
  ['product_type', ['merchant_category', 'category_name']],
  ['gtin', ['product_gtin', 'ean', 'upc']],
  ['mpn', ['mpn', 'model_number']],
  ['image_link', ['merchant_image_url', 'aw_image_url', 'large_image']],
  ['condition', ['condition']],
];

/** One Awin CSV record as GMC attributes. */
export function awinToGmc(record: Readonly<Record<string, string>>): Record<string, string> {
  const first = (names: readonly string[]): string =>
    names.map((name) => (record[name] ?? '').trim()).find((value) => value !== '') ?? '';
  const fields: Record<string, string> = {};
  for (const [attribute, columns] of AWIN_COLUMNS) fields[attribute] = first(columns);
  const currency = first(['currency']) || 'GBP';
  const price = first(['search_price', 'store_price', 'display_price']).replace(/^£/, '');
  fields.price = price === '' ? '' : `${price} ${currency}`;
  const delivery = first(['delivery_cost']).replace(/^£/, '');
  if (delivery !== '') fields.shipping = `${delivery} ${currency}`;
  const inStock = first(['in_stock', 'is_for_sale']).toLowerCase();
  fields.availability = ['1', 'yes', 'true', 'in stock', 'in_stock'].includes(inStock)
    ? 'in_stock'
    : inStock === ''
      ? ''
      : 'out_of_stock';
  return fields;
}

async function* readAwinCsvFeed(path: string): AsyncGenerator<FeedRow> {
  const file = createReadStream(path);
  let bytesRead = 0;
  file.on('data', (chunk) => {
    bytesRead += chunk.length;
  });
  const parser = file.pipe(
    parse({
      // Awin offers comma, pipe and tab separated downloads; the header row tells which.
      delimiter: [',', '|', '\t'],
      columns: (headers: string[]) => headers.map(attributeName),
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
      info: true,
    }),
  );
  for await (const record of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number } }>) {
    yield { position: record.info.lines, fields: awinToGmc(record.record), bytesRead };
  }
}

const xmlParser = new XMLParser({
  removeNSPrefix: true,
  // Keep every value a string: GTINs with leading zeros and ids like "0012" must not become numbers.
  parseTagValue: false,
  ignoreAttributes: true,
  trimValues: true,
  isArray: (_name, path) => path === 'rss.channel.item',
});

/** Reads the items of an RSS 2.0 feed held in memory. */
export function* readXmlFeed(xml: string): Generator<FeedRow> {
  let document: unknown;
  try {
    document = xmlParser.parse(xml, true);
  } catch (error) {
    throw new FeedFormatError(`not well-formed XML: ${error instanceof Error ? error.message : String(error)}`);
  }
  const items = itemsOf(document);
  if (items === undefined) throw new FeedFormatError('not an RSS 2.0 feed: no rss > channel element');
  let position = 0;
  for (const item of items) {
    position += 1;
    const fields: Record<string, string> = {};
    if (typeof item === 'object' && item !== null) {
      for (const [name, value] of Object.entries(item)) {
        // GMC's nested shipping (<g:shipping><g:country>GB</g:country><g:price>3.95 GBP</g:price></g:shipping>)
        // becomes the TSV form "GB:::3.95 GBP", several entries comma-separated.
        if (attributeName(name) === 'shipping' && typeof value === 'object' && value !== null) {
          fields.shipping ??= (Array.isArray(value) ? value : [value]).map(shippingText).join(',');
          continue;
        }
        // An attribute given twice (RSS <title> and <g:title>) arrives as an array: the first one wins.
        const text = Array.isArray(value) ? value.find((entry) => typeof entry === 'string') : value;
        if (typeof text === 'string') fields[attributeName(name)] ??= text;
      }
    }
    yield { position, fields };
  }
}

function shippingText(entry: unknown): string {
  if (typeof entry === 'string') return entry;
  if (typeof entry !== 'object' || entry === null) return '';
  const part = (key: string): string => {
    const value = (entry as Record<string, unknown>)[key];
    return typeof value === 'string' ? value : '';
  };
  return `${part('country')}:${part('region')}:${part('service')}:${part('price')}`;
}

function itemsOf(document: unknown): readonly unknown[] | undefined {
  if (typeof document !== 'object' || document === null || !('rss' in document)) return undefined;
  const rss = document.rss;
  if (typeof rss !== 'object' || rss === null || !('channel' in rss)) return undefined;
  const channel = rss.channel;
  if (channel === '') return [];
  if (typeof channel !== 'object' || channel === null) return undefined;
  const items = 'item' in channel ? channel.item : [];
  return Array.isArray(items) ? items : [];
}
