/**
 * @module
 * One lookup: every connector serving a requested network is called in parallel under its own deadline; the
 * answers are re-filtered, ranked, de-duplicated and cut to the requested count. A failing or slow connector
 * is recorded in health and left out; the lookup fails only when every connector failed.
 */
import type { Listing } from '../listing/listing.js';
import type { NetworkId } from '../listing/networks.js';
import type { ParsedQuery } from '../query/parse-query.js';
import type { Connector } from './connector.js';
import type { ConnectorHealth } from './connector-health.js';
import { dedupeListings, normaliseTitle } from './dedupe-listings.js';
import { meetsConstraints } from './listing-filter.js';
import { rankListings } from './rank-listings.js';
import { runWithDeadline } from './run-with-deadline.js';

/** A lookup, after validation and query understanding. */
export interface SearchRequest {
  readonly parsed: ParsedQuery;
  readonly networks: readonly NetworkId[];
  readonly maxResults: number;
}

/** What one connector did during a lookup. */
export interface ConnectorRun {
  readonly connectorId: string;
  readonly networks: readonly NetworkId[];
  readonly ok: boolean;
  readonly error: string | undefined;
}

/** The answer to a lookup. */
export interface SearchOutcome {
  readonly listings: readonly Listing[];
  readonly runs: readonly ConnectorRun[];
  /** Networks whose every connector answered. */
  readonly networksSearched: readonly NetworkId[];
  /** Networks with at least one connector that failed or timed out. */
  readonly networksFailed: readonly NetworkId[];
}

/** Options of the engine. */
export interface SearchEngineOptions {
  readonly connectors: readonly Connector[];
  readonly health: ConnectorHealth;
  /** Deadline per connector id, in milliseconds. */
  readonly deadlinesMs: Readonly<Record<string, number>>;
  /** Deadline for connectors without an entry in `deadlinesMs`. */
  readonly defaultDeadlineMs: number;
  /** Milliseconds of a monotonic clock, for the cached answers' ages (default `performance.now`). */
  readonly now?: () => number;
}

// Connectors are asked for more than the page so that re-filtering and de-duplication still leave a full page.
const OVERFETCH = 2;
// Answers kept for repeated lookups (shoppers and agents repeat popular queries; the client rules retry).
const CACHE_ENTRIES = 2_000;

// The cache key's part from the parsed query, kept per parsed object (a repeated text is parsed once, see
// run-lookup.ts, and its parsed form is the same object).
const parsedKeys = new WeakMap<ParsedQuery, string>();

function keyOfParsed(parsed: ParsedQuery): string {
  let key = parsedKeys.get(parsed);
  if (key === undefined) {
    key = JSON.stringify([parsed.terms, parsed.budget, parsed.condition ?? null, parsed.sort, parsed.compared ?? null]);
    parsedKeys.set(parsed, key);
  }
  return key;
}

/**
 * True when an answer `age` milliseconds old may still be served: every source it touched allows that age (ADR
 * 0229: each answer expires by its own age, not all at once).
 */
function isYoungEnough(age: number, selected: ReadonlyArray<{ connector: Connector }>): boolean {
  for (const { connector } of selected) {
    if (connector.answersMaxAgeMs !== undefined && age >= connector.answersMaxAgeMs) return false;
  }
  return true;
}

/**
 * True when every listing is an offer of one product (the query names it; the catalogue then answers with each
 * offer, product-grouping.ts): they are shown one listing per offer, cheapest first, for comparison (issue 38,
 * ADR 0238).
 */
function comparesOffers(listings: readonly Listing[]): boolean {
  const [first] = listings;
  if (first === undefined || listings.length < 2) return false;
  const product = normaliseTitle(first.product);
  return listings.every((listing) => normaliseTitle(listing.product) === product);
}

/** The listings with each url once (the same offer from two sources). */
function offersOnce(listings: readonly Listing[]): Listing[] {
  const seen = new Set<string>();
  return listings.filter((listing) => !seen.has(listing.url) && seen.add(listing.url) !== undefined);
}

/** Runs lookups across connectors. */
export class SearchEngine {
  readonly #cache = new Map<string, { stamp: string; at: number; outcome: SearchOutcome }>();

  constructor(private readonly options: SearchEngineOptions) {}

  /** The connectors, for /health. */
  get connectors(): readonly Connector[] {
    return this.options.connectors;
  }

  /**
   * Performs one lookup. When every source involved is cacheable (see `Connector.cacheStamp`), an identical
   * lookup made since the sources last changed is answered from memory; a lookup touching a live marketplace
   * always asks it.
   */
  async search(request: SearchRequest, options: { readonly synthetic?: boolean } = {}): Promise<SearchOutcome> {
    const { parsed, networks, maxResults } = request;
    const selected = this.options.connectors
      .map((connector) => ({ connector, networks: connector.networks.filter((network) => networks.includes(network)) }))
      .filter((entry) => entry.networks.length > 0);
    // A synthetic lookup (the start-up warm-up, ADR 0222) neither reads nor fills the result cache and leaves
    // the connectors' health as it was.
    if (options.synthetic === true) return this.#search(request, selected, false);
    const stamps = selected.map((entry) => entry.connector.cacheStamp?.());
    if (stamps.some((stamp) => stamp === undefined)) return this.#search(request, selected);
    const stamp = stamps.join('|');
    const key = `${keyOfParsed(parsed)}|${networks.join(',')}|${maxResults}`;
    const now = this.options.now?.() ?? performance.now();
    const cached = this.#cache.get(key);
    if (cached !== undefined && cached.stamp === stamp && isYoungEnough(now - cached.at, selected)) {
      // Refresh the entry's place in the eviction order.
      this.#cache.delete(key);
      this.#cache.set(key, cached);
      return cached.outcome;
    }
    const outcome = await this.#search(request, selected);
    if (outcome.networksFailed.length === 0) {
      this.#cache.delete(key);
      this.#cache.set(key, { stamp, at: now, outcome });
      if (this.#cache.size > CACHE_ENTRIES) this.#cache.delete(this.#cache.keys().next().value ?? '');
    }
    return outcome;
  }

  /** Answers held for repeated lookups. */
  get cachedLookups(): number {
    return this.#cache.size;
  }

  /**
   * A comparison ("A vs B") is one lookup per side, with the same filters, answered together: the sides' results
   * in turn (A's first, B's first, A's second...), or cheapest first when the query asks, each product once.
   */
  async #search(
    request: SearchRequest,
    selected: ReadonlyArray<{ connector: Connector; networks: NetworkId[] }>,
    recordHealth = true,
  ): Promise<SearchOutcome> {
    const { parsed, networks, maxResults } = request;
    if (parsed.compared === undefined) return this.#searchOne(request, selected, recordHealth);
    const sides = await Promise.all(
      parsed.compared.map((terms) => {
        const { compared: _, ...side } = parsed;
        return this.#searchOne(
          { ...request, parsed: { ...side, terms, text: terms.join(' ') } },
          selected,
          recordHealth,
        );
      }),
    );
    const inTurn: Listing[] = [];
    const longest = Math.max(...sides.map((side) => side.listings.length));
    for (let index = 0; index < longest; index += 1) {
      for (const side of sides) {
        const listing = side.listings[index];
        if (listing !== undefined) inTurn.push(listing);
      }
    }
    const ordered = parsed.sort === 'price_asc' ? [...inTurn].sort((a, b) => a.pricePence - b.pricePence) : inTurn;
    const failed = new Set(sides.flatMap((side) => side.networksFailed));
    return {
      listings: dedupeListings(ordered).slice(0, maxResults),
      runs: sides.flatMap((side) => side.runs),
      networksSearched: networks.filter(
        (network) => !failed.has(network) && sides.every((side) => side.networksSearched.includes(network)),
      ),
      networksFailed: networks.filter((network) => failed.has(network)),
    };
  }

  async #searchOne(
    request: SearchRequest,
    selected: ReadonlyArray<{ connector: Connector; networks: NetworkId[] }>,
    recordHealth: boolean,
  ): Promise<SearchOutcome> {
    const { parsed, networks, maxResults } = request;

    const runs = await Promise.all(
      selected.map(async ({ connector, networks: served }) => {
        const deadlineMs = this.options.deadlinesMs[connector.id] ?? this.options.defaultDeadlineMs;
        try {
          const listings = await runWithDeadline(
            (signal) =>
              connector.search(
                {
                  terms: parsed.terms,
                  text: parsed.text,
                  networks: served,
                  minPence: parsed.budget.minPence,
                  maxPence: parsed.budget.maxPence,
                  condition: parsed.condition,
                  sort: parsed.sort,
                  limit: maxResults * OVERFETCH,
                },
                signal,
              ),
            deadlineMs,
          );
          if (recordHealth) this.options.health.record(connector.id, { ok: true });
          return { run: { connectorId: connector.id, networks: served, ok: true, error: undefined }, listings };
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          if (recordHealth) this.options.health.record(connector.id, { ok: false, error: message });
          return { run: { connectorId: connector.id, networks: served, ok: false, error: message }, listings: [] };
        }
      }),
    );

    const constraints = {
      networks,
      minPence: parsed.budget.minPence,
      maxPence: parsed.budget.maxPence,
      condition: parsed.condition,
    };
    const candidates = runs
      .flatMap((entry) => entry.listings)
      .filter((listing) => meetsConstraints(listing, constraints));
    const listings = comparesOffers(candidates)
      ? offersOnce(rankListings(candidates, 'price_asc')).slice(0, maxResults)
      : dedupeListings(rankListings(candidates, parsed.sort)).slice(0, maxResults);

    const failed = new Set(runs.filter((entry) => !entry.run.ok).flatMap((entry) => entry.run.networks));
    const searched = new Set(runs.flatMap((entry) => entry.run.networks).filter((network) => !failed.has(network)));
    return {
      listings,
      runs: runs.map((entry) => entry.run),
      networksSearched: networks.filter((network) => searched.has(network)),
      networksFailed: networks.filter((network) => failed.has(network)),
    };
  }
}
