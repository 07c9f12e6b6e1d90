/**
 * @module
 * The portal as a site of its own, shared by the demo and the standalone server (ADR 1523): the
 * portal under `/billing`, server-side sessions in an HttpOnly, SameSite=Lax cookie (Secure and
 * `__Host-` over https) started by a customer portal session link (ADR 1440) or, in the demo only,
 * by a password sign-in (ADR 0904); every state-changing request needs the session's CSRF token
 * and, when the browser sends one, a same-origin `Origin`; form bodies are limited on the stream
 * (ADR 0903); with a sandbox key, `/mail` shows the signed-in customer's captured email.
 */
import type { AddressInfo } from 'node:net';
import { readTextWithin } from '@drawdown/http-kit';
import type { Drawdown } from '@drawdown/sdk';
import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { type Context, Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { createBillingPortal } from '../http/create-billing-portal.js';
import { PORTAL_CSS } from '../portal/assets-style.js';
import { withSecurityHeaders } from '../portal/security-headers.js';
import type { SelfServiceOptions } from '../portal/self-service.js';
import { LoginRateLimiter, type LoginRateLimitOptions } from './login-rate-limit.js';
import { decoyHash, verifyPassword } from './passwords.js';
import { SESSION_ABSOLUTE_MS, type Session, SessionStore, SignInTokens, tokensEqual } from './sessions.js';
import {
  type CapturedMail,
  DEMO_CSS,
  DEMO_STYLE_PATH,
  type MessageLink,
  renderDemoMessage,
  renderMailboxPage,
  renderMailPage,
  renderSignedOutPage,
  renderSignInPage,
  SIGN_IN_LINK,
  type SiteName,
} from './site-pages.js';

export const PORTAL_BASE_PATH = '/billing';

/** A demo user as kept in memory: the password only as its scrypt hash. */
export interface StoredUser {
  readonly email: string;
  readonly passwordHash: string;
  readonly customerId: string | null;
}

export interface PortalSiteOptions {
  /** The SDK client the portal reads and acts with (the site's API key). */
  readonly client: Drawdown;
  /** Password sign-in at `/login` (the demo). Without it, portal session links are the only way in. */
  readonly passwordSignIn?: {
    readonly users: ReadonlyMap<string, StoredUser>;
    readonly loginRateLimit?: LoginRateLimitOptions | undefined;
  };
  /** The sandbox whose captured email `/mail` shows, read with this key; without it there is no `/mail`. */
  readonly capturedMail?: { readonly billingUrl: string; readonly key: string };
  /** Where a visitor without a session is sent from `/` (standalone: the seller's account page). */
  readonly signInUrl?: string | undefined;
  readonly selfService?: SelfServiceOptions | undefined;
  readonly usagePollMs?: number | undefined;
  readonly maxSessions?: number | undefined;
  readonly maxSessionsPerOwner?: number | undefined;
  /** The address people use; over https cookies become Secure and `__Host-`. Settable once listening. */
  readonly publicUrl?: string | undefined;
  readonly log: (line: string) => void;
}

export interface PortalSite {
  /** Hono's fetch; the server passes its bindings (the client's socket, for the sign-in throttle). */
  readonly fetch: Hono['fetch'];
  /** The origin people use (the listening address when no public URL was given). */
  setPublicOrigin(origin: string): void;
}

const UNSAFE_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const MAX_FORM_BYTES = 16 * 1024;

/** Forms read once per request, so the CSRF check and the route share one bounded read. */
const forms = new WeakMap<Request, Promise<Record<string, string>>>();

/**
 * The request's form fields; empty when it is not a form or passes `MAX_FORM_BYTES`, counted on
 * the stream so a chunked body is never read whole (ADR 0903). The sign-in form is sent
 * url-encoded; a multipart form is read through the platform's parser within the same limit.
 */
function readForm(c: Context): Promise<Record<string, string>> {
  const request = c.req.raw;
  let form = forms.get(request);
  if (!form) {
    form = parseForm(request);
    forms.set(request, form);
  }
  return form;
}

async function parseForm(request: Request): Promise<Record<string, string>> {
  const type = request.headers.get('content-type') ?? '';
  const urlEncoded = type.startsWith('application/x-www-form-urlencoded');
  if (!urlEncoded && !type.startsWith('multipart/form-data')) return {};
  // A clone: the portal's own routes may still read the body after the CSRF check.
  const text = await readTextWithin(request.clone(), MAX_FORM_BYTES);
  if (text === null) return {};
  try {
    const entries = urlEncoded
      ? new URLSearchParams(text)
      : await new Request(request.url, { method: 'POST', headers: { 'content-type': type }, body: text }).formData();
    const fields: Record<string, string> = {};
    for (const [name, value] of entries) if (typeof value === 'string') fields[name] = value.slice(0, 1_000);
    return fields;
  } catch {
    return {};
  }
}

/** Builds the site's routes; `listenPortalSite` serves them. */
export function createPortalSite(options: PortalSiteOptions): PortalSite {
  const { log } = options;
  const users = options.passwordSignIn?.users;
  const site: SiteName = users ? 'Billing portal demo' : 'Billing portal';
  // Where a visitor without a session starts: the demo's sign-in, or the standalone portal's start page.
  const signedOutPath = users ? '/login' : '/';
  const homeLink: MessageLink = users ? SIGN_IN_LINK : { href: '/', text: 'Go to the start page' };
  const sessions = new SessionStore(Date.now, {
    maxSessions: options.maxSessions,
    maxSessionsPerOwner: options.maxSessionsPerOwner,
  });
  const signInTokens = new SignInTokens();
  const limiter = new LoginRateLimiter(options.passwordSignIn?.loginRateLimit);
  let publicOrigin = options.publicUrl ? new URL(options.publicUrl).origin : '';
  const secure = () => publicOrigin.startsWith('https:');
  const cookieName = () => (secure() ? '__Host-portal_session' : 'portal_session');
  const nonceCookieName = () => (secure() ? '__Host-portal_signin' : 'portal_signin');

  const sessionOf = (c: Context): Session | undefined => sessions.find(getCookie(c, cookieName()));
  const sessionOfRequest = (request: Request): Session | undefined => {
    const header = request.headers.get('cookie') ?? '';
    const name = cookieName();
    const value = header
      .split(';')
      .map((part) => part.trim())
      .find((part) => part.startsWith(`${name}=`))
      ?.slice(name.length + 1);
    return sessions.find(value);
  };
  const customerOfSession = (session: Session | undefined): string | null | undefined => {
    if (!session) return undefined;
    if (session.customerId !== undefined) return session.customerId;
    return users?.get(session.email)?.customerId ?? null;
  };
  const issueCookie = (c: Context, session: Session) =>
    setCookie(c, cookieName(), session.id, {
      httpOnly: true,
      sameSite: 'Lax',
      secure: secure(),
      path: '/',
      maxAge: Math.floor(SESSION_ABSOLUTE_MS / 1000),
    });
  /** The sign-in form's CSRF token: made from the visitor's nonce cookie, set now if missing. No server state. */
  const signInToken = (c: Context): string => {
    let nonce = getCookie(c, nonceCookieName());
    if (!signInTokens.isNonce(nonce)) {
      nonce = signInTokens.newNonce();
      setCookie(c, nonceCookieName(), nonce, { httpOnly: true, sameSite: 'Lax', secure: secure(), path: '/' });
    }
    return signInTokens.tokenFor(nonce);
  };
  const csrfFailure = (c: Context): Response => {
    if (c.req.path.startsWith(`${PORTAL_BASE_PATH}/api/`)) {
      return c.json({ error: { code: 'csrf_token_invalid', detail: 'The request lacks a valid CSRF token.' } }, 403);
    }
    return c.html(
      renderDemoMessage('Request refused', 'The form had expired. Go back, reload the page and try again.', homeLink),
      403,
    );
  };

  const portal = createBillingPortal({
    client: options.client,
    basePath: PORTAL_BASE_PATH,
    resolveCustomerId: async (request) => customerOfSession(sessionOfRequest(request)),
    ...(options.selfService ? { selfService: options.selfService } : {}),
    // Where checkouts lead back (ADR 0813): the site's public address, else the request's origin.
    ...(options.publicUrl ? { publicUrl: `${options.publicUrl.replace(/\/+$/, '')}${PORTAL_BASE_PATH}` } : {}),
    // A customer portal session link signs its customer in: a new session, as a sign-in makes (ADR 1440).
    startSession: (grant, request) => {
      const previous = sessionOfRequest(request);
      if (previous) sessions.destroy(previous.id);
      const session = sessions.create('', grant.customerId);
      const cookie = [
        `${cookieName()}=${session.id}`,
        `Max-Age=${Math.floor(SESSION_ABSOLUTE_MS / 1000)}`,
        'Path=/',
        'HttpOnly',
        'SameSite=Lax',
        ...(secure() ? ['Secure'] : []),
      ].join('; ');
      return { 'Set-Cookie': cookie };
    },
    csrfToken: (request) => sessionOfRequest(request)?.csrfToken,
    signInUrl: signedOutPath,
    signOutUrl: '/logout',
    title: 'Billing',
    ...(options.usagePollMs === undefined ? {} : { usagePollMs: options.usagePollMs }),
    logError: (message, error) => log(`${message}: ${error instanceof Error ? error.stack : String(error)}`),
  });

  const app = new Hono();

  app.use(async (c, next) => {
    await next();
    withSecurityHeaders(c.res);
    if (secure()) c.res.headers.set('Strict-Transport-Security', 'max-age=31536000');
  });

  // CSRF: a same-origin Origin when the browser sends one, and the session's token always.
  app.use(async (c, next) => {
    if (!UNSAFE_METHODS.has(c.req.method)) return next();
    const origin = c.req.header('origin');
    if (origin !== undefined && origin !== publicOrigin && origin !== new URL(c.req.url).origin) return csrfFailure(c);
    const session = sessionOf(c);
    const token = c.req.header('x-csrf-token') ?? (await readForm(c)).csrf_token;
    if (session && tokensEqual(session.csrfToken, token)) return next();
    // Signing in (again) is the one unsafe request without a session: the form's stateless token.
    if (
      users &&
      c.req.method === 'POST' &&
      c.req.path === '/login' &&
      signInTokens.verify(getCookie(c, nonceCookieName()), token)
    ) {
      return next();
    }
    return csrfFailure(c);
  });

  app.get(DEMO_STYLE_PATH, (c) =>
    c.body(`${PORTAL_CSS}\n${DEMO_CSS}`, 200, {
      'Content-Type': 'text/css; charset=utf-8',
      'Cache-Control': 'public, max-age=3600',
    }),
  );

  if (users) {
    app.get('/', (c) => c.redirect(sessionOf(c) ? `${PORTAL_BASE_PATH}/` : '/login', 303));

    app.get('/login', (c) => {
      if (sessionOf(c)) return c.redirect(`${PORTAL_BASE_PATH}/`, 303);
      return c.html(renderSignInPage({ csrfToken: signInToken(c), email: '', error: null }));
    });

    app.post('/login', async (c) => {
      const form = await readForm(c);
      const email = (form.email ?? '').trim().toLowerCase();
      const password = form.password ?? '';
      const csrfToken = sessionOf(c)?.csrfToken ?? signInToken(c);
      const address = getConnInfo(c).remote.address ?? 'unknown';
      const wait = limiter.retryAfterSeconds(address, email);
      if (wait > 0) {
        c.header('Retry-After', String(wait));
        const error = `Too many failed attempts. Try again in ${Math.ceil(wait / 60)} minutes.`;
        return c.html(renderSignInPage({ csrfToken, email, error }), 429);
      }
      const user = users.get(email);
      // An unknown email costs the same scrypt as a known one.
      const valid = await verifyPassword(password, user?.passwordHash ?? (await decoyHash()));
      if (!user || !valid) {
        limiter.recordFailure(address, email);
        const error = 'The email or the password is wrong.';
        return c.html(renderSignInPage({ csrfToken, email, error }), 401);
      }
      limiter.recordSuccess(email);
      // A new id and token on sign-in: a session id planted before sign-in is worthless.
      const previous = sessionOf(c);
      if (previous) sessions.destroy(previous.id);
      issueCookie(c, sessions.create(user.email));
      return c.redirect(`${PORTAL_BASE_PATH}/`, 303);
    });
  } else {
    // Standalone: no passwords here; the seller's application hands out the links (ADR 1523).
    app.get('/', (c) => {
      if (sessionOf(c)) return c.redirect(`${PORTAL_BASE_PATH}/`, 303);
      if (options.signInUrl) return c.redirect(options.signInUrl, 303);
      return c.html(renderSignedOutPage());
    });
  }

  app.post('/logout', (c) => {
    const session = sessionOf(c);
    if (session) sessions.destroy(session.id);
    deleteCookie(c, cookieName(), { path: '/', secure: secure() });
    return c.redirect(signedOutPath, 303);
  });

  // The signed-in customer's captured sandbox email (issue 34), read with the sandbox key.
  const mail = options.capturedMail;
  if (mail) {
    const sandboxGet = async (path: string): Promise<{ status: number; body: Record<string, unknown> }> => {
      const response = await fetch(`${mail.billingUrl.replace(/\/+$/, '')}${path}`, {
        headers: { authorization: `Bearer ${mail.key}` },
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const capturedOf = (email: Record<string, unknown>): CapturedMail | undefined => {
      const message = email.message as { subject: string; to: string; text: string } | null;
      if (email.status !== 'captured' || !message) return undefined;
      return {
        id: String(email.id),
        kind: String(email.kind),
        createdAt: String(email.created_at),
        subject: message.subject,
        to: message.to,
        text: message.text,
      };
    };
    app.get('/mail', async (c) => {
      const customerId = customerOfSession(sessionOf(c));
      if (customerId === undefined) return c.redirect(signedOutPath, 303);
      if (customerId === null) {
        return c.html(
          renderDemoMessage('No customer', 'This sign-in is not a customer: it has no email.', homeLink),
          404,
        );
      }
      const listed = await sandboxGet(
        `/emails?customer_id=${encodeURIComponent(customerId)}&status=captured&per_page=200`,
      );
      if (listed.status !== 200) throw new Error(`listing captured email answered ${listed.status}`);
      const mails = (listed.body.data as Record<string, unknown>[])
        .flatMap((email) => capturedOf(email) ?? [])
        .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.id < b.id ? 1 : -1));
      return c.html(renderMailboxPage(mails, site));
    });
    app.get('/mail/:id', async (c) => {
      const customerId = customerOfSession(sessionOf(c));
      if (customerId === undefined) return c.redirect(signedOutPath, 303);
      const id = c.req.param('id');
      const notFound = () =>
        c.html(renderDemoMessage('Not found', 'There is no captured email at this address.', homeLink), 404);
      if (customerId === null || !/^eml_[a-z0-9]{26}$/.test(id)) return notFound();
      const found = await sandboxGet(`/emails/${id}`);
      const email = found.status === 200 ? (found.body.data as Record<string, unknown>) : undefined;
      // Only the signed-in customer's own email: another customer's id answers as if it did not exist.
      const captured = email && email.customer_id === customerId ? capturedOf(email) : undefined;
      return captured ? c.html(renderMailPage(captured)) : notFound();
    });
  }

  app.all(`${PORTAL_BASE_PATH}/*`, async (c) => {
    // Pages (the overview, and the subscription pages that management URLs point at) send a
    // visitor without a session to sign in; session links, assets and JSON answer for themselves.
    const page =
      c.req.method === 'GET' &&
      !/^\/billing\/(session|assets\/|api\/)/.test(c.req.path) &&
      /^\/billing(\/|$)/.test(c.req.path);
    if (page && !sessionOf(c)) return c.redirect(signedOutPath, 303);
    return portal(c.req.raw);
  });
  app.all(PORTAL_BASE_PATH, (c) => c.redirect(`${PORTAL_BASE_PATH}/`, 308));

  app.notFound((c) => c.html(renderDemoMessage('Not found', 'There is nothing at this address.', homeLink), 404));

  return {
    fetch: app.fetch,
    setPublicOrigin: (origin) => {
      publicOrigin = origin;
    },
  };
}

export interface ListeningSite {
  /** The address people use (`publicUrl` when given), without a trailing slash. */
  readonly url: string;
  /** Where the server listens, `http://host:port`. */
  readonly localUrl: string;
  close(): Promise<void>;
}

/** Serves `site` on `host:port` (0 picks a free port) and resolves once it listens. */
export async function listenPortalSite(
  site: PortalSite,
  options: { readonly host: string; readonly port: number; readonly publicUrl?: string | undefined },
): Promise<ListeningSite> {
  const { host } = options;
  const server = serve({ fetch: site.fetch, port: options.port, hostname: host });
  await new Promise<void>((resolve, reject) => {
    if (server.listening) resolve();
    server.once('listening', () => resolve());
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const localUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const url = options.publicUrl ? options.publicUrl.replace(/\/+$/, '') : localUrl;
  site.setPublicOrigin(new URL(url).origin);
  return {
    url,
    localUrl,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        if ('closeAllConnections' in server) server.closeAllConnections();
      }),
  };
}
