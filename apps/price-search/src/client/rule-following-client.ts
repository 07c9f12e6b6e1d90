/**
 * @module
 * The seed's client rules, built in: when results are empty, retry once with a broader query (the budget still
 * applies, as max_price); after two consecutive failed calls, check the health endpoint and report what it says.
 */
import type { WireListing } from '../listing/listing.js';
import { poundsFromPence } from '../money/pence.js';
import { broadenQuery } from '../query/broaden-query.js';
import {
  PriceSearchApiError,
  type PriceSearchClient,
  type SearchProductsRequest,
  type SearchProductsResponse,
} from './price-search-client.js';

/** Listings and how they were found. */
export interface RuleFollowingResult {
  readonly results: readonly WireListing[];
  readonly meta: {
    readonly query: string;
    /** The query that produced `results`: the original one, or the broader retry. */
    readonly searched_query: string;
    readonly broadened: boolean;
    readonly returned: number;
    readonly networks_searched: readonly string[];
    readonly networks_failed: readonly string[];
  };
}

/** A failed search, with the health report when the rules called for one. */
export class SearchFailedError extends Error {
  override readonly name = 'SearchFailedError';
  constructor(
    message: string,
    readonly apiError: PriceSearchApiError,
    readonly healthSummary: string | undefined,
  ) {
    super(message);
  }
}

/** Consecutive failures after which health is checked. */
export const FAILURES_BEFORE_HEALTH_CHECK = 2;

/** Wraps a client with the client rules; keeps the failure count across calls. */
export class RuleFollowingClient {
  #consecutiveFailures = 0;

  constructor(private readonly client: PriceSearchClient) {}

  /** Searches, retrying once with a broader query when nothing is found. */
  async search(request: SearchProductsRequest): Promise<RuleFollowingResult> {
    const first = await this.#attempt(request);
    if (first.results.length > 0) return this.#result(request.query, request.query, false, first);

    const broader = broadenQuery(request.query);
    if (broader === undefined) return this.#result(request.query, request.query, false, first);
    const retry: SearchProductsRequest = {
      ...request,
      query: broader.query,
      ...(request.max_price === undefined && broader.maxPence !== undefined
        ? { max_price: poundsFromPence(broader.maxPence) }
        : {}),
    };
    const second = await this.#attempt(retry);
    return this.#result(request.query, broader.query, true, second);
  }

  async #attempt(request: SearchProductsRequest): Promise<SearchProductsResponse> {
    try {
      const response = await this.client.search(request);
      this.#consecutiveFailures = 0;
      return response;
    } catch (error) {
      if (!(error instanceof PriceSearchApiError)) throw error;
      // A refused request (bad input, quota, key) says nothing about the service's health.
      if (error.status !== 0 && error.status < 500) throw new SearchFailedError(error.message, error, undefined);
      this.#consecutiveFailures += 1;
      let healthSummary: string | undefined;
      if (this.#consecutiveFailures >= FAILURES_BEFORE_HEALTH_CHECK) {
        healthSummary = await this.#healthSummary();
        this.#consecutiveFailures = 0;
      }
      const message = healthSummary === undefined ? error.message : `${error.message} Health check: ${healthSummary}`;
      throw new SearchFailedError(message, error, healthSummary);
    }
  }

  async #healthSummary(): Promise<string> {
    try {
      const health = await this.client.health();
      const failing = health.sources
        .filter((source) => source.status === 'failing')
        .map((source) => `${source.id} failing (${source.last_error ?? 'no detail'})`);
      return failing.length === 0 ? `service ${health.status}` : `service ${health.status}; ${failing.join('; ')}`;
    } catch (error) {
      return `health endpoint unavailable (${error instanceof Error ? error.message : String(error)})`;
    }
  }

  #result(query: string, searched: string, broadened: boolean, response: SearchProductsResponse): RuleFollowingResult {
    return {
      results: response.results,
      meta: {
        query,
        searched_query: searched,
        broadened,
        returned: response.results.length,
        networks_searched: response.networksSearched,
        networks_failed: response.networksFailed,
      },
    };
  }
}
