/**
 * @module
 * The billing portal deployed on its own (ADR 1523): the demo's pages over one environment of a
 * billing service, with no demo data and no passwords. Customers come in through customer portal
 * session links (`POST /customer-portal-sessions`, which the seller's application calls and whose
 * URLs lead here); a link starts a server-side session for its customer. Nothing is seeded and
 * nothing is written at start.
 */
import { Drawdown } from '@drawdown/sdk';
import { createPortalSite, listenPortalSite } from '../site/portal-site.js';

export interface PortalServerOptions {
  /** The billing service's API address of the environment the key belongs to (live or sandbox). */
  readonly billingUrl: string;
  /** The portal's API key (`pdl_live_apikey_…` or `pdl_sdbx_apikey_…`), with the permissions the README lists. */
  readonly apiKey: string;
  /** Default 3000; 0 picks a free port. */
  readonly port?: number;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /**
   * The address customers use, when it differs from `http://host:port` (behind an https proxy:
   * cookies become Secure and `__Host-`). The billing service's portal URL is this plus `/billing`.
   */
  readonly publicUrl?: string;
  /** Where a visitor without a session is sent from `/`: the seller's page that hands out portal links. */
  readonly signInUrl?: string;
  /** Customers may pause and resume their subscriptions (off by default, ADR 1441). */
  readonly allowPause?: boolean;
  readonly maxSessions?: number;
  readonly maxSessionsPerOwner?: number;
  readonly log?: (line: string) => void;
}

export interface PortalServer {
  readonly url: string;
  readonly localUrl: string;
  readonly environment: 'live' | 'sandbox';
  close(): Promise<void>;
}

/** The environment an API key belongs to, from its prefix; undefined for text that is no key. */
export function keyEnvironment(key: string): 'live' | 'sandbox' | undefined {
  if (/^pdl_live_apikey_[A-Za-z0-9_]+$/.test(key)) return 'live';
  if (/^pdl_sdbx_apikey_[A-Za-z0-9_]+$/.test(key)) return 'sandbox';
  return undefined;
}

/**
 * Starts the standalone portal and prints its address.
 *
 * @example
 * const portal = await startPortalServer({ billingUrl: 'http://127.0.0.1:8080', apiKey, port: 3000 });
 */
export async function startPortalServer(options: PortalServerOptions): Promise<PortalServer> {
  const log = options.log ?? ((line: string) => console.log(line));
  const environment = keyEnvironment(options.apiKey);
  if (!environment)
    throw new TypeError('The API key is not a Drawdown API key (pdl_live_apikey_… or pdl_sdbx_apikey_…).');
  const client = new Drawdown(options.apiKey, { baseUrl: options.billingUrl });
  const site = createPortalSite({
    client,
    // A sandbox portal shows its customers what the sandbox would have mailed them.
    ...(environment === 'sandbox' ? { capturedMail: { billingUrl: options.billingUrl, key: options.apiKey } } : {}),
    signInUrl: options.signInUrl,
    ...(options.allowPause ? { selfService: { pause: true } } : {}),
    maxSessions: options.maxSessions,
    maxSessionsPerOwner: options.maxSessionsPerOwner,
    publicUrl: options.publicUrl,
    log,
  });
  const listening = await listenPortalSite(site, {
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 3000,
    publicUrl: options.publicUrl,
  });
  log(`Billing portal (${environment}): ${listening.url}/`);
  log(`Point the billing service's --${environment}-portal-url at ${listening.url}/billing`);
  return { url: listening.url, localUrl: listening.localUrl, environment, close: listening.close };
}
