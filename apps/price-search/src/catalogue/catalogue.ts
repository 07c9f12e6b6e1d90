/**
 * @module
 * The catalogue port: where offline and feed listings are kept and searched. Two adapters: SQLite with FTS5
 * (`CatalogueStore`, one file or memory) and PostgreSQL with full-text search (`PostgresCatalogue`, when one
 * machine is outgrown). Both read queries the same way (term-understanding.ts) and group offers by product.
 */
import type { Condition } from '../listing/listing.js';
import type { NetworkId } from '../listing/networks.js';
import type { Pence } from '../money/pence.js';
import type { SortIntent } from '../query/parse-query.js';
import type { CatalogueItem } from './feed/feed-record.js';

/**
 * Relevance is ranked among the first this many listings that pass a query's filters, in the order the index
 * finds them (both engines; ADRs 0212, 0216 and 0220). When a full window holds fewer products than the page
 * needs, every match is ranked instead. Cheapest-first ordering is always exact.
 */
export const CANDIDATE_CAP = 150;

/**
 * Cheapest first, or every match ranked: once a page has its products, this many more rows (in the page's order)
 * are read, so that other offers of the products shown are counted. A relevance window is read whole. Both
 * engines (ADR 0231).
 */
export const OFFER_LOOKAHEAD = 50;

/** A catalogue search. */
export interface CatalogueQuery {
  readonly terms: readonly string[];
  readonly networks: readonly NetworkId[];
  readonly minPence: Pence | undefined;
  readonly maxPence: Pence | undefined;
  readonly condition: Condition | undefined;
  readonly sort: SortIntent;
  /** Distinct products wanted: offers of one product across retailers count once (its best offer). */
  readonly limit: number;
}

/** The stored state of one live feed. Times are ISO 8601. */
export interface FeedState {
  readonly feedId: string;
  readonly etag: string | null;
  readonly lastModified: string | null;
  readonly lastAttemptAt: string | null;
  readonly lastSuccessAt: string | null;
  /** When the feed last answered with new content (not 304). */
  readonly lastChangedAt: string | null;
  readonly lastError: string | null;
  readonly consecutiveFailures: number;
}

/** A catalogue hit: the best offer of one product among the matches. */
export interface CatalogueHit {
  readonly title: string;
  readonly pricePence: Pence;
  readonly condition: Condition;
  readonly network: NetworkId;
  readonly url: string;
  readonly imageUrl: string | null;
  readonly shippingPence: Pence | null;
  readonly availability: string;
  /** Matching offers of the same product (this one included). */
  readonly offers: number;
}

/** What the start-up warm-up reads of a listing to make a query from it. */
export interface ListingSample {
  readonly title: string;
  readonly pricePence: Pence;
  readonly condition: Condition;
}

/** A catalogue engine. Methods may answer synchronously (SQLite) or not (PostgreSQL); callers await them. */
export interface Catalogue {
  /** The best offer of each matching product, best first, up to `query.limit` products. */
  search(query: CatalogueQuery): Promise<CatalogueHit[]>;
  /**
   * Inserts or replaces items (same network and id); `origin` stamps the live feed and run that saw them,
   * `importId` the import that wrote them (see `importedBy`).
   */
  upsert(
    items: readonly CatalogueItem[],
    origin?: { readonly feedId: string; readonly run: number },
    importId?: string,
  ): void | Promise<void>;
  /**
   * The keys (`network` NUL `itemId`) of `items` that import `importId` already wrote: a feed's repeated ids,
   * found in the catalogue itself so that an import's memory does not grow with the feed.
   */
  importedBy(importId: string, items: readonly CatalogueItem[]): Set<string> | Promise<Set<string>>;
  /** Removes the listings of `feedId` that run `run` did not see. */
  expireFeed(feedId: string, run: number): number | Promise<number>;
  /** Removes every listing. */
  clear(): void | Promise<void>;
  /** Listing counts per network, in stock or not; may be up to a minute old. */
  countByNetwork(): Partial<Record<NetworkId, number>>;
  /** Listings per live feed. */
  countByFeed(): Record<string, number> | Promise<Record<string, number>>;
  feedState(feedId: string): FeedState | undefined | Promise<FeedState | undefined>;
  saveFeedState(state: FeedState): void | Promise<void>;
  /** A stamp that changes whenever search results may have changed; results are cached under it. */
  cacheStamp(): string;
  /**
   * How long a cached result may live when `cacheStamp` cannot see every change (other instances writing to the
   * same PostgreSQL database); undefined when it sees them all (SQLite's data version).
   */
  readonly answersMaxAgeMs: number | undefined;
  /**
   * Builds now what the engine would otherwise build on its first lookups (the vocabulary, SQLite's listing
   * facts and merged full-text index, PostgreSQL's word table and planner statistics) and opens its connections: the start-up warm-up (ADR 0222) calls it before listening.
   */
  prepare(): void | Promise<void>;
  /**
   * Up to `count` in-stock listings spread evenly over the whole catalogue, in catalogue order (the same ones
   * every time while the catalogue is unchanged): the start-up warm-up makes its synthetic queries from them.
   */
  sampleListings(count: number): ListingSample[] | Promise<ListingSample[]>;
  /** Forgets every remembered probe answer (the warm-up's lookups leave nothing behind that answers a client's). */
  forgetAnswers(): void;
  close(): void | Promise<void>;
}
