/**
 * Customer portal session links against a real billing service with its per-address rate limit
 * on (issue 32, M2; ADR 1443), on both engines. The portal's calls to the billing API are counted
 * at its client's fetch: a made-up, altered, foreign, old-format or expired token is answered
 * without a single call (the verification key aside, fetched once); a storm of them leaves the
 * billing API's limit untouched, so a signed-in customer's page is answered in full with no 429
 * anywhere; a real link costs exactly one verify call.
 */
import { Drawdown } from '@drawdown/sdk';
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BillingPortalHandler, createBillingPortal, type PortalSessionGrant } from '../src/index.js';
import { PortalSessionTokens } from '../src/portal/session-tokens.js';

const BASE = 'http://portal.test/billing';
/** Per client address; the portal and the test share 127.0.0.1, as a portal beside its service does. */
const RATE_LIMIT = '150/1m';
const STORM = 200;

describe.each(ENGINES)('%s: customer portal session links', (engine) => {
  let harness: BillingHarness;
  let admin: Drawdown;
  let portal: BillingPortalHandler;
  let portalClient: Drawdown;
  let alice: string;
  let token: string;
  /** Every request the portal's client sent to the billing API, as `METHOD /path`, and every answer's status. */
  const calls: string[] = [];
  const statuses: number[] = [];
  const granted: PortalSessionGrant[] = [];
  const sessions = new Map<string, string>();

  function request(path: string, session?: string): Promise<Response> {
    return portal(new Request(`${BASE}${path}`, session ? { headers: { cookie: `session=${session}` } } : {}));
  }
  const sessionPath = (value: string, action = 'overview') =>
    `/session?${new URLSearchParams({ action, token: value }).toString()}`;
  const verifyCalls = () => calls.filter((call) => call === 'POST /customer-portal-sessions/verify').length;

  beforeAll(async () => {
    // A configured portal (ADR 1472): the portal under test takes the links' paths.
    harness = await startBillingHarness({ engine, rateLimit: RATE_LIMIT, portalUrl: 'http://127.0.0.1:3000/billing' });
    admin = new Drawdown(harness.sandboxKey, { baseUrl: harness.sandboxUrl });
    const product = await admin.products.create({ name: 'Support', taxCategory: 'standard' });
    const price = await admin.prices.create({
      productId: product.id,
      description: 'Support hour',
      unitPrice: { amount: '12000', currencyCode: 'USD' },
    });
    const customer = await admin.customers.create({ email: 'alice@example.com' });
    const address = await admin.addresses.create(customer.id, { countryCode: 'US' });
    alice = customer.id;
    await admin.transactions.simulatePayment(
      (
        await admin.transactions.create({
          items: [{ priceId: price.id, quantity: 1 }],
          customerId: alice,
          addressId: address.id,
        })
      ).id,
      'success',
    );
    token =
      new URL((await admin.customerPortalSessions.create(alice)).urls.general.overview).searchParams.get('token') ?? '';
    const portalKey = await harness.createKey({
      environment: 'sandbox',
      permissions: ['transaction.read', 'usage_balance.read', 'customer_portal_session.read'],
    });
    portalClient = new Drawdown(portalKey, {
      baseUrl: harness.sandboxUrl,
      // A 429 shows at once instead of being waited out.
      maxRetries: 0,
      fetch: async (input, init) => {
        const url = new URL(input instanceof Request ? input.url : String(input));
        calls.push(`${(init?.method ?? 'GET').toUpperCase()} ${url.pathname}`);
        const response = await globalThis.fetch(input, init);
        statuses.push(response.status);
        return response;
      },
    });
    sessions.set('alice', alice);
    portal = createBillingPortal({
      client: portalClient,
      basePath: '/billing',
      resolveCustomerId: async (incoming) => {
        const id = /session=(\w+)/.exec(incoming.headers.get('cookie') ?? '')?.[1];
        return id === undefined ? undefined : sessions.get(id);
      },
      startSession: (grant) => {
        granted.push(grant);
        sessions.set(`granted${granted.length}`, grant.customerId);
        return { 'Set-Cookie': `session=granted${granted.length}; Path=/; HttpOnly` };
      },
      logError: () => {},
    });
  });
  afterAll(() => harness.close());

  it('answers made-up, altered, foreign and old-format tokens without asking the billing API', async () => {
    const [payload = '', signature = ''] = token.split('.');
    const text = Buffer.from(payload, 'base64url').toString('utf8');
    const reencode = (changed: string) => Buffer.from(changed, 'utf8').toString('base64url');
    // Another customer named in the claims; a year more of life; a signature changed in the middle.
    const otherCustomer = `${reencode(text.replace(alice, 'ctm_01aaaaaaaaaaaaaaaaaaaaaaaa'))}.${signature}`;
    const lines = text.split('\n');
    lines[7] = String(Number(lines[7]) + 365 * 24 * 3600 * 1000);
    const longer = `${reencode(lines.join('\n'))}.${signature}`;
    const flipped = `${payload}.${signature.slice(0, 40)}${signature[40] === 'A' ? 'B' : 'A'}${signature.slice(41)}`;
    // A genuine token of another account, and one of this account's live environment.
    const otherAccount = await harness.createAccount({ earlyAccess: true });
    const otherKey = await harness.createKey({ environment: 'sandbox', permissions: ['all'], accountId: otherAccount });
    const stranger = new Drawdown(otherKey, { baseUrl: harness.sandboxUrl });
    const strangerCustomer = await stranger.customers.create({ email: 'stranger@example.com' });
    const foreign = new URL(
      (await stranger.customerPortalSessions.create(strangerCustomer.id)).urls.general.overview,
    ).searchParams.get('token');
    const live = new Drawdown(harness.liveKey, { baseUrl: harness.liveUrl });
    const liveCustomer = await live.customers.create({ email: 'alice@example.com' });
    const liveToken = new URL(
      (await live.customerPortalSessions.create(liveCustomer.id)).urls.general.overview,
    ).searchParams.get('token');
    const junk = [
      'junk',
      `${payload}.${'A'.repeat(43)}`, // the HMAC form tokens had before ADR 1443
      `${payload}.${'A'.repeat(86)}`,
      `${reencode(`${text}\n`)}.${signature}`,
      otherCustomer,
      longer,
      flipped,
      `${payload}.${signature}x`,
      String(foreign),
      String(liveToken),
    ];
    calls.length = 0;
    for (const value of junk) {
      const response = await request(sessionPath(value));
      expect(response.status, value).toBe(404);
      expect(response.headers.get('set-cookie'), value).toBeNull();
      expect(await response.text()).toContain('This link is not valid');
    }
    // The verification key, once at most; no verify call and nothing else.
    expect(calls.filter((call) => call !== 'GET /customer-portal-sessions/verification-key')).toEqual([]);
    expect(calls.length).toBeLessThanOrEqual(1);
    expect(granted).toEqual([]);
  });

  it('answers a token past its expiry on this machine’s clock as expired, without asking the service', async () => {
    calls.length = 0;
    const later = new PortalSessionTokens(portalClient, () => Date.now() + 61 * 60 * 1000);
    expect(await later.check(token)).toBe('expired');
    expect(await new PortalSessionTokens(portalClient).check(token)).toBe('signed');
    // Each checker asked for the key once; neither asked to verify.
    expect(calls).toEqual([
      'GET /customer-portal-sessions/verification-key',
      'GET /customer-portal-sessions/verification-key',
    ]);
  });

  it('keeps a signed-in customer’s page whole through a storm of made-up links', async () => {
    calls.length = 0;
    statuses.length = 0;
    const [payload = ''] = token.split('.');
    for (let batch = 0; batch < STORM / 20; batch += 1) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, index) => {
          const signature = Buffer.alloc(64, batch * 20 + index + 1).toString('base64url');
          return request(sessionPath(`${payload}.${signature}`));
        }),
      );
      for (const answer of answers) expect(answer.status).toBe(404);
    }
    expect(verifyCalls()).toBe(0);
    const page = await request('/', 'alice');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('id="history"');
    expect(html).toContain('<span>Support</span>');
    const list = await request('/api/transactions', 'alice');
    expect(list.status).toBe(200);
    expect(((await list.json()) as { data: unknown[] }).data).toHaveLength(1);
    expect(statuses.filter((status) => status === 429)).toEqual([]);
  });

  it('signs a real link in with exactly one verify call', async () => {
    calls.length = 0;
    const before = granted.length;
    const response = await request(sessionPath(token));
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/billing/');
    expect(granted.length).toBe(before + 1);
    expect(granted.at(-1)).toMatchObject({ customerId: alice });
    expect(verifyCalls()).toBe(1);
  });
});
