/**
 * @module
 * The billing portal as a fetch handler that a host application mounts behind its own sign-in.
 * The customer id always comes from `resolveCustomerId` (the host's server-side session), never
 * from the request: a customer id in a query, body or header is never read (seed 001, rule 6).
 * Every subscription, transaction and adjustment an action names is checked to be that
 * customer's, as the service has it, before anything is done (`../portal/portal-operations.ts`).
 *
 * Routes under `basePath`, one module each in `routes/` (ADR 1446):
 * - `page.ts`: `GET /` the page (HTML); `?after=txn_…` starts after a cursor, for browsers without
 *   script; `POST /transactions/{id}/invoice` and `POST /adjustments/{id}/credit-note`, the
 *   buttons as plain form posts, answered with a page that links the PDF.
 * - `api.ts`: `GET /api/transactions[?after=txn_…]` (`{ data, hasMore, next }`),
 *   `POST /api/transactions/{id}/invoice` and `POST /api/adjustments/{id}/credit-note`
 *   (`{ data: { url } }`), `GET /api/usage` (`{ data }`); refusals as JSON.
 * - `subscriptions.ts` (ADR 1441): `GET /subscriptions/{id}/cancel` (confirmation), `POST …/cancel`,
 *   `POST …/keep` (undo a scheduled cancellation), `POST …/pause`, `POST …/keep-running`,
 *   `POST …/resume`, `GET …/change`, `GET …/change/preview?price_id&quantity`, `POST …/change`,
 *   `GET …/payment-method`; `POST /subscribe` (a customer with no plan picks one and is given
 *   the checkout to pay for it, ADR 0812).
 * - `billing-details.ts`: `POST /billing-details`.
 * - `session-links.ts`: `GET /session?token=…&action=…` a customer portal session link (ADR 1440,
 *   1443), handed to the host's `startSession`.
 * - `assets.ts`: `GET /assets/portal.js`, `GET /assets/portal.css`, `GET /assets/seller-logo`.
 */
import { Hono } from 'hono';
import { type Translate, translator } from '../portal/messages.js';
import type { PortalClient } from '../portal/portal-client.js';
import { NOT_AUTHENTICATED, NOT_FOUND, type PortalRefusal, Refused } from '../portal/portal-error.js';
import { createPortalOperations, type PortalSessionGrant } from '../portal/portal-operations.js';
import { renderMessagePage } from '../portal/render-page.js';
import { withSecurityHeaders } from '../portal/security-headers.js';
import { resolveSelfService, type SelfServiceOptions } from '../portal/self-service.js';
import { apiRoutes } from './routes/api.js';
import { portalAssets, registerAssetRoutes } from './routes/assets.js';
import { registerBillingDetailsRoutes } from './routes/billing-details.js';
import { registerPageRoutes } from './routes/page.js';
import { registerSessionLinkRoutes } from './routes/session-links.js';
import { registerSubscribeRoutes, registerSubscriptionRoutes } from './routes/subscriptions.js';

export type { PortalSessionGrant } from '../portal/portal-operations.js';

/** The host's answer to "who is signed in": undefined for nobody, null for a user without a customer record. */
export type ResolveCustomerId = (request: Request) => Promise<string | null | undefined>;

export interface BillingPortalOptions {
  /** A Drawdown SDK client with a server-side key; see `PortalClient` for the permissions each part needs. */
  readonly client: PortalClient;
  /** The signed-in user's customer id, from the host's server-side session. */
  readonly resolveCustomerId: ResolveCustomerId;
  /** Where the portal is mounted, such as `/billing`; the handler expects full request paths. Default `/`. */
  readonly basePath?: string;
  /** The host's CSRF token for this request; sent back as `X-CSRF-Token` (or `csrf_token` in forms) on POSTs. */
  readonly csrfToken?: (request: Request) => string | null | undefined | Promise<string | null | undefined>;
  /** Shown as a link on the "Not authenticated" page. */
  readonly signInUrl?: string;
  /** Shown as a "Sign out" button (a POST with the CSRF token). */
  readonly signOutUrl?: string;
  /**
   * The portal's public address, such as `https://example.com/billing`: where checkouts the portal
   * sends customers to lead back (ADR 0813). Default: the request's origin and `basePath`, right
   * unless a proxy in front changes the host or scheme.
   */
  readonly publicUrl?: string;
  /** Page title. Default: "Billing" in the viewer's language. */
  readonly title?: string;
  /** How often the page refreshes the usage bars, in milliseconds. Default 5000. */
  readonly usagePollMs?: number;
  /** What customers may do themselves (ADR 1441). */
  readonly selfService?: SelfServiceOptions;
  /**
   * Signs the customer of a verified portal session in to the host (ADR 1440): return the headers
   * (a `Set-Cookie`) that start the host's session for `grant.customerId`. Without it, session
   * links answer 404.
   */
  readonly startSession?: (
    grant: PortalSessionGrant,
    request: Request,
  ) => Promise<Headers | Record<string, string>> | Headers | Record<string, string>;
  /** Where unexpected failures are reported. Default `console.error`. */
  readonly logError?: (message: string, error: unknown) => void;
}

/** A fetch-style handler: give it the request as the host received it. */
export type BillingPortalHandler = (request: Request) => Promise<Response>;

function normaliseBasePath(basePath: string | undefined): string {
  const trimmed = (basePath ?? '/').trim().replace(/\/+$/, '');
  if (trimmed === '') return '';
  if (!/^\/[A-Za-z0-9\-._~/]*$/.test(trimmed)) throw new TypeError(`basePath "${basePath}" is not a plain URL path.`);
  return trimmed;
}

/**
 * Creates the portal.
 *
 * @example
 * const portal = createBillingPortal({
 *   client: new Drawdown(process.env.DRAWDOWN_PORTAL_KEY, { baseUrl }),
 *   resolveCustomerId: async (request) => (await sessions.read(request))?.customerId,
 *   basePath: '/billing',
 * });
 * app.all('/billing/*', (c) => portal(c.req.raw));
 */
export function createBillingPortal(options: BillingPortalOptions): BillingPortalHandler {
  const basePath = normaliseBasePath(options.basePath);
  const assets = portalAssets(basePath);
  const portal = createPortalOperations({
    client: options.client,
    resolveCustomerId: options.resolveCustomerId,
    basePath,
    csrfToken: options.csrfToken,
    signInUrl: options.signInUrl,
    signOutUrl: options.signOutUrl,
    publicUrl: options.publicUrl,
    title: options.title,
    pollMs: Math.max(1_000, Math.floor(options.usagePollMs ?? 5_000)),
    allowed: resolveSelfService(options.selfService),
    assets,
    startSession: options.startSession,
    logError: options.logError ?? ((message: string, error: unknown) => console.error(message, error)),
  });

  const app = new Hono({ strict: false }).basePath(basePath === '' ? '/' : basePath);
  // JSON routes answer refusals as JSON; page routes as a short page.
  app.route('/api', apiRoutes(portal));
  registerAssetRoutes(app, portal);
  registerPageRoutes(app, portal);
  registerSubscriptionRoutes(app, portal);
  registerSubscribeRoutes(app, portal);
  registerBillingDetailsRoutes(app, portal);
  registerSessionLinkRoutes(app, portal);
  app.all('*', () => {
    throw new Refused(NOT_FOUND);
  });

  app.onError(async (error, c) => {
    const refusal = portal.refusalOf(error);
    const text = await portal
      .textOf(c.req.raw)
      .catch(() => ({ language: 'en' as const, t: translator('en'), locale: 'en-US' }));
    const page = error instanceof Refused ? error.page : undefined;
    const link =
      refusal === NOT_AUTHENTICATED && options.signInUrl ? { href: options.signInUrl, text: text.t('signIn') } : null;
    const title = page
      ? text.t(page.title)
      : refusal === NOT_AUTHENTICATED
        ? text.t('notAuthenticated')
        : refusal.detail;
    const message = page ? text.t(page.text) : messageFor(refusal, text.t);
    return c.html(renderMessagePage(title, message, assets, link, text.language), refusal.status);
  });

  return async (request) => withSecurityHeaders(await app.fetch(request));
}

function messageFor(refusal: PortalRefusal, t: Translate): string {
  switch (refusal.code) {
    case 'not_authenticated':
      return t('notAuthenticatedText');
    case 'no_customer':
      return t('noCustomerText');
    case 'forbidden':
      return t('forbiddenText');
    case 'not_found':
      return t('notFoundText');
    default:
      return `${refusal.detail} (${refusal.code})`;
  }
}
