/**
 * @module
 * Reads a Google Merchant Center feed, TSV or RSS 2.0 XML (`g:` namespace), as a stream of raw rows; every
 * format is streamed from the file, so an import's memory does not grow with the feed.
 * The format is taken from the first non-blank character: `<` is XML, anything else TSV.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { parse } from 'csv-parse';
import { SaxesParser } from 'saxes';
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
    yield* readXmlFeed(path);
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

/** The element name without its namespace prefix (`g:price` → `price`). */
function localName(name: string): string {
  return name.slice(name.indexOf(':') + 1);
}

const NOT_RSS = 'not an RSS 2.0 feed: no rss > channel element';

/**
 * Collects the items of an RSS 2.0 feed from SAX events, one item at a time: the direct children
 * of each `<item>` become its attributes (the first of a repeated name wins, as RSS `<title>` and
 * `<g:title>` can both be there); other nested elements are skipped, except GMC's nested shipping
 * (`<g:shipping><g:country>GB</g:country><g:price>3.95 GBP</g:price></g:shipping>`), which becomes
 * the TSV form "GB:::3.95 GBP", several entries comma-separated.
 */
class RssItems {
  readonly #path: string[] = [];
  readonly #ready: FeedRow[] = [];
  #channel = false;
  #position = 0;
  #fields: Record<string, string> | null = null;
  #shipping: string[] = [];
  #child: { name: string; text: string; nested: boolean; parts: Record<string, string> | null } | null = null;
  #part: { name: string; text: string } | null = null;

  open(name: string): void {
    const depth = this.#path.length;
    if (depth === 0 && name !== 'rss') throw new FeedFormatError(NOT_RSS);
    if (depth === 1 && name === 'channel') this.#channel = true;
    if (depth === 2 && name === 'item' && this.#path[1] === 'channel') {
      this.#fields = {};
      this.#shipping = [];
    } else if (depth === 3 && this.#fields) {
      const attribute = attributeName(name);
      this.#child = { name: attribute, text: '', nested: false, parts: attribute === 'shipping' ? {} : null };
    } else if (depth === 4 && this.#child) {
      this.#child.nested = true;
      if (this.#child.parts) this.#part = { name: attributeName(name), text: '' };
    }
    this.#path.push(name);
  }

  text(text: string): void {
    const depth = this.#path.length;
    if (depth === 4 && this.#child) this.#child.text += text;
    else if (depth === 5 && this.#part) this.#part.text += text;
  }

  close(): void {
    this.#path.pop();
    const depth = this.#path.length;
    if (depth === 4 && this.#part && this.#child?.parts) {
      this.#child.parts[this.#part.name] = this.#part.text.trim();
      this.#part = null;
    } else if (depth === 3 && this.#child && this.#fields) {
      const child = this.#child;
      if (child.parts) {
        const part = (key: string) => child.parts?.[key] ?? '';
        this.#shipping.push(
          child.nested ? `${part('country')}:${part('region')}:${part('service')}:${part('price')}` : child.text.trim(),
        );
      } else if (!child.nested) {
        this.#fields[child.name] ??= child.text.trim();
      }
      this.#child = null;
    } else if (depth === 2 && this.#fields) {
      if (this.#shipping.length > 0) this.#fields.shipping ??= this.#shipping.join(',');
      this.#position += 1;
      this.#ready.push({ position: this.#position, fields: this.#fields });
      this.#fields = null;
    }
  }

  /** The items completed since the last call. */
  take(): FeedRow[] {
    return this.#ready.splice(0);
  }

  /** Refuses a document that never had `rss > channel`. */
  finish(): void {
    if (!this.#channel) throw new FeedFormatError(NOT_RSS);
  }
}

/**
 * Streams the items of the RSS 2.0 feed at `path`: the file is read in chunks and parsed as it
 * arrives, so memory holds one chunk and the items of one chunk, never the whole feed.
 */
async function* readXmlFeed(path: string): AsyncGenerator<FeedRow> {
  const items = new RssItems();
  const parser = new SaxesParser();
  parser.on('opentag', (tag) => items.open(localName(tag.name)));
  parser.on('text', (text) => items.text(text));
  parser.on('cdata', (text) => items.text(text));
  parser.on('closetag', () => items.close());
  // A failure is raised after the items completed before it have been handed out.
  const parse = (step: () => void): FeedFormatError | undefined => {
    try {
      step();
      return undefined;
    } catch (error) {
      if (error instanceof FeedFormatError) return error;
      return new FeedFormatError(`not well-formed XML: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const decoder = new TextDecoder('utf-8', { ignoreBOM: false });
  let bytesRead = 0;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    bytesRead += chunk.length;
    const failure = parse(() => parser.write(decoder.decode(chunk, { stream: true })));
    for (const row of items.take()) yield { ...row, bytesRead };
    if (failure) throw failure;
  }
  const failure = parse(() => {
    parser.write(decoder.decode());
    parser.close();
  });
  for (const row of items.take()) yield { ...row, bytesRead };
  if (failure) throw failure;
  items.finish();
}
