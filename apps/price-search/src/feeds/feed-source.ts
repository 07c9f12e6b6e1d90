/**
 * @module
 * Live product feeds an operator configures: where each is fetched from, in which format, for which network,
 * and how often. Read from a JSON file (`serve --feeds FILE` or `PRICE_SEARCH_FEEDS`):
 *
 * ```json
 * [{ "id": "argos-awin", "network": "argos_uk", "url": "https://productdata.awin.com/datafeed/download/…",
 *    "format": "awin_csv", "refresh_minutes": 360 }]
 * ```
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { FEED_FORMATS, type FeedFormat } from '../catalogue/feed/read-feed.js';
import { NETWORKS, type NetworkId } from '../listing/networks.js';

/** One configured feed. */
export interface FeedSource {
  /** Stable id, shown in /health; listings are expired per feed id. */
  readonly id: string;
  readonly network: NetworkId;
  readonly url: string;
  readonly format: FeedFormat;
  readonly refreshMinutes: number;
  /** A feed is stale (reported in /health) when its last success is older than this many minutes. */
  readonly staleAfterMinutes: number;
}

const FeedSourceJson = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,49}$/, 'lower-case letters, digits, "-" and "_"'),
  network: z.enum(NETWORKS),
  url: z.url({ protocol: /^https?$/ }),
  format: z.enum(FEED_FORMATS),
  refresh_minutes: z
    .int()
    .min(5)
    .max(7 * 24 * 60)
    .default(360),
  stale_after_minutes: z.int().min(5).optional(),
});

const FeedSourcesJson = z.array(FeedSourceJson).min(1);

/** Raised when the feed configuration is not valid. */
export class FeedConfigError extends Error {
  override readonly name = 'FeedConfigError';
}

/** Parses a feed configuration (the JSON array above). */
export function parseFeedSources(json: unknown): FeedSource[] {
  const result = FeedSourcesJson.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new FeedConfigError(`feed configuration: ${issue?.path.join('.')}: ${issue?.message}`);
  }
  const ids = new Set<string>();
  return result.data.map((entry) => {
    if (ids.has(entry.id)) throw new FeedConfigError(`feed configuration: feed id "${entry.id}" appears twice`);
    ids.add(entry.id);
    return {
      id: entry.id,
      network: entry.network,
      url: entry.url,
      format: entry.format,
      refreshMinutes: entry.refresh_minutes,
      staleAfterMinutes: entry.stale_after_minutes ?? entry.refresh_minutes * 3,
    };
  });
}

/** Reads and parses the feed configuration file at `path`. */
export function readFeedSources(path: string): FeedSource[] {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new FeedConfigError(`cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return parseFeedSources(json);
}
