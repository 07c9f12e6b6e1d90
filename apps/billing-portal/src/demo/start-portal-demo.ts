/**
 * @module
 * The standalone demo: the portal behind a small sign-in, on one port, with a sandbox seeded so
 * the page is populated. Users have scrypt-hashed passwords; sessions are random ids kept on the
 * server in an HttpOnly, SameSite=Lax cookie (Secure over https), created only by a sign-in
 * (ADR 0904); every state-changing request needs the session's CSRF token (the sign-in form a
 * stateless one) and, when the browser sends one, a same-origin `Origin`; failed sign-ins are
 * throttled per address and per email (ADR 0804); form bodies are limited on the stream.
 */
import type { AddressInfo } from 'node:net';
import { readTextWithin } from '@drawdown/http-kit';
import { Drawdown } from '@drawdown/sdk';
import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { type Context, Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { createBillingPortal } from '../http/create-billing-portal.js';
import { PORTAL_CSS } from '../portal/assets-style.js';
import { withSecurityHeaders } from '../portal/security-headers.js';
import {
  type CapturedMail,
  DEMO_CSS,
  DEMO_STYLE_PATH,
  renderDemoMessage,
  renderMailboxPage,
  renderMailPage,
  renderSignInPage,
} from './demo-pages.js';
import { LoginRateLimiter, type LoginRateLimitOptions } from './login-rate-limit.js';
import { decoyHash, generatePassword, hashPassword, verifyPassword } from './passwords.js';
import { type DemoSeed, type SeedOptions, seedSandbox } from './seed-sandbox.js';
import { SESSION_ABSOLUTE_MS, type Session, SessionStore, SignInTokens, tokensEqual } from './sessions.js';

export const PORTAL_BASE_PATH = '/billing';

export interface PortalDemoOptions {
  /** The billing service's sandbox base URL, such as `http://127.0.0.1:8081`. */
  readonly billingSandboxUrl: string;
  /** A sandbox API key that may write the catalogue, transactions and usage events (for seeding). */
  readonly sandboxKey: string;
  /** Default 3000; 0 picks a free port. */
  readonly port?: number;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** The address people use, when it differs from `http://host:port` (an https proxy: cookies become Secure). */
  readonly publicUrl?: string;
  /** Fixed passwords by email (tests); others are generated at each start. */
  readonly passwords?: Readonly<Record<string, string>>;
  readonly seed?: SeedOptions;
  readonly loginRateLimit?: LoginRateLimitOptions;
  /** Signed-in sessions kept in memory in all, a memory backstop (anonymous visitors hold none). Default 10,000. */
  readonly maxSessions?: number;
  /**
   * Sessions kept per demo user or per customer of portal session links; past it that owner's
   * oldest ends, nobody else's (ADR 1445). Default 20.
   */
  readonly maxSessionsPerOwner?: number;
  /** How often the page refreshes usage, in milliseconds. Default 5000. */
  readonly usagePollMs?: number;
  /** Where the demo prints its address and credentials. Default console.log. */
  readonly log?: (line: string) => void;
}

export interface DemoUser {
  readonly email: string;
  readonly password: string;
  /** Null: signed in, but no customer record (the portal shows an empty history). */
  readonly customerId: string | null;
  readonly note: string;
}

export interface PortalDemo {
  /** The demo's address for people (`publicUrl` when given), without a trailing slash. */
  readonly url: string;
  /** Where the server listens, `http://host:port`. */
  readonly localUrl: string;
  readonly users: readonly DemoUser[];
  readonly seed: DemoSeed;
  close(): Promise<void>;
}

interface StoredUser {
  readonly email: string;
  readonly passwordHash: string;
  readonly customerId: string | null;
}

const UNSAFE_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const MAX_FORM_BYTES = 16 * 1024;

function csrfFailure(c: Context): Response {
  const wantsJson = c.req.path.startsWith(`${PORTAL_BASE_PATH}/api/`);
  if (wantsJson) {
    return c.json({ error: { code: 'csrf_token_invalid', detail: 'The request lacks a valid CSRF token.' } }, 403);
  }
  return c.html(
    renderDemoMessage('Request refused', 'The form had expired. Go back, reload the page and try again.'),
    403,
  );
}

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

/**
 * Starts the demo: seeds the sandbox (or finds an earlier seeding), hashes the users' passwords,
 * serves the sign-in and the portal, and prints the address and credentials.
 *
 * @example
 * const demo = await startPortalDemo({ billingSandboxUrl: 'http://127.0.0.1:8081', sandboxKey, port: 3000 });
 */
export async function startPortalDemo(options: PortalDemoOptions): Promise<PortalDemo> {
  const log = options.log ?? ((line: string) => console.log(line));
  const client = new Drawdown(options.sandboxKey, { baseUrl: options.billingSandboxUrl });
  const seed = await seedSandbox(client, { ...options.seed, log: options.seed?.log ?? log });

  const plainUsers = [
    { email: seed.ada.email, customerId: seed.ada.customerId, note: 'a long history in three currencies, and usage' },
    { email: seed.grace.email, customerId: seed.grace.customerId, note: 'past her API-call allowance' },
    { email: 'newcomer@example.com', customerId: null, note: 'no customer record yet' },
  ].map((user) => ({ ...user, password: options.passwords?.[user.email] ?? generatePassword() }));
  const users = new Map<string, StoredUser>();
  for (const user of plainUsers) {
    users.set(user.email, {
      email: user.email,
      passwordHash: await hashPassword(user.password),
      customerId: user.customerId,
    });
  }
  await decoyHash();

  const sessions = new SessionStore(Date.now, {
    maxSessions: options.maxSessions,
    maxSessionsPerOwner: options.maxSessionsPerOwner,
  });
  const signInTokens = new SignInTokens();
  const limiter = new LoginRateLimiter(options.loginRateLimit);
  const host = options.host ?? '127.0.0.1';
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

  const portal = createBillingPortal({
    client,
    basePath: PORTAL_BASE_PATH,
    resolveCustomerId: async (request) => {
      const session = sessionOfRequest(request);
      if (!session) return undefined;
      if (session.customerId !== undefined) return session.customerId;
      return users.get(session.email)?.customerId ?? null;
    },
    // The demo account lets its customers pause and resume (ADR 1441), and offers its monthly
    // USD plans to a customer with no plan (ADR 0812).
    selfService: { pause: true, subscribe: { priceIds: seed.offerPriceIds } },
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
    signInUrl: '/login',
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

  app.post('/logout', (c) => {
    const session = sessionOf(c);
    if (session) sessions.destroy(session.id);
    deleteCookie(c, cookieName(), { path: '/', secure: secure() });
    return c.redirect('/login', 303);
  });

  // The signed-in customer's captured sandbox email (issue 34), read with the demo's sandbox key.
  const customerOfSession = (c: Context): string | null | undefined => {
    const session = sessionOf(c);
    if (!session) return undefined;
    return session.customerId ?? users.get(session.email)?.customerId ?? null;
  };
  const sandboxGet = async (path: string): Promise<{ status: number; body: Record<string, unknown> }> => {
    const response = await fetch(`${options.billingSandboxUrl.replace(/\/+$/, '')}${path}`, {
      headers: { authorization: `Bearer ${options.sandboxKey}` },
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
    const customerId = customerOfSession(c);
    if (customerId === undefined) return c.redirect('/login', 303);
    if (customerId === null) {
      return c.html(renderDemoMessage('No customer', 'This sign-in is not a customer: it has no email.'), 404);
    }
    const listed = await sandboxGet(
      `/emails?customer_id=${encodeURIComponent(customerId)}&status=captured&per_page=200`,
    );
    if (listed.status !== 200) throw new Error(`listing captured email answered ${listed.status}`);
    const mails = (listed.body.data as Record<string, unknown>[])
      .flatMap((email) => capturedOf(email) ?? [])
      .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.id < b.id ? 1 : -1));
    return c.html(renderMailboxPage(mails));
  });
  app.get('/mail/:id', async (c) => {
    const customerId = customerOfSession(c);
    if (customerId === undefined) return c.redirect('/login', 303);
    const id = c.req.param('id');
    const notFound = () => c.html(renderDemoMessage('Not found', 'There is no captured email at this address.'), 404);
    if (customerId === null || !/^eml_[a-z0-9]{26}$/.test(id)) return notFound();
    const found = await sandboxGet(`/emails/${id}`);
    const email = found.status === 200 ? (found.body.data as Record<string, unknown>) : undefined;
    // Only the signed-in customer's own email: another customer's id answers as if it did not exist.
    const mail = email && email.customer_id === customerId ? capturedOf(email) : undefined;
    return mail ? c.html(renderMailPage(mail)) : notFound();
  });

  app.all(`${PORTAL_BASE_PATH}/*`, async (c) => {
    // Pages (the overview, and the subscription pages that management URLs point at) send a
    // visitor without a session to sign in; session links, assets and JSON answer for themselves.
    const page =
      c.req.method === 'GET' &&
      !/^\/billing\/(session|assets\/|api\/)/.test(c.req.path) &&
      /^\/billing(\/|$)/.test(c.req.path);
    if (page && !sessionOf(c)) return c.redirect('/login', 303);
    return portal(c.req.raw);
  });
  app.all(PORTAL_BASE_PATH, (c) => c.redirect(`${PORTAL_BASE_PATH}/`, 308));

  app.notFound((c) => c.html(renderDemoMessage('Not found', 'There is nothing at this address.'), 404));

  const server = serve({ fetch: app.fetch, port: options.port ?? 3000, hostname: host });
  await new Promise<void>((resolve, reject) => {
    if (server.listening) resolve();
    server.once('listening', () => resolve());
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const localUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const url = options.publicUrl ? options.publicUrl.replace(/\/+$/, '') : localUrl;
  publicOrigin = new URL(url).origin;
  // Checkouts the portal sends customers to lead back to it (ADRs 1112, 0813): the sandbox's
  // checkout return address is the demo's, unless the account set its own.
  const checkout = await client.checkoutSettings.get();
  if (checkout.returnUrl === null) await client.checkoutSettings.update({ returnUrl: `${url}${PORTAL_BASE_PATH}/` });

  log(`Billing portal demo: ${url}/ (captured sandbox email: ${url}/mail)`);
  log('Sign in as:');
  for (const user of plainUsers) log(`  ${user.email.padEnd(22)} ${user.password}   (${user.note})`);

  return {
    url,
    localUrl,
    users: plainUsers,
    seed,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        if ('closeAllConnections' in server) server.closeAllConnections();
      }),
  };
}
