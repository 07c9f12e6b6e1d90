/**
 * @module
 * One product of a Google Merchant Center feed, checked against the attributes the catalogue needs. A bad
 * row is rejected with a reason the import command prints; it never stops the import.
 */
import { type Condition, isCondition } from '../../listing/listing.js';
import { isNetworkId, type NetworkId } from '../../listing/networks.js';
import { type Pence, penceFromDecimal } from '../../money/pence.js';

/** A raw feed row: attribute name (lower case, without the `g:` prefix) to text, and where it came from. */
export interface FeedRow {
  /** 1-based line (TSV) or item number (XML), for error messages. */
  readonly position: number;
  readonly fields: Readonly<Record<string, string>>;
  /** Bytes of the file read so far, for progress (streamed formats only). */
  readonly bytesRead?: number;
}

/** GMC availability values; only `in_stock` products are offered to searches. */
export const AVAILABILITIES = ['in_stock', 'out_of_stock', 'preorder', 'backorder'] as const;
export type Availability = (typeof AVAILABILITIES)[number];

/** A product accepted into the catalogue. */
export interface CatalogueItem {
  readonly itemId: string;
  readonly network: NetworkId;
  readonly title: string;
  readonly brand: string;
  readonly category: string;
  readonly url: string;
  readonly pricePence: Pence;
  readonly condition: Condition;
  readonly availability: Availability;
  readonly gtin?: string | undefined;
  readonly mpn?: string | undefined;
  readonly imageUrl?: string | undefined;
  /** Delivery to the UK, when the feed states it (`shipping`). */
  readonly shippingPence?: Pence | undefined;
}

/** Why a row was refused. */
export interface RowRejection {
  readonly position: number;
  readonly itemId: string | undefined;
  readonly reason: string;
}

export type RowCheck = { readonly ok: true; readonly item: CatalogueItem } | ({ readonly ok: false } & RowRejection);

const PRICE = /^(\d+(?:\.\d{1,2})?)\s*([A-Za-z]{3})$/;

/**
 * Checks one row. `defaultNetwork` applies when the row has no `network` column (our one extension to the
 * GMC attributes: a feed belongs to one merchant, but the demo feed mixes marketplaces).
 */
export function checkFeedRow(row: FeedRow, defaultNetwork: NetworkId | undefined): RowCheck {
  const field = (name: string): string => (row.fields[name] ?? '').trim();
  const itemId = field('id') || undefined;
  const reject = (reason: string): RowCheck => ({ ok: false, position: row.position, itemId, reason });

  if (itemId === undefined) return reject('missing id');
  if (itemId.length > 50) return reject('id longer than 50 characters');

  const title = field('title').replace(/\s+/g, ' ');
  if (title === '') return reject('missing title');
  if (title.length > 150) return reject('title longer than 150 characters');

  const url = field('link');
  if (url === '') return reject('missing link');
  if (!isHttpUrl(url)) return reject(`link is not an http(s) URL: ${truncate(url)}`);

  const priceText = field('price');
  if (priceText === '') return reject('missing price');
  const price = PRICE.exec(priceText);
  if (!price) return reject(`price is not "<amount> <currency>" with at most 2 decimals: ${truncate(priceText)}`);
  if ((price[2] ?? '').toUpperCase() !== 'GBP') return reject(`price currency is ${price[2]}, only GBP is accepted`);
  const pricePence = penceFromDecimal(price[1] ?? '');
  if (pricePence === undefined) return reject(`price out of range: ${priceText}`);
  if (pricePence === 0) return reject('price is zero');

  const availability = field('availability').toLowerCase().replace(/\s+/g, '_');
  if (availability === '') return reject('missing availability');
  if (!(AVAILABILITIES as readonly string[]).includes(availability)) {
    return reject(`unknown availability: ${truncate(availability)}`);
  }

  // GMC makes condition optional for new products only.
  const condition = field('condition').toLowerCase() || 'new';
  if (!isCondition(condition)) return reject(`unknown condition: ${truncate(condition)} (new, used or refurbished)`);

  const networkText = field('network').toLowerCase();
  const network = networkText === '' ? defaultNetwork : networkText;
  if (network === undefined) return reject('no network column and no --network given');
  if (!isNetworkId(network)) return reject(`unknown network: ${truncate(network)}`);

  const imageLink = field('image_link');
  const imageUrl = imageLink !== '' && isHttpUrl(imageLink) ? imageLink : undefined;
  const shippingText = field('shipping');
  let shippingPence: Pence | undefined;
  if (shippingText !== '') {
    shippingPence = readShipping(shippingText);
    if (shippingPence === undefined) return reject(`shipping is not "[GB:::]<amount> GBP": ${truncate(shippingText)}`);
  }

  return {
    ok: true,
    item: {
      itemId,
      network,
      title,
      brand: field('brand'),
      category: field('product_type') || field('google_product_category'),
      url,
      pricePence,
      condition,
      availability: availability as Availability,
      gtin: field('gtin') || undefined,
      mpn: field('mpn') || undefined,
      imageUrl,
      shippingPence,
    },
  };
}

// GMC's shipping attribute: "country:region:service:price" (the first GB entry, or one without a country),
// or a bare price.
function readShipping(text: string): Pence | undefined {
  const entries = text.split(',').map((entry) => entry.trim().split(':'));
  const entry = entries.find(
    (parts) => parts.length === 1 || ['gb', 'uk', ''].includes((parts[0] ?? '').toLowerCase()),
  );
  const price = entry === undefined ? undefined : PRICE.exec((entry[entry.length - 1] ?? '').trim());
  if (!price || (price[2] ?? '').toUpperCase() !== 'GBP') return undefined;
  return penceFromDecimal(price[1] ?? '');
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

function truncate(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
