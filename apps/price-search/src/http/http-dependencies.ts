/**
 * @module
 * What the HTTP layer needs from the composition. Routes see use cases and ports, never storage.
 */
import type { ProxyTrust } from '@drawdown/http-kit';
import type { BillingWebhookReceiver } from '../billing/billing-webhooks.js';
import type { FeedReport } from '../feeds/feed-refresher.js';
import type { StoredKey } from '../keys/key-store.js';
import type { CatalogueSource } from '../lookup/service-health.js';
import type { LookupMeter } from '../metering/lookup-meter.js';
import type { Plan } from '../metering/plans.js';
import type { RateLimiter } from '../metering/rate-limiter.js';
import type { ConnectorHealth } from '../search/connector-health.js';
import type { SearchEngine } from '../search/search-engine.js';
import type { Clock } from '../shared/clock.js';

/** Looks up API keys by their raw value. */
export interface KeyLookup {
  findByKey(rawKey: string): StoredKey | undefined;
}

/** Dependencies of the HTTP app. */
export interface HttpDependencies {
  readonly engine: SearchEngine;
  readonly health: ConnectorHealth;
  readonly meter: LookupMeter;
  readonly keys: KeyLookup;
  readonly rateLimiter: RateLimiter;
  readonly requestsPerMinute: Readonly<Record<Plan, number>>;
  readonly clock: Clock;
  /** How many proxies in front append to X-Forwarded-For; 0 trusts none. */
  readonly trustedProxies: ProxyTrust;
  readonly version: string;
  /** Where the catalogue's listings come from: the bundled demo feed, an imported file, or live feeds. */
  readonly catalogueSource?: CatalogueSource;
  /** The live feeds' freshness, when feeds are configured. */
  readonly feeds?: { report(): Promise<FeedReport[]> };
  /** Receives Drawdown's webhooks at POST /billing/webhooks; absent without billing. */
  readonly billingWebhook?: BillingWebhookReceiver;
}
