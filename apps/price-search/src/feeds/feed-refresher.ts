/**
 * @module
 * Keeps live feeds current. Each feed is fetched on its schedule with a conditional request (If-None-Match and
 * If-Modified-Since from the last answer), so an unchanged feed costs a 304 and no import. A changed feed is
 * streamed to a temporary file (gzip undone), imported in batches (unchanged offers only record that they were
 * seen) and every offer of that feed the new file no longer lists is expired. A failed fetch keeps the listings
 * the feed had and is reported in /health with the time of the last success.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import type { Catalogue, FeedState } from '../catalogue/catalogue.js';
import { importFeed } from '../catalogue/import-feed.js';
import type { Clock } from '../shared/clock.js';
import type { FeedSource } from './feed-source.js';

/** What one refresh did. */
export type RefreshOutcome =
  | { readonly kind: 'unchanged' }
  | { readonly kind: 'imported'; readonly imported: number; readonly rejected: number; readonly expired: number }
  | { readonly kind: 'failed'; readonly error: string };

/** A feed's freshness, for /health. */
export interface FeedReport {
  readonly id: string;
  readonly network: string;
  readonly format: string;
  readonly status: 'ok' | 'stale' | 'failing' | 'never_fetched';
  readonly listings: number;
  readonly last_success_at: string | null;
  readonly last_changed_at: string | null;
  readonly last_attempt_at: string | null;
  readonly last_error: string | null;
  readonly refresh_minutes: number;
}

/** Options of the refresher. */
export interface FeedRefresherOptions {
  readonly store: Catalogue;
  readonly sources: readonly FeedSource[];
  readonly clock: Clock;
  readonly fetch?: typeof fetch;
  /** Time allowed for one download, in milliseconds (default 10 minutes). */
  readonly timeoutMs?: number;
}

/** Refreshes the configured feeds into the catalogue. */
export class FeedRefresher {
  readonly #running = new Map<string, Promise<RefreshOutcome>>();
  #timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: FeedRefresherOptions) {}

  get sources(): readonly FeedSource[] {
    return this.options.sources;
  }

  /** Refreshes one feed now; concurrent calls for the same feed share one refresh. */
  refresh(feedId: string): Promise<RefreshOutcome> {
    const source = this.options.sources.find((candidate) => candidate.id === feedId);
    if (source === undefined) return Promise.reject(new Error(`no feed "${feedId}"`));
    let running = this.#running.get(feedId);
    if (running === undefined) {
      running = this.#refresh(source).finally(() => this.#running.delete(feedId));
      this.#running.set(feedId, running);
    }
    return running;
  }

  /** Refreshes every feed whose last attempt is older than its interval. */
  async refreshDue(): Promise<void> {
    const now = this.options.clock.now().getTime();
    for (const source of this.options.sources) {
      const state = await this.options.store.feedState(source.id);
      const last = state?.lastAttemptAt == null ? undefined : Date.parse(state.lastAttemptAt);
      if (last === undefined || now - last >= source.refreshMinutes * 60_000) await this.refresh(source.id);
    }
  }

  /** Checks for due feeds every `everyMs` (and once at once) until `stop`. */
  start(everyMs = 60_000): void {
    if (this.#timer !== undefined) return;
    const tick = (): void => {
      this.refreshDue().catch((error: unknown) => console.error('price-search: feed refresh failed', error));
    };
    tick();
    this.#timer = setInterval(tick, everyMs);
    this.#timer.unref();
  }

  /** Stops the schedule and waits for refreshes in flight. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await Promise.allSettled([...this.#running.values()]);
  }

  /** Each feed's freshness. */
  async report(): Promise<FeedReport[]> {
    const counts = await this.options.store.countByFeed();
    const now = this.options.clock.now().getTime();
    const states = await Promise.all(this.options.sources.map((source) => this.options.store.feedState(source.id)));
    return this.options.sources.map((source, index) => {
      const state = states[index];
      const lastSuccess = state?.lastSuccessAt == null ? undefined : Date.parse(state.lastSuccessAt);
      let status: FeedReport['status'];
      if (lastSuccess === undefined) status = state?.lastError == null ? 'never_fetched' : 'failing';
      else if ((state?.consecutiveFailures ?? 0) > 0) status = 'failing';
      else status = now - lastSuccess > source.staleAfterMinutes * 60_000 ? 'stale' : 'ok';
      return {
        id: source.id,
        network: source.network,
        format: source.format,
        status,
        listings: counts[source.id] ?? 0,
        last_success_at: state?.lastSuccessAt ?? null,
        last_changed_at: state?.lastChangedAt ?? null,
        last_attempt_at: state?.lastAttemptAt ?? null,
        last_error: state?.lastError ?? null,
        refresh_minutes: source.refreshMinutes,
      };
    });
  }

  async #refresh(source: FeedSource): Promise<RefreshOutcome> {
    const { store, clock } = this.options;
    const started = clock.now();
    const previous: FeedState = (await store.feedState(source.id)) ?? {
      feedId: source.id,
      etag: null,
      lastModified: null,
      lastAttemptAt: null,
      lastSuccessAt: null,
      lastChangedAt: null,
      lastError: null,
      consecutiveFailures: 0,
    };
    const attempt = { ...previous, lastAttemptAt: started.toISOString() };
    const dir = await mkdtemp(join(tmpdir(), 'price-search-feed-'));
    try {
      const headers: Record<string, string> = {};
      if (previous.etag !== null) headers['if-none-match'] = previous.etag;
      if (previous.lastModified !== null) headers['if-modified-since'] = previous.lastModified;
      const response = await (this.options.fetch ?? fetch)(source.url, {
        headers,
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 600_000),
      });
      if (response.status === 304) {
        await response.body?.cancel();
        await store.saveFeedState({
          ...attempt,
          lastSuccessAt: started.toISOString(),
          lastError: null,
          consecutiveFailures: 0,
        });
        return { kind: 'unchanged' };
      }
      if (!response.ok || response.body === null) {
        await response.body?.cancel();
        throw new Error(`HTTP ${response.status} from the feed`);
      }
      const path = join(dir, 'feed');
      const gzipped = /gzip/i.test(response.headers.get('content-type') ?? '') || /\.gz(\?|$)/.test(source.url);
      const body = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>);
      if (gzipped) await pipeline(body, createGunzip(), createWriteStream(path));
      else await pipeline(body, createWriteStream(path));

      // Runs are numbered by start time: every offer this run lists is stamped with it, the rest expire.
      const run = started.getTime();
      const report = await importFeed(store, {
        path,
        format: source.format,
        network: source.network,
        origin: { feedId: source.id, run },
      });
      // An empty or wholly invalid download is a broken feed, not a retailer that sells nothing: keep the offers.
      if (report.imported === 0) {
        throw new Error(
          report.read === 0
            ? 'the feed had no rows'
            : `no valid rows among ${report.read} (first problem: ${report.rejections[0]?.reason})`,
        );
      }
      const expired = await store.expireFeed(source.id, run);
      await store.saveFeedState({
        ...attempt,
        etag: response.headers.get('etag'),
        lastModified: response.headers.get('last-modified'),
        lastSuccessAt: started.toISOString(),
        lastChangedAt: started.toISOString(),
        lastError: null,
        consecutiveFailures: 0,
      });
      return { kind: 'imported', imported: report.imported, rejected: report.rejected, expired };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await store.saveFeedState({
        ...attempt,
        lastError: message,
        consecutiveFailures: previous.consecutiveFailures + 1,
      });
      return { kind: 'failed', error: message };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}
