/**
 * @module
 * A typed HTTP client of the price search API. It speaks the wire format only (it never imports the search
 * engine), so it works against any deployment of the service.
 */

import type { ErrorCode } from '../http/api-error.js';
import type { WireListing } from '../listing/listing.js';
import type { NetworkId } from '../listing/networks.js';
import type { HealthBody } from '../lookup/service-health.js';

/** A query as the API takes it. */
export interface SearchProductsRequest {
  readonly query: string;
  readonly max_results?: number;
  readonly max_price?: number;
  /** Price floor in pounds. */
  readonly min_price?: number;
  /** Listings are priced in GBP only; any other currency is refused (`unsupported_currency`). */
  readonly currency?: string;
  readonly networks?: readonly NetworkId[];
}

/** The listings and what the response headers said about them. */
export interface SearchProductsResponse {
  readonly results: readonly WireListing[];
  readonly networksSearched: readonly string[];
  readonly networksFailed: readonly string[];
  readonly quotaRemaining: number | undefined;
}

/** A call that did not return listings: an API error, or no answer at all (`status` 0). */
export class PriceSearchApiError extends Error {
  override readonly name = 'PriceSearchApiError';
  constructor(
    readonly status: number,
    readonly code: ErrorCode | 'unreachable' | 'unexpected_response',
    message: string,
    readonly retryAfterSeconds: number | undefined,
  ) {
    super(message);
  }
}

/** Options of the client. */
export interface PriceSearchClientOptions {
  /** e.g. http://127.0.0.1:8090 */
  readonly baseUrl: string;
  /** Sent as `Authorization: Bearer <key>`; omit for the free plan. */
  readonly apiKey?: string | undefined;
  /** Per-request timeout (default 10 s). */
  readonly timeoutMs?: number;
  readonly fetch?: typeof fetch;
}

/** Calls the price search API. */
export class PriceSearchClient {
  constructor(private readonly options: PriceSearchClientOptions) {}

  /** POST /api/query. Throws PriceSearchApiError on any failure. */
  async search(request: SearchProductsRequest): Promise<SearchProductsResponse> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    const response = await this.#call('/api/query', { method: 'POST', headers, body: JSON.stringify(request) });
    const body = await readBody(response);
    if (!response.ok) throw apiError(response, body);
    if (!Array.isArray(body))
      throw new PriceSearchApiError(response.status, 'unexpected_response', 'not an array', undefined);
    const list = (name: string): string[] =>
      (response.headers.get(name) ?? '').split(',').filter((entry) => entry !== '');
    const remaining = response.headers.get('x-quota-remaining');
    return {
      results: body as WireListing[],
      networksSearched: list('x-networks-searched'),
      networksFailed: list('x-networks-failed'),
      quotaRemaining: remaining === null ? undefined : Number(remaining),
    };
  }

  /** GET /health; a 503 (every network failing) is returned, not thrown, since it is a valid report. */
  async health(): Promise<HealthBody> {
    const response = await this.#call('/health', { method: 'GET', headers: { accept: 'application/json' } });
    const body = await readBody(response);
    if (!response.ok && response.status !== 503) throw apiError(response, body);
    if (typeof body !== 'object' || body === null || !('status' in body)) {
      throw new PriceSearchApiError(response.status, 'unexpected_response', 'health body without status', undefined);
    }
    return body as HealthBody;
  }

  async #call(path: string, init: RequestInit): Promise<Response> {
    const doFetch = this.options.fetch ?? fetch;
    try {
      return await doFetch(new URL(path, this.options.baseUrl), {
        ...init,
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new PriceSearchApiError(
        0,
        'unreachable',
        `The price search API at ${this.options.baseUrl} did not answer (${reason}).`,
        undefined,
      );
    }
  }
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function apiError(response: Response, body: unknown): PriceSearchApiError {
  const retryAfter = response.headers.get('retry-after');
  const retryAfterSeconds = retryAfter === null ? undefined : Number(retryAfter);
  if (typeof body === 'object' && body !== null && 'error' in body) {
    const error = body.error;
    if (typeof error === 'object' && error !== null && 'code' in error && 'message' in error) {
      return new PriceSearchApiError(
        response.status,
        error.code as ErrorCode,
        String(error.message),
        retryAfterSeconds,
      );
    }
  }
  return new PriceSearchApiError(response.status, 'unexpected_response', `HTTP ${response.status}`, retryAfterSeconds);
}
