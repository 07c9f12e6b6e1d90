/**
 * @module
 * The body of GET /health: an overall status, and per network and per source what the last calls showed.
 * Built from passive observations, so checking health never costs a marketplace request.
 */
import type { FeedReport } from '../feeds/feed-refresher.js';
import { NETWORKS, type NetworkId } from '../listing/networks.js';
import type { Connector } from '../search/connector.js';
import type { ConnectorHealth, ConnectorStatus } from '../search/connector-health.js';

/** Where the catalogue's listings come from: the bundled demo feed, an imported file, or live feeds. */
export type CatalogueSource = 'demo_feed' | 'imported' | 'live_feeds';

/** Status of a network: its sources' status, or `no_listings` when its only source, the catalogue, is empty. */
export type NetworkStatus = ConnectorStatus | 'no_listings';

/** The health body (snake_case on the wire, like the rest of the API). */
export interface HealthBody {
  readonly status: 'ok' | 'degraded' | 'down';
  readonly version: string;
  readonly time: string;
  readonly networks: ReadonlyArray<{
    readonly network: NetworkId;
    readonly status: NetworkStatus;
    readonly sources: readonly string[];
    readonly listings?: number;
  }>;
  readonly sources: ReadonlyArray<{
    readonly id: string;
    readonly status: ConnectorStatus;
    readonly networks: readonly NetworkId[];
    readonly last_success_at: string | null;
    readonly last_failure_at: string | null;
    readonly last_error: string | null;
    readonly consecutive_failures: number;
    readonly detail?: string;
  }>;
  /** Where catalogue listings come from, with a plain warning when they are only the bundled demo. */
  readonly catalogue: { readonly source: CatalogueSource; readonly notice: string | null };
  /** Each live feed's freshness (empty without feeds). */
  readonly feeds: readonly FeedReport[];
}

/** Said in /health and by service_status whenever only the bundled demo feed is served. */
export const DEMO_NOTICE =
  'Only the bundled demo feed is served: its listings are examples with links to example.co.uk, not live offers. ' +
  'Configure live feeds (serve --feeds) or eBay credentials for real listings.';

/** Builds the health body. */
export function describeHealth(input: {
  connectors: readonly Connector[];
  health: ConnectorHealth;
  version: string;
  now: Date;
  catalogueSource?: CatalogueSource;
  feeds?: readonly FeedReport[];
}): HealthBody {
  const sources = input.connectors.map((connector) => {
    const report = input.health.report(connector.id);
    const description = connector.describe?.() ?? {};
    return {
      connector,
      description,
      body: {
        id: connector.id,
        status: report.status,
        networks: connector.networks,
        last_success_at: report.lastSuccessAt ?? null,
        last_failure_at: report.lastFailureAt ?? null,
        last_error: report.lastError ?? null,
        consecutive_failures: report.consecutiveFailures,
        ...(description.detail === undefined ? {} : { detail: description.detail }),
      },
    };
  });

  const networks = NETWORKS.map((network) => {
    const serving = sources.filter((source) => source.connector.networks.includes(network));
    const statuses = serving.map((source) => source.body.status);
    const listingCounts = serving
      .map((source) => source.description.listingsByNetwork)
      .filter((counts) => counts !== undefined);
    const listings =
      listingCounts.length === 0 ? undefined : listingCounts.reduce((sum, counts) => sum + (counts[network] ?? 0), 0);
    let status: NetworkStatus = statuses.includes('failing') ? 'failing' : statuses.includes('ok') ? 'ok' : 'unknown';
    if (status !== 'failing' && serving.length === listingCounts.length && listings === 0) status = 'no_listings';
    return {
      network,
      status,
      sources: serving.map((source) => source.body.id),
      ...(listings === undefined ? {} : { listings }),
    };
  });

  const live = networks.filter((network) => network.status !== 'no_listings');
  const failing = live.filter((network) => network.status === 'failing').length;
  const status = live.length > 0 && failing === live.length ? 'down' : failing > 0 ? 'degraded' : 'ok';
  return {
    status,
    version: input.version,
    time: input.now.toISOString(),
    networks,
    sources: sources.map((source) => source.body),
    catalogue: {
      source: input.catalogueSource ?? 'imported',
      notice: input.catalogueSource === 'demo_feed' ? DEMO_NOTICE : null,
    },
    feeds: input.feeds ?? [],
  };
}
