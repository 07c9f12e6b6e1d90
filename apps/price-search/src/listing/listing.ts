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

/** A listing on the wire (HTTP response element and MCP structured output). */
export interface WireListing {
  readonly product: string;
  readonly price: number;
  readonly currency: 'GBP';
  readonly condition: 'New' | 'Used' | 'Refurbished';
  readonly network: NetworkId;
  readonly url: string;
}

/** Converts a listing to its wire form; the only place pence become pounds. */
export function toWireListing(listing: Listing): WireListing {
  return {
    product: listing.product,
    price: poundsFromPence(listing.pricePence),
    currency: 'GBP',
    condition: conditionLabels[listing.condition],
    network: listing.network,
    url: listing.url,
  };
}
