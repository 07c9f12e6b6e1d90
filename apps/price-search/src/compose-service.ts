/**
 * @module
 * The one place that picks adapters: catalogue storage (a SQLite file or PostgreSQL), live connectors and
 * feeds, the state database, and metering: the local SQLite quotas, with Drawdown metering linked paid keys
 * when `drawdown` is configured (ADR 0206). It also builds the in-memory stand-in service that the start-up
 * warm-up sends its queries to over HTTP (ADR 0229).
 */
import type { ProxyTrust } from '@drawdown/http-kit';
import {
  createDrawdownBilling,
  type DrawdownBilling,
  type DrawdownBillingOptions,
} from './billing/drawdown-billing.js';
import type { Catalogue } from './catalogue/catalogue.js';
import { CATALOGUE_CONNECTOR_ID, createCatalogueConnector } from './catalogue/catalogue-connector.js';
import { CatalogueStore } from './catalogue/catalogue-store.js';
import { importFeed } from './catalogue/import-feed.js';
import { PostgresCatalogue } from './catalogue/postgres-catalogue.js';
import { createEbayBrowseConnector, EBAY_CONNECTOR_ID } from './ebay/ebay-browse-connector.js';
import { EbayTokenProvider } from './ebay/ebay-token-provider.js';
import { FeedRefresher } from './feeds/feed-refresher.js';
import type { FeedSource } from './feeds/feed-source.js';
import type { HttpDependencies } from './http/http-dependencies.js';
import { KeyStore } from './keys/key-store.js';
import { NETWORKS } from './listing/networks.js';
import { type WarmUpAsk, type WarmUpReport, warmUp } from './lookup/warm-up.js';
import { LocalLookupMeter } from './metering/local-lookup-meter.js';
import type { LookupMeter } from './metering/lookup-meter.js';
import { type Plan, REQUESTS_PER_MINUTE } from './metering/plans.js';
import { QuotaStore } from './metering/quota-store.js';
import { RateLimiter } from './metering/rate-limiter.js';
import type { Connector } from './search/connector.js';
import { ConnectorHealth } from './search/connector-health.js';
import { SearchEngine } from './search/search-engine.js';
import { type Clock, systemClock } from './shared/clock.js';
import { DEMO_FEED_PATH, PACKAGE_VERSION } from './shared/package-info.js';
import { openStateDatabase } from './shared/state-database.js';

/** eBay Browse API credentials. */
export interface EbayOptions {
  readonly clientId: string;
  readonly clientSecret: string;
  /** Defaults to https://api.ebay.com. */
  readonly baseUrl?: string;
  readonly affiliateCampaignId?: string;
}

/** Options of the service; every one has a default suitable for a local start. */
export interface ServiceOptions {
  /** Catalogue database file, or `:memory:`. */
  readonly cataloguePath?: string;
  /** A PostgreSQL URL: the catalogue lives there instead of in SQLite (`cataloguePath` is then not used). */
  readonly catalogueUrl?: string;
  /** Keys and quota database file, or `:memory:`. */
  readonly statePath?: string;
  /** Load the bundled demo feed when the catalogue is empty (default true without `feeds`, false with). */
  readonly demoFeed?: boolean;
  /** Live product feeds refreshed into the catalogue (see feeds/feed-source.ts). */
  readonly feeds?: readonly FeedSource[];
  readonly ebay?: EbayOptions | undefined;
  /** More live connectors; like eBay, each takes its networks away from the catalogue. */
  readonly extraConnectors?: readonly Connector[];
  /** Deadline per connector id in milliseconds (defaults: catalogue 1,000, others 2,500). */
  readonly deadlinesMs?: Readonly<Record<string, number>>;
  readonly clock?: Clock;
  readonly trustedProxies?: ProxyTrust;
  readonly requestsPerMinute?: Readonly<Record<Plan, number>>;
  readonly monthlyLookups?: Readonly<Record<Plan, number | undefined>>;
  /** Replaces the local SQLite quota meter (free clients and unlinked keys, also under `drawdown`). */
  readonly meter?: LookupMeter;
  /** Meters linked Pro and Scale keys through Drawdown (free clients and unlinked keys stay local). */
  readonly drawdown?: DrawdownBillingOptions | undefined;
}

/** A composed service. */
export interface PriceSearchService {
  readonly deps: HttpDependencies;
  readonly keys: KeyStore;
  readonly catalogue: Catalogue;
  /** The Drawdown meter, customer links and webhook receiver, when billing is configured. */
  readonly billing: DrawdownBilling | undefined;
  /** Refreshes the live feeds; `startPriceSearch` runs its schedule. Undefined without feeds. */
  readonly feeds: FeedRefresher | undefined;
  /**
   * Prepares the catalogue and runs synthetic lookups on it for at most `budgetMs` (0: nothing), metering
   * nothing and keeping no answer (ADR 0222): through the engine, or through `ask` (requests to a stand-in, ADR
   * 0229). `startPriceSearch` calls it before listening.
   */
  warmUp(budgetMs: number, ask?: WarmUpAsk): Promise<WarmUpReport>;
  /**
   * A stand-in of the service for the warm-up over HTTP (ADR 0229): the same catalogue, but its own search engine
   * (and result cache) and connector health, without live connectors, and its own key and quota store in memory
   * holding one key without limits. Nothing asked of it reaches this service's keys, quotas, usage reports, cache
   * or health; no marketplace is asked. Close it after use.
   */
  standIn(): StandInService;
  /** Closes the databases (a PostgreSQL catalogue's pool asynchronously). */
  close(): void | Promise<void>;
}

/** See `PriceSearchService.standIn`. */
export interface StandInService {
  readonly deps: HttpDependencies;
  /** The stand-in's one API key (Scale plan, no rate or monthly limit). */
  readonly key: string;
  close(): void;
}

/** Requests a minute and monthly lookups for every plan of a stand-in: no limit the warm-up could reach. */
const UNLIMITED_RATE: Readonly<Record<Plan, number>> = { free: 1e9, pro: 1e9, scale: 1e9 };
const UNLIMITED_LOOKUPS: Readonly<Record<Plan, number | undefined>> = {
  free: undefined,
  pro: undefined,
  scale: undefined,
};

const DEFAULT_DEADLINES_MS = { [CATALOGUE_CONNECTOR_ID]: 1_000 };
const DEFAULT_DEADLINE_MS = 2_500;

/** Builds the service from options. */
export async function composeService(options: ServiceOptions = {}): Promise<PriceSearchService> {
  const clock = options.clock ?? systemClock;
  const feedSources = options.feeds ?? [];
  const { catalogue, demo } = await openCatalogue(
    options.catalogueUrl ?? options.cataloguePath ?? ':memory:',
    options.demoFeed ?? feedSources.length === 0,
  );
  const stateDb = openStateDatabase(options.statePath ?? ':memory:');

  try {
    const liveConnectors: Connector[] = [...(options.extraConnectors ?? [])];
    if (options.ebay !== undefined) {
      const baseUrl = options.ebay.baseUrl ?? 'https://api.ebay.com';
      liveConnectors.push(
        createEbayBrowseConnector({
          baseUrl,
          tokens: new EbayTokenProvider({
            baseUrl,
            clientId: options.ebay.clientId,
            clientSecret: options.ebay.clientSecret,
            clock,
          }),
          affiliateCampaignId: options.ebay.affiliateCampaignId,
          onWarnings: (messages) =>
            console.error(`price-search: ${EBAY_CONNECTOR_ID} warnings: ${messages.join('; ')}`),
        }),
      );
    }
    // A live source replaces the catalogue for its networks: mixing hours-old feed prices with live ones for
    // the same marketplace would show the same item at two prices.
    const liveNetworks = new Set(liveConnectors.flatMap((connector) => connector.networks));
    const catalogueNetworks = NETWORKS.filter((network) => !liveNetworks.has(network));

    const deadlinesMs = { ...DEFAULT_DEADLINES_MS, ...options.deadlinesMs };
    const health = new ConnectorHealth(clock);
    // One connector object for the catalogue, the warm-up's stand-in's too: the code V8 compiles for calls into
    // it during the warm-up then stays right for the service's own lookups (ADR 0229).
    const catalogueConnector = createCatalogueConnector(catalogue, catalogueNetworks);
    const engine = new SearchEngine({
      connectors: [catalogueConnector, ...liveConnectors],
      health,
      deadlinesMs,
      defaultDeadlineMs: DEFAULT_DEADLINE_MS,
    });
    const feeds =
      feedSources.length === 0 ? undefined : new FeedRefresher({ store: catalogue, sources: feedSources, clock });
    const keys = new KeyStore(stateDb);
    const localMeter = options.meter ?? new LocalLookupMeter(new QuotaStore(stateDb), clock, options.monthlyLookups);
    const billing =
      options.drawdown === undefined
        ? undefined
        : createDrawdownBilling(options.drawdown, { stateDb, local: localMeter, clock });
    const meter = billing?.meter ?? localMeter;
    const requestsPerMinute = options.requestsPerMinute ?? REQUESTS_PER_MINUTE;
    const catalogueSource = feeds !== undefined ? 'live_feeds' : demo ? 'demo_feed' : 'imported';

    const standIn = (): StandInService => {
      const standInDb = openStateDatabase(':memory:');
      const standInKeys = new KeyStore(standInDb);
      const { key } = standInKeys.create({ plan: 'scale', label: 'warm-up stand-in', now: clock.now() });
      const standInHealth = new ConnectorHealth(clock);
      const standInMeter = new LocalLookupMeter(new QuotaStore(standInDb), clock, UNLIMITED_LOOKUPS);
      return {
        // The same shape as the service's own dependencies (one object shape for the routes' compiled code).
        deps: {
          engine: new SearchEngine({
            connectors: [catalogueConnector],
            health: standInHealth,
            deadlinesMs,
            defaultDeadlineMs: DEFAULT_DEADLINE_MS,
          }),
          health: standInHealth,
          meter: standInMeter,
          keys: standInKeys,
          rateLimiter: new RateLimiter(clock),
          requestsPerMinute: UNLIMITED_RATE,
          clock,
          trustedProxies: 0,
          version: PACKAGE_VERSION,
          catalogueSource,
        },
        key,
        close() {
          standInMeter.flush();
          standInDb.close();
        },
      };
    };

    return {
      deps: {
        engine,
        health,
        meter,
        keys,
        rateLimiter: new RateLimiter(clock),
        requestsPerMinute,
        clock,
        trustedProxies: options.trustedProxies ?? 0,
        version: PACKAGE_VERSION,
        catalogueSource,
        ...(feeds === undefined ? {} : { feeds }),
        ...(billing === undefined ? {} : { billingWebhook: billing.webhooks }),
      },
      keys,
      catalogue,
      billing,
      feeds,
      warmUp: (budgetMs, ask) => warmUp({ engine, catalogue, networks: catalogueNetworks, ask }, budgetMs),
      standIn,
      close() {
        // Answered lookups still waiting for their batch are written before the state database closes.
        if (localMeter instanceof LocalLookupMeter) localMeter.flush();
        stateDb.close();
        return catalogue.close();
      },
    };
  } catch (error) {
    stateDb.close();
    await catalogue.close();
    throw error;
  }
}

// The demo feed is parsed once per process; later in-memory catalogues start from a copy of the result.
let demoImage: Buffer | undefined;

/** Opens the catalogue at a SQLite path, `:memory:` or a PostgreSQL URL, loading the demo feed when asked and empty. */
async function openCatalogue(location: string, demoFeed: boolean): Promise<{ catalogue: Catalogue; demo: boolean }> {
  if (location === ':memory:' && demoFeed && demoImage !== undefined) {
    return { catalogue: CatalogueStore.fromImage(demoImage), demo: true };
  }
  const postgres = /^postgres(ql)?:\/\//.test(location);
  const catalogue = postgres ? await PostgresCatalogue.open(location) : CatalogueStore.open(location);
  try {
    if (demoFeed && Object.keys(catalogue.countByNetwork()).length === 0) {
      await importFeed(catalogue, { path: DEMO_FEED_PATH });
      if (location === ':memory:' && catalogue instanceof CatalogueStore) demoImage = catalogue.serialize();
      return { catalogue, demo: true };
    }
    return { catalogue, demo: false };
  } catch (error) {
    await catalogue.close();
    throw error;
  }
}
