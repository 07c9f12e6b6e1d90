/**
 * @module
 * The billing portal as a fetch handler that a host application mounts behind its own sign-in.
 * The customer id always comes from `resolveCustomerId` (the host's server-side session), never
 * from the request: a customer id in a query, body or header is never read (seed 001, rule 6).
 *
 * Routes under `basePath`:
 * - `GET /` the page (HTML); `?after=txn_…` starts after a cursor, for browsers without script.
 * - `GET /api/transactions[?after=txn_…]` one page of history: `{ data, hasMore, next }`.
 * - `POST /api/transactions/{id}/invoice` a fresh invoice link: `{ data: { url } }`.
 * - `POST /transactions/{id}/invoice` the same for a plain form post: a page with the link.
 * - `GET /api/usage` the usage bars: `{ data }`.
 * - `GET /assets/portal.js`, `GET /assets/portal.css`.
 */
import { createHash } from 'node:crypto';
import { readTextWithin } from '@drawdown/http-kit';
import { localeFromAcceptLanguage } from '@drawdown/sdk';
import type { Context } from 'hono';
import { Hono } from 'hono';
import { PORTAL_SCRIPT } from './assets-script.js';
import { PORTAL_CSS } from './assets-style.js';
import { EMPTY_HISTORY, type HistoryPage, loadHistoryPage } from './billing-history.js';
import type { PortalClient } from './portal-client.js';
import {
  badRequest,
  FORBIDDEN,
  INTERNAL_ERROR,
  NO_CUSTOMER,
  NOT_AUTHENTICATED,
  NOT_FOUND,
  type PortalRefusal,
  refusalBody,
  refusalFromServiceError,
} from './portal-error.js';
import { type PageAssets, renderMessagePage, renderPage } from './render-page.js';
import { withSecurityHeaders } from './security-headers.js';
import { loadUsage, UnitNameCache, type UsageMeterView } from './usage-view.js';

/** The host's answer to "who is signed in": undefined for nobody, null for a user without a customer record. */
export type ResolveCustomerId = (request: Request) => Promise<string | null | undefined>;

export interface BillingPortalOptions {
  /** A Drawdown SDK client with a server-side key holding `transaction.read` and `usage_balance.read`. */
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
  /** Page title. Default `Billing`. */
  readonly title?: string;
  /** How often the page refreshes the usage bars, in milliseconds. Default 5000. */
  readonly usagePollMs?: number;
  /** Where unexpected failures are reported. Default `console.error`. */
  readonly logError?: (message: string, error: unknown) => void;
}

/** A fetch-style handler: give it the request as the host received it. */
export type BillingPortalHandler = (request: Request) => Promise<Response>;

const TRANSACTION_ID = /^txn_[a-z\d]{26}$/;

function normaliseBasePath(basePath: string | undefined): string {
  const trimmed = (basePath ?? '/').trim().replace(/\/+$/, '');
  if (trimmed === '') return '';
  if (!/^\/[A-Za-z0-9\-._~/]*$/.test(trimmed)) throw new TypeError(`basePath "${basePath}" is not a plain URL path.`);
  return trimmed;
}

function versioned(basePath: string, file: string, content: string): string {
  return `${basePath}/assets/${file}?v=${createHash('sha256').update(content).digest('hex').slice(0, 12)}`;
}

type Viewer = { readonly kind: 'customer'; readonly customerId: string } | { readonly kind: 'no_customer' };

class Refused extends Error {
  constructor(readonly refusal: PortalRefusal) {
    super(refusal.detail);
  }
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
  const title = options.title ?? 'Billing';
  const pollMs = Math.max(1_000, Math.floor(options.usagePollMs ?? 5_000));
  const logError = options.logError ?? ((message: string, error: unknown) => console.error(message, error));
  const unitNames = new UnitNameCache();
  const { client } = options;
  const assets: PageAssets = {
    scriptUrl: versioned(basePath, 'portal.js', PORTAL_SCRIPT),
    styleUrl: versioned(basePath, 'portal.css', PORTAL_CSS),
  };

  async function viewerOf(request: Request): Promise<Viewer> {
    const customerId = await options.resolveCustomerId(request);
    if (customerId === undefined) throw new Refused(NOT_AUTHENTICATED);
    if (customerId === null || customerId === '') return { kind: 'no_customer' };
    return { kind: 'customer', customerId };
  }

  function readCursor(c: Context): string | null {
    const after = c.req.query('after');
    if (after === undefined || after === '') return null;
    if (!TRANSACTION_ID.test(after)) throw new Refused(badRequest('after must be a transaction id (txn_…).'));
    return after;
  }

  function localeOf(c: Context): string {
    return localeFromAcceptLanguage(c.req.header('accept-language'));
  }

  /** Refuses a state-changing request that a browser says comes from another site. */
  function requireSameSite(c: Context): void {
    if (c.req.header('sec-fetch-site') === 'cross-site') throw new Refused(FORBIDDEN);
  }

  async function invoiceLink(c: Context, disposition: 'attachment' | 'inline'): Promise<string> {
    requireSameSite(c);
    const viewer = await viewerOf(c.req.raw);
    if (viewer.kind === 'no_customer') throw new Refused(NO_CUSTOMER);
    const id = c.req.param('id') ?? '';
    if (!TRANSACTION_ID.test(id)) throw new Refused(badRequest('The transaction id is malformed.'));
    // Ownership is checked on the transaction as the service has it, never on anything sent.
    const transaction = await client.transactions.get(id);
    if (transaction.customerId !== viewer.customerId) throw new Refused(FORBIDDEN);
    const { url } = await client.transactions.getInvoicePdf(id, { disposition });
    return url;
  }

  async function history(c: Context, viewer: Viewer, after: string | null): Promise<HistoryPage> {
    if (viewer.kind === 'no_customer') return EMPTY_HISTORY;
    return loadHistoryPage(client, viewer.customerId, after, localeOf(c));
  }

  async function usage(c: Context, viewer: Viewer): Promise<readonly UsageMeterView[]> {
    if (viewer.kind === 'no_customer') return [];
    return loadUsage(client, viewer.customerId, localeOf(c), unitNames);
  }

  function refusalOf(error: unknown): PortalRefusal {
    if (error instanceof Refused) return error.refusal;
    const fromService = refusalFromServiceError(error);
    if (fromService) return fromService;
    logError('billing portal: unexpected failure', error);
    return INTERNAL_ERROR;
  }

  const app = new Hono({ strict: false }).basePath(basePath === '' ? '/' : basePath);

  // JSON routes answer refusals as JSON; page routes as a short page.
  const api = new Hono({ strict: false });
  api.get('/transactions', async (c) => {
    const viewer = await viewerOf(c.req.raw);
    const page = await history(c, viewer, readCursor(c));
    return c.json({ data: page.rows, hasMore: page.hasMore, next: page.next });
  });
  api.post('/transactions/:id/invoice', async (c) => {
    // Only `disposition` is read from the body, and only from a small one (counted on the stream,
    // ADR 0903); any customer id in it is ignored.
    const text = await readTextWithin(c.req.raw, 1_024);
    const body = text === null ? null : (parseJsonOrNull(text) as { disposition?: unknown } | null);
    const disposition = body?.disposition === 'inline' ? 'inline' : 'attachment';
    return c.json({ data: { url: await invoiceLink(c, disposition) } });
  });
  api.get('/usage', async (c) => {
    const viewer = await viewerOf(c.req.raw);
    return c.json({ data: await usage(c, viewer) });
  });
  api.all('*', () => {
    throw new Refused(NOT_FOUND);
  });
  api.onError((error, c) => {
    const refusal = refusalOf(error);
    return c.json(refusalBody(refusal), refusal.status);
  });
  app.route('/api', api);

  app.get('/assets/portal.js', (c) =>
    c.body(PORTAL_SCRIPT, 200, {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'public, max-age=31536000, immutable',
    }),
  );
  app.get('/assets/portal.css', (c) =>
    c.body(PORTAL_CSS, 200, {
      'Content-Type': 'text/css; charset=utf-8',
      'Cache-Control': 'public, max-age=31536000, immutable',
    }),
  );

  app.get('/', async (c) => {
    const viewer = await viewerOf(c.req.raw);
    const after = readCursor(c);
    const [page, meters, csrfToken] = await Promise.all([
      history(c, viewer, after),
      usage(c, viewer),
      options.csrfToken?.(c.req.raw),
    ]);
    return c.html(
      renderPage({
        basePath,
        assets,
        locale: localeOf(c),
        title,
        history: page,
        after,
        usage: meters,
        csrfToken: csrfToken ?? null,
        signOutUrl: options.signOutUrl ?? null,
        hasCustomer: viewer.kind === 'customer',
        pollMs,
      }),
    );
  });

  // Without script, the invoice button is a form post: answer with a page that links the PDF.
  app.post('/transactions/:id/invoice', async (c) => {
    const url = await invoiceLink(c, 'attachment');
    return c.html(
      renderMessagePage('Your invoice is ready', 'The link works for one hour.', assets, {
        href: url,
        text: 'Download the invoice PDF',
      }),
    );
  });

  app.all('*', () => {
    throw new Refused(NOT_FOUND);
  });

  app.onError((error, c) => {
    const refusal = refusalOf(error);
    const link =
      refusal === NOT_AUTHENTICATED && options.signInUrl ? { href: options.signInUrl, text: 'Sign in' } : null;
    return c.html(renderMessagePage(refusal.detail, messageFor(refusal), assets, link), refusal.status);
  });

  return async (request) => withSecurityHeaders(await app.fetch(request));
}

function messageFor(refusal: PortalRefusal): string {
  switch (refusal.code) {
    case 'not_authenticated':
      return 'Sign in to see your billing history.';
    case 'no_customer':
      return 'There is no billing account for you yet.';
    case 'forbidden':
      return 'This belongs to another account.';
    case 'not_found':
      return 'There is nothing at this address.';
    default:
      return `${refusal.detail} (${refusal.code})`;
  }
}

function parseJsonOrNull(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
