/**
 * The demo's sign-in against a real sandbox: wrong passwords refused, sessions in HttpOnly,
 * SameSite=Lax cookies (Secure and `__Host-` over https) whose id changes at sign-in, CSRF
 * refused without the session's token or from another origin, and sign-in throttled. Anonymous
 * visitors hold no server-side session, so they cannot sign anyone out (ADR 0904), and form
 * bodies are limited on the stream (ADR 0903). Sessions are bounded per customer: one customer's
 * reusable portal link opened past the store's size signs out only that customer's oldest
 * sessions (ADR 1445).
 */
import { Drawdown } from '@drawdown/sdk';
import { type BillingHarness, ENGINES, floodChunked, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword, type PortalDemo, startPortalDemo, verifyPassword } from '../src/index.js';

const ADA_PASSWORD = 'correct-horse-battery-staple';

function cookieOf(response: Response, name = 'portal_session'): { raw: string; value: string } | null {
  const raw = response.headers.getSetCookie().find((line) => line.replace(/^__Host-/, '').startsWith(`${name}=`));
  if (!raw) return null;
  return { raw, value: raw.slice(0, raw.indexOf(';')) };
}

function csrfOf(html: string): string {
  const token = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1];
  if (!token) throw new Error('no CSRF token on the page');
  return token;
}

describe.each(ENGINES)('%s: the demo sign-in', (engine) => {
  let harness: BillingHarness;
  let demo: PortalDemo;

  async function visitSignIn(): Promise<{ cookie: string; token: string }> {
    const response = await fetch(`${demo.url}/login`);
    const cookie = cookieOf(response, 'portal_signin');
    if (!cookie) throw new Error('no sign-in cookie');
    return { cookie: cookie.value, token: csrfOf(await response.text()) };
  }

  function signIn(
    visit: { cookie: string; token: string | null },
    email: string,
    password: string,
    headers: Record<string, string> = { origin: demo.url },
  ): Promise<Response> {
    const form = new URLSearchParams({ email, password });
    if (visit.token !== null) form.set('csrf_token', visit.token);
    return fetch(`${demo.url}/login`, {
      method: 'POST',
      headers: { cookie: visit.cookie, 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: form,
      redirect: 'manual',
    });
  }

  beforeAll(async () => {
    // A configured portal (ADR 1472): the portal under test takes the links' paths.
    harness = await startBillingHarness({ engine, portalUrl: 'http://127.0.0.1:3000/billing' });
    demo = await startPortalDemo({
      billingSandboxUrl: harness.sandboxUrl,
      sandboxKey: harness.sandboxKey,
      port: 0,
      passwords: { 'ada@example.com': ADA_PASSWORD },
      seed: { adaPurchases: 1, balanceWaitMs: 0 },
      loginRateLimit: { perEmail: 3 },
      log: () => {},
    });
  });
  afterAll(async () => {
    await demo?.close();
    await harness?.close();
  });

  it('stores passwords as salted scrypt hashes and compares them', async () => {
    const first = await hashPassword('s3cret');
    const second = await hashPassword('s3cret');
    expect(first).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(first).not.toBe(second);
    expect(await verifyPassword('s3cret', first)).toBe(true);
    expect(await verifyPassword('s3cret ', first)).toBe(false);
    expect(await verifyPassword('s3cret', 'plain-text')).toBe(false);
  });

  it('prints generated credentials for the other demo users', () => {
    const grace = demo.users.find((user) => user.email === 'grace@example.com');
    expect(grace?.password).toMatch(/^[a-z2-9]{5}(-[a-z2-9]{5}){3}$/);
    expect(demo.users.find((user) => user.email === 'newcomer@example.com')?.customerId).toBeNull();
  });

  it('refuses a wrong password and an unknown email alike, without signing in', async () => {
    for (const [email, password] of [
      ['ada@example.com', 'wrong password'],
      ['nobody@example.com', ADA_PASSWORD],
    ] as const) {
      const visit = await visitSignIn();
      const response = await signIn(visit, email, password);
      expect(response.status).toBe(401);
      expect(await response.text()).toContain('The email or the password is wrong.');
      const page = await fetch(`${demo.url}/billing/api/transactions`, { headers: { cookie: visit.cookie } });
      expect(page.status).toBe(401);
    }
  });

  it('signs in with a new HttpOnly, SameSite=Lax session cookie and shows only the own history', async () => {
    const visit = await visitSignIn();
    const response = await signIn(visit, 'ada@example.com', ADA_PASSWORD);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/billing/');
    const cookie = cookieOf(response);
    expect(cookie?.raw).toMatch(/HttpOnly/i);
    expect(cookie?.raw).toMatch(/SameSite=Lax/i);
    expect(cookie?.raw).toMatch(/Path=\//);
    expect(cookie?.raw).toMatch(/Max-Age=\d+/);
    expect(cookie?.raw).not.toMatch(/Secure/i);
    expect(cookie?.value).not.toBe(visit.cookie);
    // The id planted before sign-in is worth nothing afterwards.
    const stale = await fetch(`${demo.url}/billing/api/transactions`, { headers: { cookie: visit.cookie } });
    expect(stale.status).toBe(401);
    const list = await fetch(`${demo.url}/billing/api/transactions`, { headers: { cookie: cookie?.value ?? '' } });
    expect(list.status).toBe(200);
    const body = (await list.json()) as { data: { id: string }[] };
    expect(body.data.length).toBeGreaterThan(0);
  });

  it('shows the signed-in customer their captured sandbox email, and never another customer’s (issue 34)', async () => {
    const visit = await visitSignIn();
    const cookie = cookieOf(await signIn(visit, 'ada@example.com', ADA_PASSWORD))?.value ?? '';
    const ada = demo.users.find((user) => user.email === 'ada@example.com')?.customerId ?? '';
    // The seeded purchase's receipt is captured once the email worker has fanned it out.
    let mailbox = '';
    for (let attempt = 0; attempt < 100 && !mailbox.includes('href="/mail/eml_'); attempt += 1) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 50));
      const page = await fetch(`${demo.url}/mail`, { headers: { cookie } });
      expect(page.status).toBe(200);
      mailbox = await page.text();
    }
    const id = /href="\/mail\/(eml_[a-z0-9]{26})"/.exec(mailbox)?.[1] ?? '';
    expect(id).toMatch(/^eml_/);
    const one = await fetch(`${demo.url}/mail/${id}`, { headers: { cookie } });
    expect(one.status).toBe(200);
    const text = await one.text();
    expect(text).toContain('id="mail-text"');
    const stored = await fetch(`${harness.sandboxUrl}/emails/${id}`, {
      headers: { authorization: `Bearer ${harness.sandboxKey}` },
    });
    const email = ((await stored.json()) as { data: { customer_id: string; message: { subject: string } } }).data;
    expect(email.customer_id).toBe(ada);
    expect(text).toContain(email.message.subject.replace(/&/g, '&amp;'));
    // Another customer's email, an unknown id and a malformed one answer alike; so does no sign-in.
    const grace = demo.users.find((user) => user.email === 'grace@example.com')?.customerId ?? '';
    const theirs = await fetch(`${harness.sandboxUrl}/emails?customer_id=${grace}`, {
      headers: { authorization: `Bearer ${harness.sandboxKey}` },
    });
    const graceMail =
      ((await theirs.json()) as { data: { id: string }[] }).data[0]?.id ?? 'eml_00000000000000000000000000';
    for (const other of [graceMail, 'eml_00000000000000000000000000', 'not-an-id']) {
      expect((await fetch(`${demo.url}/mail/${other}`, { headers: { cookie } })).status, other).toBe(404);
    }
    const anonymous = await fetch(`${demo.url}/mail`, { redirect: 'manual' });
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get('location')).toBe('/login');
  });

  it('refuses a sign-in without the CSRF token, or from another origin', async () => {
    const visit = await visitSignIn();
    const withoutToken = await signIn({ cookie: visit.cookie, token: null }, 'ada@example.com', ADA_PASSWORD);
    expect(withoutToken.status).toBe(403);
    const wrongToken = await signIn({ cookie: visit.cookie, token: 'x'.repeat(43) }, 'ada@example.com', ADA_PASSWORD);
    expect(wrongToken.status).toBe(403);
    const otherOrigin = await signIn(visit, 'ada@example.com', ADA_PASSWORD, { origin: 'https://evil.example' });
    expect(otherOrigin.status).toBe(403);
    expect(cookieOf(otherOrigin)).toBeNull();
  });

  it('refuses state-changing portal and sign-out requests without the CSRF token', async () => {
    const visit = await visitSignIn();
    const session = cookieOf(await signIn(visit, 'ada@example.com', ADA_PASSWORD))?.value ?? '';
    const pageHtml = await (await fetch(`${demo.url}/billing/`, { headers: { cookie: session } })).text();
    const token = csrfOf(pageHtml);
    const id = /class="invoice-form"[^>]*data-transaction-id="(txn_[a-z\d]{26})"/.exec(pageHtml)?.[1];
    expect(id).toBeDefined();
    const withoutToken = await fetch(`${demo.url}/billing/api/transactions/${id}/invoice`, {
      method: 'POST',
      headers: { cookie: session },
    });
    expect(withoutToken.status).toBe(403);
    expect(await withoutToken.json()).toMatchObject({ error: { code: 'csrf_token_invalid' } });
    const withToken = await fetch(`${demo.url}/billing/api/transactions/${id}/invoice`, {
      method: 'POST',
      headers: { cookie: session, 'x-csrf-token': token, origin: demo.url },
    });
    expect(withToken.status).toBe(200);
    const signOut = await fetch(`${demo.url}/logout`, {
      method: 'POST',
      headers: { cookie: session },
      redirect: 'manual',
    });
    expect(signOut.status).toBe(403);
    const stillIn = await fetch(`${demo.url}/billing/api/transactions`, { headers: { cookie: session } });
    expect(stillIn.status).toBe(200);
    const properSignOut = await fetch(`${demo.url}/logout`, {
      method: 'POST',
      headers: { cookie: session, 'content-type': 'application/x-www-form-urlencoded', origin: demo.url },
      body: new URLSearchParams({ csrf_token: token }),
      redirect: 'manual',
    });
    expect(properSignOut.status).toBe(303);
    const out = await fetch(`${demo.url}/billing/api/transactions`, { headers: { cookie: session } });
    expect(out.status).toBe(401);
  });

  it('creates no server-side session for anonymous visits: the sign-in form sets only a nonce cookie', async () => {
    const response = await fetch(`${demo.url}/login`);
    expect(cookieOf(response)).toBeNull();
    expect(cookieOf(response, 'portal_signin')?.raw).toMatch(/HttpOnly/i);
    const failed = await signIn(await visitSignIn(), 'nobody@example.com', 'guess');
    expect(failed.status).toBe(401);
    expect(cookieOf(failed)).toBeNull();
  });

  it('never signs anyone out for anonymous traffic, however much of it', async () => {
    const small = await startPortalDemo({
      billingSandboxUrl: harness.sandboxUrl,
      sandboxKey: harness.sandboxKey,
      port: 0,
      passwords: { 'ada@example.com': ADA_PASSWORD },
      maxSessions: 2,
      log: () => {},
    });
    try {
      const form = async () => {
        const response = await fetch(`${small.url}/login`);
        return { cookie: cookieOf(response, 'portal_signin')?.value ?? '', token: csrfOf(await response.text()) };
      };
      const post = async (visit: { cookie: string; token: string }, password: string) =>
        fetch(`${small.url}/login`, {
          method: 'POST',
          headers: { cookie: visit.cookie, 'content-type': 'application/x-www-form-urlencoded', origin: small.url },
          body: new URLSearchParams({ email: 'ada@example.com', password, csrf_token: visit.token }),
          redirect: 'manual',
        });
      const session = cookieOf(await post(await form(), ADA_PASSWORD))?.value ?? '';
      expect(session).not.toBe('');
      // Ten times the store's size in anonymous visits and failed sign-ins.
      for (let visit = 0; visit < 20; visit += 1) {
        const visitor = await form();
        if (visit % 4 === 0) expect((await post(visitor, 'wrong')).status).toBe(401);
      }
      const still = await fetch(`${small.url}/billing/api/transactions`, { headers: { cookie: session } });
      expect(still.status).toBe(200);
    } finally {
      await small.close();
    }
  });

  it('bounds sessions per customer: a reusable portal link opened past the store’s size signs out nobody else', async () => {
    const small = await startPortalDemo({
      billingSandboxUrl: harness.sandboxUrl,
      sandboxKey: harness.sandboxKey,
      port: 0,
      passwords: { 'ada@example.com': ADA_PASSWORD },
      maxSessions: 12,
      maxSessionsPerOwner: 3,
      log: () => {},
    });
    try {
      const visit = await fetch(`${small.url}/login`);
      const nonce = cookieOf(visit, 'portal_signin')?.value ?? '';
      const signedIn = await fetch(`${small.url}/login`, {
        method: 'POST',
        headers: { cookie: nonce, 'content-type': 'application/x-www-form-urlencoded', origin: small.url },
        body: new URLSearchParams({
          email: 'ada@example.com',
          password: ADA_PASSWORD,
          csrf_token: csrfOf(await visit.text()),
        }),
        redirect: 'manual',
      });
      const ada = cookieOf(signedIn)?.value ?? '';
      expect(ada).not.toBe('');
      const grace = small.users.find((user) => user.email === 'grace@example.com')?.customerId ?? '';
      const admin = new Drawdown(harness.sandboxKey, { baseUrl: harness.sandboxUrl });
      const link = new URL((await admin.customerPortalSessions.create(grace)).urls.general.overview);
      // Twice the store's size in openings of one customer's link, each a new session.
      const graceSessions: string[] = [];
      for (let opening = 0; opening < 24; opening += 1) {
        const response = await fetch(`${small.url}/billing/session${link.search}`, { redirect: 'manual' });
        expect(response.status).toBe(303);
        graceSessions.push(cookieOf(response)?.value ?? '');
      }
      const status = async (cookie: string) =>
        (await fetch(`${small.url}/billing/api/transactions`, { headers: { cookie } })).status;
      expect(await status(ada)).toBe(200);
      // The customer keeps her newest three; the older ones ended.
      expect(await Promise.all(graceSessions.map(status))).toEqual([...Array(21).fill(401), 200, 200, 200]);
    } finally {
      await small.close();
    }
  });

  it.each([
    '/login',
    '/logout',
  ])('refuses a chunked %s body larger than the form limit before reading it whole', async (path) => {
    const visit = await visitSignIn();
    const result = await floodChunked(`${demo.url}${path}`, {
      headers: { cookie: visit.cookie, 'content-type': 'application/x-www-form-urlencoded', origin: demo.url },
      maxBytes: 128 * 1024 * 1024,
    });
    expect(result.status).toBe(403);
    // The form limit is 16 KiB; socket buffers hold about 4 MiB on loopback, never the 128 MiB on offer.
    expect(result.bytesSent).toBeLessThan(48 * 1024 * 1024);
  });

  it('throttles sign-in after repeated failures for an email, even with the right password', async () => {
    const email = 'grace@example.com';
    const password = demo.users.find((user) => user.email === email)?.password ?? '';
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await signIn(await visitSignIn(), email, 'guess')).status).toBe(401);
    }
    const throttled = await signIn(await visitSignIn(), email, password);
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('marks the cookie Secure with the __Host- prefix when served over https, reusing the seeded sandbox', async () => {
    const secureDemo = await startPortalDemo({
      billingSandboxUrl: harness.sandboxUrl,
      sandboxKey: harness.sandboxKey,
      port: 0,
      publicUrl: 'https://portal.example',
      log: () => {},
    });
    try {
      expect(secureDemo.seed.created).toBe(false);
      expect(secureDemo.seed.ada.customerId).toBe(demo.seed.ada.customerId);
      const response = await fetch(`${secureDemo.localUrl}/login`);
      const cookie = response.headers.getSetCookie().find((line) => line.startsWith('__Host-portal_signin='));
      expect(cookie).toMatch(/; Secure/i);
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/Path=\//);
      expect(cookie).not.toMatch(/Domain=/i);
      expect(response.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
    } finally {
      await secureDemo.close();
    }
  });
});
