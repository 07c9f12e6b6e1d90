/**
 * @module
 * The connector port: one marketplace source (the offline catalogue, a live marketplace API). The search
 * engine queries every connector that serves a requested network, in parallel, each under its own deadline.
 */
import type { Condition, Listing } from '../listing/listing.js';
import type { NetworkId } from '../listing/networks.js';
import type { Pence } from '../money/pence.js';
import type { SortIntent } from '../query/parse-query.js';

/** What a connector is asked for. Connectors may return more or less than asked; the engine re-filters. */
export interface ConnectorQuery {
  readonly terms: readonly string[];
  readonly text: string;
  /** The requested networks this connector serves (never empty). */
  readonly networks: readonly NetworkId[];
  readonly minPence: Pence | undefined;
  readonly maxPence: Pence | undefined;
  readonly condition: Condition | undefined;
  readonly sort: SortIntent;
  readonly limit: number;
}

/** A source of listings. */
export interface Connector {
  /** Stable identifier shown in /health, e.g. `catalogue` or `ebay_browse`. */
  readonly id: string;
  /** The networks this connector answers for. */
  readonly networks: readonly NetworkId[];
  /**
   * Returns listings matching the query, best first. Must stop work when `signal` aborts; throwing is how a
   * connector reports failure (the query still succeeds with the other connectors).
   */
  search(query: ConnectorQuery, signal: AbortSignal): Promise<readonly Listing[]>;
  /**
   * For sources whose answers only change when their data does (the catalogue): a stamp that changes with the
   * data. The engine caches answers under it. Live marketplace connectors leave it out and are always asked.
   */
  cacheStamp?(): string;
  /**
   * For cacheable sources that cannot see every change to their data (a PostgreSQL catalogue that other service
   * instances write to): a cached answer older than this many milliseconds is computed again.
   */
  readonly answersMaxAgeMs?: number | undefined;
  /** Static facts for /health, such as the number of catalogue listings per network. */
  describe?(): ConnectorDescription;
}

/** What a connector says about itself in /health. */
export interface ConnectorDescription {
  readonly listingsByNetwork?: Readonly<Partial<Record<NetworkId, number>>>;
  readonly detail?: string;
}
