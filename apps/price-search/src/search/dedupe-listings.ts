/**
 * @module
 * Offers of one product are shown once. Two results are the same offer when they share a url, and offers of
 * the same product (the same title once the seller's condition note is removed, in any network or source) are
 * grouped: the first, best-ranked one stays and counts the others in `offers`, so a page shows different
 * products, each at its best offer, instead of one product from every retailer.
 */

import type { Listing } from '../listing/listing.js';
import { baseTitle } from '../listing/product-identity.js';
import { searchTextOf } from '../listing/search-text.js';

// Normalised forms of recent titles (the same listings come back across lookups).
const normalised = new Map<string, string>();
const TITLES_KEPT = 20_000;

/** Normalises a title for comparison: case, punctuation, accents and condition notes do not make another product. */
export function normaliseTitle(title: string): string {
  let text = normalised.get(title);
  if (text === undefined) {
    text = searchTextOf(baseTitle(title));
    normalised.set(title, text);
    if (normalised.size > TITLES_KEPT) normalised.delete(normalised.keys().next().value ?? '');
  }
  return text;
}

/** Keeps the first listing of each product, so rank before deduplicating to keep the better-ranked offer. */
export function dedupeListings(listings: readonly Listing[]): Listing[] {
  const seenUrls = new Set<string>();
  const kept = new Map<string, Listing>();
  for (const listing of listings) {
    if (seenUrls.has(listing.url)) continue;
    seenUrls.add(listing.url);
    const product = normaliseTitle(listing.product);
    const first = kept.get(product);
    if (first === undefined) {
      kept.set(product, listing);
    } else {
      kept.set(product, { ...first, offers: (first.offers ?? 1) + (listing.offers ?? 1) });
    }
  }
  return [...kept.values()];
}
