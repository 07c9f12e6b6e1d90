/**
 * @module
 * The request's constraints checked on every listing, whatever its source claimed to have filtered: eBay
 * answers an invalid filter with HTTP 200, a warning and unfiltered rows, so nothing is trusted.
 */
import type { Condition, Listing } from '../listing/listing.js';
import type { NetworkId } from '../listing/networks.js';
import type { Pence } from '../money/pence.js';

/** The constraints a listing must meet. */
export interface ListingConstraints {
  readonly networks: readonly NetworkId[];
  readonly minPence: Pence | undefined;
  readonly maxPence: Pence | undefined;
  readonly condition: Condition | undefined;
}

/** True when the listing meets every constraint. Prices are compared in whole pence. */
export function meetsConstraints(listing: Listing, constraints: ListingConstraints): boolean {
  if (!constraints.networks.includes(listing.network)) return false;
  if (constraints.maxPence !== undefined && listing.pricePence > constraints.maxPence) return false;
  if (constraints.minPence !== undefined && listing.pricePence < constraints.minPence) return false;
  if (constraints.condition !== undefined && listing.condition !== constraints.condition) return false;
  return true;
}
