/**
 * The portal deployed on its own (issue 37; ADR 1523): `billing-portal serve` started as a process,
 * as an operator runs it, against a real billing service (SQLite). A customer portal session made
 * through the API signs its customer in at the session's URL and shows that customer's page; the
 * cookie does not reach another customer's documents; a made-up, altered or expired link signs
 * nobody in; without a session every page leads to the start page; nothing is seeded. The
 * service is configured with a placeholder portal address (the portal's port is the system's
 * choice, known only once it listens): the test opens each URL's path and query, as the service
 * handed them out, at the portal's real address.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Drawdown } from '@drawdown/sdk';
import { type BillingHarness, movableClock, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PORTAL_SERVE_SETTINGS, portalConfigurationSection, runCli } from '../src/index.js';

const PACKAGE_ROOT = join(import.meta.dirname, '..');
const BIN = join(PACKAGE_ROOT, 'bin', 'billing-portal.js');
const HOUR = 60 * 60 * 1000;

function csrfOf(html: string): string {
  const token = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1];
  if (!token) throw new Error('no CSRF token on the page');
  return token;
}

describe('billing-portal serve', () => {
  const clock = movableClock();
  let harness: BillingHarness;
  let admin: Drawdown;
  let portalKey: string;
  let child: ChildProcess | undefined;
  let output = '';
  let portalUrl = '';
  const customers: Record<'ada' | 'grace', { id: string; transactionId: string }> = {
    ada: { id: '', transactionId: '' },
    grace: { id: '', transactionId: '' },
  };

  /** A portal session URL from the API, moved to the portal's real address (path and query unchanged). */
  async function sessionUrl(customerId: string): Promise<string> {
    const handed = new URL((await admin.customerPortalSessions.create(customerId)).urls.general.overview);
    expect(handed.origin).toBe('http://portal.invalid');
    return `${portalUrl}${handed.pathname}${handed.search}`;
  }

  beforeAll(async () => {
    harness = await startBillingHarness({ engine: 'sqlite', clock, portalUrl: 'http://portal.invalid/billing' });
    admin = new Drawdown(harness.sandboxKey, { baseUrl: harness.sandboxUrl });
    const product = await admin.products.create({ name: 'Support', taxCategory: 'standard' });
    for (const [name, amount] of [
      ['ada', '12000'],
      ['grace', '34000'],
    ] as const) {
      const price = await admin.prices.create({
        productId: product.id,
        description: `Support for ${name}`,
        unitPrice: { amount, currencyCode: 'USD' },
      });
      const customer = await admin.customers.create({ email: `${name}@example.com` });
      const address = await admin.addresses.create(customer.id, { countryCode: 'US' });
      const transaction = await admin.transactions.create({
        items: [{ priceId: price.id, quantity: 1 }],
        customerId: customer.id,
        addressId: address.id,
      });
      await admin.transactions.simulatePayment(transaction.id, 'success');
      customers[name] = { id: customer.id, transactionId: transaction.id };
    }
    portalKey = await harness.createKey({
      environment: 'sandbox',
      permissions: [
        'transaction.read',
        'usage_balance.read',
        'subscription.write',
        'price.read',
        'customer.read',
        'address.write',
        'business.write',
        'adjustment.read',
        'customer_portal_session.read',
        'notification.read',
      ],
    });
    // The operator's way: the binary, settings from the environment (the compose file's variables).
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(DRAWDOWN|PORTAL)_/.test(name)));
    child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], {
      cwd: PACKAGE_ROOT,
      env: {
        ...env,
        DRAWDOWN_BILLING_URL: harness.sandboxUrl,
        DRAWDOWN_PORTAL_KEY: portalKey,
        PORTAL_HOST: '127.0.0.1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const started = child;
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
    };
    started.stdout?.on('data', collect);
    started.stderr?.on('data', collect);
    portalUrl = await new Promise<string>((resolve, reject) => {
      const watch = () => {
        const url = /Billing portal \(sandbox\): (http:\/\/\S+)\/\n/.exec(output)?.[1];
        if (url) resolve(url);
        else if (started.exitCode !== null) reject(new Error(`billing-portal serve exited:\n${output}`));
        else setTimeout(watch, 50);
      };
      watch();
    });
  }, 60_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child?.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await harness?.close();
  });

  it('signs a customer in through a portal session URL and shows that customer only', async () => {
    const opened = await fetch(await sessionUrl(customers.ada.id), { redirect: 'manual' });
    expect(opened.status, output).toBe(303);
    expect(opened.headers.get('location')).toBe('/billing/');
    const setCookie = opened.headers.getSetCookie().find((line) => line.startsWith('portal_session='));
    expect(setCookie).toMatch(/HttpOnly/i);
    const cookie = setCookie?.slice(0, setCookie.indexOf(';')) ?? '';

    const page = await fetch(`${portalUrl}/billing/`, { headers: { cookie } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`data-transaction-id="${customers.ada.transactionId}"`);
    expect(html).not.toContain(customers.grace.transactionId);

    // The cookie reaches Ada's documents, never Grace's.
    const headers = { cookie, 'x-csrf-token': csrfOf(html), origin: portalUrl };
    const own = await fetch(`${portalUrl}/billing/api/transactions/${customers.ada.transactionId}/invoice`, {
      method: 'POST',
      headers,
    });
    expect(own.status).toBe(200);
    const theirs = await fetch(`${portalUrl}/billing/api/transactions/${customers.grace.transactionId}/invoice`, {
      method: 'POST',
      headers,
    });
    expect(theirs.status).toBe(403);
    expect(await theirs.json()).toMatchObject({ error: { code: 'forbidden' } });

    // Grace's own link shows Grace, in a session of her own.
    const graceOpened = await fetch(await sessionUrl(customers.grace.id), { redirect: 'manual' });
    const graceCookie = graceOpened.headers.getSetCookie()[0]?.split(';')[0] ?? '';
    const gracePage = await (await fetch(`${portalUrl}/billing/`, { headers: { cookie: graceCookie } })).text();
    expect(gracePage).toContain(customers.grace.transactionId);
    expect(gracePage).not.toContain(customers.ada.transactionId);

    // Signing out ends the session: the page leads to the start page again.
    const signedOut = await fetch(`${portalUrl}/logout`, { method: 'POST', headers, redirect: 'manual' });
    expect(signedOut.status).toBe(303);
    expect(signedOut.headers.get('location')).toBe('/');
    const after = await fetch(`${portalUrl}/billing/`, { headers: { cookie }, redirect: 'manual' });
    expect(after.status).toBe(303);
    expect(after.headers.get('location')).toBe('/');
  });

  it('refuses an expired, altered or made-up link, and signs nobody in', async () => {
    // A session made two hours ago by the service's clock: its one-hour life is over.
    clock.advance(-2 * HOUR);
    let expired: string;
    try {
      expired = await sessionUrl(customers.ada.id);
    } finally {
      clock.advance(2 * HOUR);
    }
    const valid = new URL(await sessionUrl(customers.ada.id));
    const token = valid.searchParams.get('token') ?? '';
    const altered = new URL(valid);
    altered.searchParams.set('token', `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`);
    const madeUp = new URL(valid);
    madeUp.searchParams.set('token', 'junk');
    for (const [name, url, text] of [
      ['expired', expired, 'expired'],
      ['altered', altered.toString(), 'not valid'],
      ['made up', madeUp.toString(), 'not valid'],
    ] as const) {
      const response = await fetch(url, { redirect: 'manual' });
      expect(response.status, name).toBeGreaterThanOrEqual(400);
      expect(response.headers.get('set-cookie'), name).toBeNull();
      expect(await response.text(), name).toContain(text);
    }
  });

  it('without a session leads every page to the start page, and has no demo data or sign-in form', async () => {
    const start = await fetch(`${portalUrl}/`);
    expect(start.status).toBe(200);
    expect(await start.text()).toContain('id="signed-out"');
    for (const path of ['/billing/', `/billing/subscriptions/sub_01aaaaaaaaaaaaaaaaaaaaaaaa/cancel`, '/mail']) {
      const response = await fetch(`${portalUrl}${path}`, { redirect: 'manual' });
      expect(response.status, path).toBe(303);
      expect(response.headers.get('location'), path).toBe('/');
    }
    expect((await fetch(`${portalUrl}/billing/api/transactions`)).status).toBe(401);
    expect((await fetch(`${portalUrl}/login`)).status).toBe(404);
    // Nothing was seeded: the sandbox holds the test's two customers only.
    const emails: string[] = [];
    for await (const customer of admin.customers.list()) emails.push(customer.email);
    expect(emails.sort()).toEqual(['ada@example.com', 'grace@example.com']);
  });

  it('refuses to start without a billing URL or a key, or with text that is no key', async () => {
    const stderr = process.stderr.write;
    const written: string[] = [];
    process.stderr.write = ((text: string) => {
      written.push(text);
      return true;
    }) as typeof process.stderr.write;
    try {
      expect(await runCli(['serve'], {})).toBe(2);
      expect(await runCli(['serve', '--billing-url', harness.sandboxUrl], {})).toBe(2);
      expect(await runCli(['serve', '--billing-url', harness.sandboxUrl, '--api-key', 'secret'], {})).toBe(2);
      expect(await runCli(['serve', '--billing-url', 'ftp://x', '--api-key', portalKey], {})).toBe(2);
      expect(await runCli(['serve', '--no-such-flag'], {})).toBe(2);
    } finally {
      process.stderr.write = stderr;
    }
    expect(written.join('')).toContain('needs --billing-url');
    expect(written.join('')).toContain('needs --api-key');
    expect(written.join('')).toContain('is not a Drawdown API key');
    expect(written.join('')).toContain('--billing-url must be an http or https URL');
  });

  it('documents every setting in docs/configuration.md (run `npm run docs` after changing one)', () => {
    const doc = readFileSync(join(PACKAGE_ROOT, '..', '..', 'docs', 'configuration.md'), 'utf8');
    expect(doc.endsWith(`\n${portalConfigurationSection()}`)).toBe(true);
    for (const setting of PORTAL_SERVE_SETTINGS) expect(doc).toContain(`\`${setting.variable}\``);
  });
});
