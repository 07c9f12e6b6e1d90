/**
 * @module
 * A listing as connectors produce it (price in pence, condition as a closed set) and as the wire shows it
 * (price in pounds, a display condition, currency GBP).
 */
import { type Pence, poundsFromPence } from '../money/pence.js';
import type { NetworkId } from './networks.js';

/** The three conditions of Google Merchant Center feeds; every source is mapped onto them. */
export const CONDITIONS = ['new', 'used', 'refurbished'] as const;

export type Condition = (typeof CONDITIONS)[number];

const conditionLabels = { new: 'New', used: 'Used', refurbished: 'Refurbished' } as const satisfies Record<
  Condition,
  string
>;

/** Narrows a string to a condition. */
export function isCondition(value: string): value is Condition {
  return (CONDITIONS as readonly string[]).includes(value);
}

/** A normalised listing inside the service. */
export interface Listing {
  readonly product: string;
  readonly pricePence: Pence;
  readonly condition: Condition;
  readonly network: NetworkId;
  /** Purchase link exactly as the source gave it; never rewritten. */
  readonly url: string;
  /** Position in its source's own ordering (0 = the source's best match). */
  readonly sourceRank: number;
  readonly imageUrl?: string | undefined;
  /** Delivery to the UK; undefined when the source does not say. */
  readonly shippingPence?: Pence | undefined;
  /** Marketplace seller (eBay), not stored. */
  readonly seller?: string | undefined;
  /** The url carries the service's affiliate tracking. */
  readonly affiliate?: boolean | undefined;
  /** Matching offers of this product in its source (this one included). */
  readonly offers?: number | undefined;
}

/**
 * A listing on the wire (HTTP response element and MCP structured output): the seed's six fields, then the
 * shopper fields (additive; `null` where the source does not say).
 */
export interface WireListing {
  readonly product: string;
  readonly price: number;
  readonly currency: 'GBP';
  readonly condition: 'New' | 'Used' | 'Refurbished';
  readonly network: NetworkId;
  readonly url: string;
  /** Delivery to the UK in pounds; null when the source does not state it. */
  readonly delivery_cost: number | null;
  /** price + delivery_cost; null when the delivery cost is unknown. */
  readonly total_price: number | null;
  /** Only listings in stock are served. */
  readonly availability: 'in_stock';
  readonly image: string | null;
  /** The marketplace seller (eBay); null for a retailer's own offer. */
  readonly seller: string | null;
  /** How many matching offers of this product the source had (this, the best, included). */
  readonly offers: number;
  /** Present when `url` earns the service a commission: to be shown to the shopper. */
  readonly affiliate_disclosure: string | null;
}

/** The text shown with affiliate links. */
export const AFFILIATE_DISCLOSURE =
  'Affiliate link: the operator of this service may earn a commission if you buy through it, at no cost to you.';

// Tracking hosts of the large UK affiliate networks and the marketplaces' own programmes.
const AFFILIATE_HOSTS = [
  'awin1.com',
  'prf.hn',
  'click.linksynergy.com',
  'clk.tradedoubler.com',
  'track.webgains.com',
  'rover.ebay.com',
  'go.skimresources.com',
];

/** True when the url carries affiliate tracking (a network's redirect, Amazon's `tag`, eBay's `campid`). */
export function isAffiliateUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  const host = parsed.hostname.toLowerCase();
  if (AFFILIATE_HOSTS.some((known) => host === known || host.endsWith(`.${known}`))) return true;
  if (/(^|\.)amazon\.co\.uk$/.test(host) && parsed.searchParams.has('tag')) return true;
  if (/(^|\.)ebay\.co\.uk$/.test(host) && parsed.searchParams.has('campid')) return true;
  return false;
}

/** Converts a listing to its wire form; the only place pence become pounds. */
export function toWireListing(listing: Listing): WireListing {
  const shipping = listing.shippingPence;
  return {
    product: listing.product,
    price: poundsFromPence(listing.pricePence),
    currency: 'GBP',
    condition: conditionLabels[listing.condition],
    network: listing.network,
    url: listing.url,
    delivery_cost: shipping === undefined ? null : poundsFromPence(shipping),
    total_price: shipping === undefined ? null : poundsFromPence((listing.pricePence + shipping) as Pence),
    availability: 'in_stock',
    image: listing.imageUrl ?? null,
    seller: listing.seller ?? null,
    offers: listing.offers ?? 1,
    affiliate_disclosure: listing.affiliate === true || isAffiliateUrl(listing.url) ? AFFILIATE_DISCLOSURE : null,
  };
}
