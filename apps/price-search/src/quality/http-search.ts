/**
 * @module
 * The query set's search function over the HTTP API, in process (Hono's `app.request`, no socket): the same
 * validation, query understanding, ranking and wire shape a client gets. Used by the bench and the tests.
 */
import type { WireListing } from '../listing/listing.js';
import type { SearchAnswer, SearchFunction } from './query-set.js';

/** Anything that answers a Request like the app does (Hono's `app.request`). */
export interface RequestHandler {
  request(path: string, init: RequestInit): Response | Promise<Response>;
}

/** Sends each query as `{ query, max_results }` to `app` and reads the listings or the error code. */
export function httpSearch(app: RequestHandler, maxResults = 5): SearchFunction {
  return async (query: string): Promise<SearchAnswer> => {
    const response = await app.request('/api/query', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, max_results: maxResults }),
    });
    const body = (await response.json()) as unknown;
    if (!response.ok) {
      const code = (body as { error?: { code?: string } }).error?.code ?? `http_${response.status}`;
      return { ok: false, code };
    }
    return { ok: true, listings: body as WireListing[] };
  };
}
