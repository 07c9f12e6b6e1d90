/**
 * @module
 * A lazily paged list. Nothing is fetched until `next()` or iteration asks for a page; each page
 * follows `meta.pagination.next`. The next page is requested on this client's own base URL and
 * list path with the query string of `next` (the original query plus `after=<last id>`), so the
 * API key never travels to a host other than the configured one, and a service that advertises
 * another host name (`localhost` for `127.0.0.1`, or an address behind a proxy) still pages (ADR 0604).
 */
import type { ApiRequest, HttpClient, WirePagination } from './http-client.js';
import { fromWire } from './wire-case.js';

/** Converts one wire item into its TypeScript form. */
export type ItemReader<T> = (wire: unknown) => T;

/**
 * One list call's pages.
 *
 * @example
 * for await (const price of drawdown.prices.list({ productId: ['pro_…'] })) console.log(price.id);
 *
 * const page = drawdown.transactions.list({ customerId: [id], perPage: 10 });
 * const first = await page.next(); // page.hasMore, page.estimatedTotal
 */
export class Collection<T> implements AsyncIterable<T> {
  #pendingQuery: string;
  #lastQuery: string | null = null;
  #hasMore = true;
  #estimatedTotal = -1;
  #perPage: number | null = null;

  /** @internal Resource methods build collections; callers receive them. */
  constructor(
    private readonly http: HttpClient,
    private readonly request: ApiRequest & { readonly method: 'GET' },
    private readonly read: ItemReader<T> = (wire) => fromWire<T>(wire),
  ) {
    const url = new URL(http.url(request.path, request.query));
    this.#pendingQuery = url.search;
  }

  /** Whether another page may follow. True before the first page is fetched. */
  get hasMore(): boolean {
    return this.#hasMore;
  }

  /**
   * The service's count of all matching items: exact up to 100000, `100001` above that, and `-1`
   * when not counted or before the first page.
   */
  get estimatedTotal(): number {
    return this.#estimatedTotal;
  }

  /** The page size the service used for the last page; null before the first page. */
  get perPage(): number | null {
    return this.#perPage;
  }

  /** Fetches the next page; an empty array once `hasMore` is false. */
  async next(): Promise<T[]> {
    if (!this.#hasMore) return [];
    const path = this.request.path.split('?')[0] ?? this.request.path;
    const query = this.#pendingQuery;
    const response = await this.http.send({
      ...this.request,
      path: `${path}${query}`,
      query: {},
    });
    this.#lastQuery = query;
    const data = response.body?.data;
    const items = Array.isArray(data) ? data.map((item) => this.read(item)) : [];
    this.#apply(response.body?.meta?.pagination, items.length);
    return items;
  }

  #apply(pagination: WirePagination | undefined, count: number): void {
    // A list without pagination (or a page with nothing on it) is the last page.
    if (!pagination || count === 0) {
      this.#hasMore = false;
      if (pagination?.estimated_total !== undefined) this.#estimatedTotal = pagination.estimated_total;
      else if (this.#estimatedTotal === -1 && !pagination) this.#estimatedTotal = count;
      return;
    }
    this.#perPage = pagination.per_page ?? null;
    this.#estimatedTotal = pagination.estimated_total ?? -1;
    let nextQuery: string | null = null;
    if (pagination.next) {
      try {
        nextQuery = new URL(pagination.next, this.http.config.baseUrl).search;
      } catch {
        nextQuery = null;
      }
    }
    // A `next` that repeats the page just fetched would loop for ever; treat it as the end.
    this.#hasMore = pagination.has_more === true && nextQuery !== null && nextQuery !== this.#lastQuery;
    if (nextQuery !== null) this.#pendingQuery = nextQuery;
  }

  /** Iterates every item, fetching each page only when the previous one is used up. */
  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    while (this.#hasMore) {
      const items = await this.next();
      for (const item of items) yield item;
    }
  }
}
