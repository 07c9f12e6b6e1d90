/**
 * @module
 * What every resource client shares: one HTTP client, and reading `data` out of an envelope.
 */
import { Collection, type ItemReader } from '../core/collection.js';
import type { ApiRequest, HttpClient, RequestOptions } from '../core/http-client.js';
import type { QueryParams } from '../core/query.js';
import { fromWire } from '../core/wire-case.js';

export abstract class Resource {
  /** @internal */
  constructor(protected readonly http: HttpClient) {}

  /** Sends a request and returns its `data` in TypeScript form. */
  protected async data<T>(request: ApiRequest): Promise<T> {
    const response = await this.http.send(request);
    return fromWire<T>(response.body?.data);
  }

  /** A lazily paged list at `path`. */
  protected collection<T>(
    path: string,
    query: object | undefined,
    options: RequestOptions | undefined,
    read?: ItemReader<T>,
  ): Collection<T> {
    return new Collection<T>(this.http, { method: 'GET', path, query: query as QueryParams, ...options }, read);
  }
}

/** Encodes an id for a path segment, so a hostile id cannot reach another path. */
export function segment(id: string): string {
  return encodeURIComponent(id);
}
