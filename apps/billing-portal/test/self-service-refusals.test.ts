/**
 * The self-service routes' refusals (ADR 1440, 1441) against a real billing service, on both
 * engines, without a browser: another customer's subscription or adjustment is `forbidden` for
 * every action and nothing changes; malformed ids, a plan the subscription cannot move to and an
 * invalid billing details form are refused and write nothing; pausing is off unless the host
 * allows it; cross-site posts are refused; session links answer only with a `startSession`, only
 * for a token the service verifies, and only for the subscriptions the session names.
 */
import { Drawdown } from '@drawdown/sdk';
import { type BillingHarness, ENGINES, startBillingHarness, startSandboxSubscription } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BillingPortalHandler, createBillingPortal, type PortalSessionGrant } from '../src/index.js';

const BASE = 'http://portal.test/billing';

describe.each(ENGINES)('%s: self-service refusals', (engine) => {
  let harness: BillingHarness;
  let admin: Drawdown;
  let portal: BillingPortalHandler;
  let bare: BillingPortalHandler;
  let alice: string;
  let bob: string;
  let aliceSubscription: string;
  let bobSubscription: string;
  let bobAdjustment: string;
  const sessions = new Map<string, string | null>();
  const granted: PortalSessionGrant[] = [];

  function call(handler: BillingPortalHandler, path: string, init: RequestInit & { session?: string } = {}) {
    const headers = new Headers(init.headers);
    if (init.session) headers.set('cookie', `session=${init.session}`);
    return handler(new Request(`${BASE}${path}`, { ...init, headers }));
  }
  const request = (path: string, init: RequestInit & { session?: string } = {}) => call(portal, path, init);
  const form = (fields: Record<string, string>) => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });

  beforeAll(async () => {
    // A configured portal (ADR 1472): the portal under test takes the links' paths.
    harness = await startBillingHarness({ engine, portalUrl: 'http://127.0.0.1:3000/billing' });
    admin = new Drawdown(harness.sandboxKey, { baseUrl: harness.sandboxUrl });
    const product = await admin.products.create({ name: 'Plan', taxCategory: 'saas' });
    const monthly = await admin.prices.create({
      productId: product.id,
      description: 'Monthly',
      unitPrice: { amount: '1000', currencyCode: 'USD' },
      billingCycle: { interval: 'month', frequency: 1 },
    });
    const oneOff = await admin.prices.create({
      productId: product.id,
      description: 'Hour',
      unitPrice: { amount: '5000', currencyCode: 'USD' },
    });
    const customer = async (email: string) => {
      const created = await admin.customers.create({ email });
      const address = await admin.addresses.create(created.id, { countryCode: 'US', firstLine: '1 Main St' });
      return { customerId: created.id, addressId: address.id };
    };
    const a = await customer('alice@example.com');
    const b = await customer('bob@example.com');
    alice = a.customerId;
    bob = b.customerId;
    const items = [{ priceId: monthly.id, quantity: 1 }];
    aliceSubscription = await startSandboxSubscription(harness, { customerId: alice, items });
    bobSubscription = await startSandboxSubscription(harness, { customerId: bob, items });
    const bobPaid = await admin.transactions.simulatePayment(
      (await admin.transactions.create({ items: [{ priceId: oneOff.id, quantity: 1 }], ...b })).id,
      'success',
    );
    const line = bobPaid.details.lineItems[0];
    bobAdjustment = (
      await admin.adjustments.create({
        action: 'refund',
        transactionId: bobPaid.id,
        reason: 'test',
        type: 'partial',
        items: [{ itemId: String(line?.id), type: 'partial', amount: '100' }],
      })
    ).id;
    sessions.set('alice', alice);
    sessions.set('bob', bob);
    const resolveCustomerId = async (incoming: Request) => {
      const id = /session=(\w+)/.exec(incoming.headers.get('cookie') ?? '')?.[1];
      return id === undefined ? undefined : sessions.get(id);
    };
    const client = new Drawdown(harness.sandboxKey, { baseUrl: harness.sandboxUrl });
    portal = createBillingPortal({
      client,
      basePath: '/billing',
      resolveCustomerId,
      selfService: { pause: true },
      startSession: (grant) => {
        granted.push(grant);
        return { 'Set-Cookie': `session=granted${granted.length}; Path=/; HttpOnly` };
      },
      logError: () => {},
    });
    bare = createBillingPortal({ client, basePath: '/billing', resolveCustomerId, logError: () => {} });
  });
  afterAll(() => harness.close());

  it('refuses every action on another customer’s subscription as forbidden, changing nothing', async () => {
    const base = `/subscriptions/${bobSubscription}`;
    const attempts: [string, RequestInit][] = [
      [`${base}/cancel`, { method: 'GET' }],
      [`${base}/cancel`, { method: 'POST' }],
      [`${base}/keep`, { method: 'POST' }],
      [`${base}/pause`, { method: 'POST' }],
      [`${base}/keep-running`, { method: 'POST' }],
      [`${base}/resume`, { method: 'POST' }],
      [`${base}/change`, { method: 'GET' }],
      [`${base}/change/preview?price_id=pri_01aaaaaaaaaaaaaaaaaaaaaaaa&quantity=1`, { method: 'GET' }],
      [`${base}/change`, form({ price_id: 'pri_01aaaaaaaaaaaaaaaaaaaaaaaa', quantity: '1' })],
      [`${base}/payment-method`, { method: 'GET' }],
    ];
    for (const [path, init] of attempts) {
      const response = await request(path, { ...init, session: 'alice' });
      expect(response.status, `${init.method} ${path}`).toBe(403);
    }
    const after = await admin.subscriptions.get(bobSubscription);
    expect(after.scheduledChange).toBeNull();
    expect(after.status).toBe('active');
  });

  it('refuses malformed ids and a plan the subscription cannot move to', async () => {
    expect((await request('/subscriptions/sub_nope/cancel', { method: 'POST', session: 'alice' })).status).toBe(400);
    const foreignPrice = await request(`/subscriptions/${aliceSubscription}/change`, {
      ...form({ price_id: 'pri_01aaaaaaaaaaaaaaaaaaaaaaaa', quantity: '1' }),
      session: 'alice',
    });
    expect(foreignPrice.status).toBe(400);
    const [item] = (await admin.subscriptions.get(aliceSubscription)).items;
    for (const quantity of ['0', '1.5', 'many', '1000000']) {
      const response = await request(`/subscriptions/${aliceSubscription}/change`, {
        ...form({ price_id: String(item?.price.id), quantity }),
        session: 'alice',
      });
      expect(response.status, quantity).toBe(400);
    }
    expect((await admin.subscriptions.get(aliceSubscription)).items[0]?.quantity).toBe(1);
  });

  it('turns pausing off unless the host allows it', async () => {
    for (const action of ['pause', 'keep-running', 'resume']) {
      const response = await call(bare, `/subscriptions/${aliceSubscription}/${action}`, {
        method: 'POST',
        session: 'alice',
      });
      expect(response.status, action).toBe(404);
    }
    expect((await admin.subscriptions.get(aliceSubscription)).scheduledChange).toBeNull();
  });

  it('refuses cross-site posts', async () => {
    const response = await request(`/subscriptions/${aliceSubscription}/cancel`, {
      method: 'POST',
      headers: { 'sec-fetch-site': 'cross-site' },
      session: 'alice',
    });
    expect(response.status).toBe(403);
    expect((await admin.subscriptions.get(aliceSubscription)).scheduledChange).toBeNull();
  });

  it('refuses another customer’s credit note', async () => {
    const page = await request(`/adjustments/${bobAdjustment}/credit-note`, { method: 'POST', session: 'alice' });
    expect(page.status).toBe(403);
    const json = await request(`/api/adjustments/${bobAdjustment}/credit-note`, { method: 'POST', session: 'alice' });
    expect(json.status).toBe(403);
    expect(await json.json()).toEqual({ error: { code: 'forbidden', detail: 'Forbidden' } });
    const own = await request(`/api/adjustments/${bobAdjustment}/credit-note`, { method: 'POST', session: 'bob' });
    expect(own.status).toBe(200);
    expect(((await own.json()) as { data: { url: string } }).data.url).toContain(`/credit-notes/${bobAdjustment}/pdf?`);
  });

  it('refuses an invalid billing details form and saves a valid one for the signed-in customer only', async () => {
    const before = await admin.addresses.list(bob).next();
    const invalid = await request('/billing-details', {
      ...form({ first_line: '', city: 'Paris', postal_code: '75001', country_code: 'France', tax_identifier: 'FR1' }),
      session: 'alice',
    });
    expect(invalid.status).toBe(400);
    const html = await invalid.text();
    expect(html).toContain('aria-invalid="true"');
    expect((await admin.businesses.list(alice).next()).length).toBe(0);

    const saved = await request('/billing-details', {
      ...form({
        first_line: '2 Rue de Rivoli',
        city: 'Paris',
        postal_code: '75001',
        country_code: 'fr',
        business_name: 'Alice SARL',
        tax_identifier: 'FR12345678901',
        customer_id: bob,
      }),
      session: 'alice',
    });
    expect(saved.status).toBe(303);
    const [address] = await admin.addresses.list(alice, { status: ['active'] }).next();
    expect(address).toMatchObject({ firstLine: '2 Rue de Rivoli', countryCode: 'FR' });
    expect((await admin.businesses.list(alice).next())[0]).toMatchObject({ name: 'Alice SARL' });
    // A customer id in the form names nobody: Bob's details are as they were.
    expect(await admin.addresses.list(bob).next()).toEqual(before);
    expect((await admin.businesses.list(bob).next()).length).toBe(0);
  });

  it('answers session links only with startSession, only for verified tokens and the subscriptions they name', async () => {
    const session = await admin.customerPortalSessions.create(alice, { subscriptionIds: [aliceSubscription] });
    const overview = new URL(session.urls.general.overview);
    const path = (url: URL) => `/session${url.search}`;
    expect((await call(bare, path(overview))).status).toBe(404);

    const ok = await request(path(overview));
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe('/billing/');
    expect(ok.headers.get('set-cookie')).toMatch(/^session=granted\d+/);
    expect(granted.at(-1)).toMatchObject({ customerId: alice, subscriptionIds: [aliceSubscription] });

    const cancel = new URL(String(session.urls.subscriptions[0]?.cancelSubscription));
    const deep = await request(path(cancel));
    expect(deep.headers.get('location')).toBe(`/billing/subscriptions/${aliceSubscription}/cancel`);

    // A subscription the session does not name, an unknown action, a tampered or missing token.
    const count = granted.length;
    const other = new URL(cancel);
    other.searchParams.set('subscription_id', bobSubscription);
    const unknownAction = new URL(overview);
    unknownAction.searchParams.set('action', 'delete_everything');
    const tampered = new URL(overview);
    tampered.searchParams.set('token', `x${overview.searchParams.get('token')}`);
    const missing = new URL(overview);
    missing.searchParams.delete('token');
    for (const url of [other, unknownAction, tampered, missing]) {
      const response = await request(path(url));
      expect(response.status, url.search).toBe(404);
      expect(response.headers.get('set-cookie')).toBeNull();
      expect(await response.text()).not.toContain('id="history"');
    }
    expect(granted.length).toBe(count);
  });
});
