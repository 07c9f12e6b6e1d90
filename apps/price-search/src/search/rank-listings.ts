/**
 * @module
 * Ordering of merged results. Sources rank by different measures (BM25 for the catalogue, Best Match for eBay)
 * that cannot be compared, so relevance order interleaves sources by their own rank; a "cheapest" query
 * orders by price. Ties are broken deterministically so equal inputs give equal outputs.
 */
import type { Listing } from '../listing/listing.js';
import type { SortIntent } from '../query/parse-query.js';

/** Returns a new array in result order. */
export function rankListings(listings: readonly Listing[], sort: SortIntent): Listing[] {
  const byRelevance = (a: Listing, b: Listing): number => a.sourceRank - b.sourceRank || a.pricePence - b.pricePence;
  const byPrice = (a: Listing, b: Listing): number => a.pricePence - b.pricePence || a.sourceRank - b.sourceRank;
  const primary = sort === 'price_asc' ? byPrice : byRelevance;
  return [...listings].sort((a, b) => primary(a, b) || compareText(a.network, b.network) || compareText(a.url, b.url));
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
