/**
 * @module
 * Two results are the same listing when they share a url, or when the same network shows the same title at
 * the same price (a marketplace listing reached through two sources, or a feed imported twice under two ids).
 */
import type { Listing } from '../listing/listing.js';

/** Normalises a title for comparison: case, punctuation and spacing do not make two listings different. */
export function normaliseTitle(title: string): string {
  return title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** Keeps the first occurrence of each listing, so rank before deduplicating to keep the better-ranked copy. */
export function dedupeListings(listings: readonly Listing[]): Listing[] {
  const seenUrls = new Set<string>();
  const seenOffers = new Set<string>();
  const kept: Listing[] = [];
  for (const listing of listings) {
    const offer = `${listing.network}\u0000${normaliseTitle(listing.product)}\u0000${listing.pricePence}`;
    if (seenUrls.has(listing.url) || seenOffers.has(offer)) continue;
    seenUrls.add(listing.url);
    seenOffers.add(offer);
    kept.push(listing);
  }
  return kept;
}
