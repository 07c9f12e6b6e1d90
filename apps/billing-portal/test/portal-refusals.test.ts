/**
 * The portal's refusals (seed 001, rule 6 and Errors) against a real billing service: no session,
 * no customer record, another customer's invoice (with a customer id forged in the query, the
 * body and the headers), statuses that are never listed, and the service's codes passed through;
 * and the paths a browser without script takes.
 */
import { Drawdown, type Transaction } from '@drawdown/sdk';
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BillingPortalHandler, createBillingPortal } from '../src/index.js';

const BASE = 'http://portal.test/billing';

describe.each(ENGINES)('%s: the billing portal over HTTP', (engine) => {
  let harness: BillingHarness;
  let portal: BillingPortalHandler;
  let alice: string;
  let bob: string;
  let aliceCompleted: Transaction;
  let aliceReady: Transaction;
  let aliceDraft: Transaction;
  let aliceBilled: Transaction;
  let bobCompleted: Transaction;

  /** The host's server-side sessions: the cookie names a session, the session names a customer. */
  const sessions = new Map<string, string | null>();

  function request(path: string, init: RequestInit & { session?: string } = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (init.session) headers.set('cookie', `session=${init.session}`);
    return portal(new Request(`${BASE}${path}`, { ...init, headers }));
  }

  beforeAll(async () => {
    harness = await startBillingHarness({ engine });
    const admin = new Drawdown(harness.sandboxKey, { baseUrl: harness.sandboxUrl });
    const product = await admin.products.create({ name: 'Support', taxCategory: 'standard' });
    const price = await admin.prices.create({
      productId: product.id,
      description: 'Support hour',
      unitPrice: { amount: '12000', currencyCode: 'USD' },
    });
    const customer = async (email: string) => {
      const created = await admin.customers.create({ email });
      const address = await admin.addresses.create(created.id, { countryCode: 'US' });
      return { customerId: created.id, addressId: address.id };
    };
    const a = await customer('alice@example.com');
    const b = await customer('bob@example.com');
    alice = a.customerId;
    bob = b.customerId;
    const items = [{ priceId: price.id, quantity: 1 }];
    const paid = async (party: typeof a) =>
      admin.transactions.simulatePayment((await admin.transactions.create({ items, ...party })).id, 'success');
    aliceCompleted = await paid(a);
    bobCompleted = await paid(b);
    aliceReady = await admin.transactions.create({ items, ...a });
    aliceDraft = await admin.transactions.create({ items, customerId: alice });
    aliceBilled = await admin.transactions.create({
      items,
      ...a,
      collectionMode: 'manual',
      billingDetails: { paymentTerms: { interval: 'day', frequency: 14 } },
      status: 'billed',
    });
    // The portal's key holds only what the portal needs.
    const portalKey = await harness.createKey({
      environment: 'sandbox',
      permissions: ['transaction.read', 'usage_balance.read', 'usage_balance_unit.read'],
    });
    sessions.set('alice', alice);
    sessions.set('bob', bob);
    sessions.set('nobody', null);
    portal = createBillingPortal({
      client: new Drawdown(portalKey, { baseUrl: harness.sandboxUrl }),
      basePath: '/billing',
      resolveCustomerId: async (incoming) => {
        const id = /session=(\w+)/.exec(incoming.headers.get('cookie') ?? '')?.[1];
        return id === undefined ? undefined : sessions.get(id);
      },
      logError: () => {},
    });
  });
  afterAll(() => harness.close());

  it('refuses every route without a signed-in user with 401 Not authenticated', async () => {
    for (const [method, path] of [
      ['GET', '/'],
      ['GET', '/api/transactions'],
      ['GET', '/api/usage'],
      ['POST', `/api/transactions/${aliceCompleted.id}/invoice`],
    ] as const) {
      const response = await request(path, { method });
      expect(response.status, `${method} ${path}`).toBe(401);
      if (path.startsWith('/api')) {
        expect(await response.json()).toEqual({ error: { code: 'not_authenticated', detail: 'Not authenticated' } });
      } else {
        expect(await response.text()).toContain('Not authenticated');
      }
    }
  });

  it('gives a signed-in user without a customer record an empty list with hasMore false', async () => {
    const list = await request('/api/transactions', { session: 'nobody' });
    expect(list.status).toBe(200);
    expect(await list.json()).toEqual({ data: [], hasMore: false, next: null });
    const usage = await request('/api/usage', { session: 'nobody' });
    expect(await usage.json()).toEqual({ data: [] });
    const page = await request('/', { session: 'nobody' });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('There is no billing account for you yet');
  });

  it('refuses invoice requests of a user without a customer record with No customer', async () => {
    const response = await request(`/api/transactions/${aliceCompleted.id}/invoice`, {
      method: 'POST',
      session: 'nobody',
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: { code: 'no_customer', detail: 'No customer' } });
  });

  it("refuses an invoice for another customer's transaction as Forbidden, whatever customer id the request names", async () => {
    const attempts: [string, RequestInit][] = [
      [`/api/transactions/${aliceCompleted.id}/invoice`, {}],
      [`/api/transactions/${aliceCompleted.id}/invoice?customer_id=${alice}&customerId=${alice}`, {}],
      [
        `/api/transactions/${aliceCompleted.id}/invoice`,
        {
          body: JSON.stringify({ customer_id: alice, customerId: alice }),
          headers: { 'content-type': 'application/json' },
        },
      ],
      [
        `/api/transactions/${aliceCompleted.id}/invoice`,
        { headers: { 'x-customer-id': alice, 'customer-id': alice, 'x-forwarded-user': alice } },
      ],
    ];
    for (const [path, init] of attempts) {
      const response = await request(path, { ...init, method: 'POST', session: 'bob' });
      expect(response.status, path).toBe(403);
      expect(await response.json()).toEqual({ error: { code: 'forbidden', detail: 'Forbidden' } });
    }
    // The plain form route refuses the same way.
    const form = await request(`/transactions/${aliceCompleted.id}/invoice`, { method: 'POST', session: 'bob' });
    expect(form.status).toBe(403);
  });

  it('serves a fresh link to the own invoice, and the link is a PDF', async () => {
    const response = await request(`/api/transactions/${bobCompleted.id}/invoice`, { method: 'POST', session: 'bob' });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const { data } = (await response.json()) as { data: { url: string } };
    const pdf = await fetch(data.url);
    expect(pdf.headers.get('content-type')).toMatch(/^application\/pdf/);
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString('latin1'),
    ).toBe('%PDF-');
  });

  it('never lists draft or ready transactions, nor another customer’s', async () => {
    const response = await request('/api/transactions', { session: 'alice' });
    const body = (await response.json()) as { data: { id: string; status: string }[]; hasMore: boolean };
    const ids = body.data.map((row) => row.id);
    expect(ids).toEqual([aliceBilled.id, aliceCompleted.id]);
    expect(ids).not.toContain(aliceReady.id);
    expect(ids).not.toContain(aliceDraft.id);
    expect(ids).not.toContain(bobCompleted.id);
    expect(body.hasMore).toBe(false);
    const page = await (await request('/', { session: 'alice' })).text();
    expect(page).not.toContain(aliceReady.id);
    expect(page).not.toContain(aliceDraft.id);
    expect(page).not.toContain(bobCompleted.id);
  });

  it('ignores a customer id forged into the list request', async () => {
    const response = await request(`/api/transactions?customer_id=${bob}&customerId=${bob}`, {
      session: 'alice',
      headers: { 'x-customer-id': bob },
    });
    const ids = ((await response.json()) as { data: { id: string }[] }).data.map((row) => row.id);
    expect(ids).toEqual([aliceBilled.id, aliceCompleted.id]);
  });

  it("passes the service's error code through for other failures", async () => {
    const ready = await request(`/api/transactions/${aliceReady.id}/invoice`, { method: 'POST', session: 'alice' });
    expect(ready.status).toBe(409);
    expect(((await ready.json()) as { error: { code: string } }).error.code).toBe('transaction_invoice_not_available');
    const unknown = await request('/api/transactions/txn_01jzzzzzzzzzzzzzzzzzzzzzzz/invoice', {
      method: 'POST',
      session: 'alice',
    });
    const unknownBody = (await unknown.json()) as { error: { code: string } };
    expect(unknown.status).toBeGreaterThanOrEqual(400);
    expect(unknown.status).toBeLessThan(500);
    expect(unknownBody.error.code).toMatch(/not_found/);
  });

  it('refuses a malformed transaction id or cursor with bad_request', async () => {
    const id = await request('/api/transactions/not-an-id/invoice', { method: 'POST', session: 'alice' });
    expect(id.status).toBe(400);
    const cursor = await request('/api/transactions?after=%27%20OR%201%3D1', { session: 'alice' });
    expect(cursor.status).toBe(400);
    expect(((await cursor.json()) as { error: { code: string } }).error.code).toBe('bad_request');
  });

  it('refuses an invoice request that the browser marks as cross-site', async () => {
    const response = await request(`/api/transactions/${aliceCompleted.id}/invoice`, {
      method: 'POST',
      session: 'alice',
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(response.status).toBe(403);
  });

  it('sends the page with a Content-Security-Policy and the other security headers', async () => {
    const response = await request('/', { session: 'alice' });
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('referrer-policy')).toBe('same-origin');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const html = await response.text();
    expect(html).toMatch(/<html lang="en">/);
    expect(html).not.toMatch(/<script>(?!<\/script>)/);
    expect(html).not.toMatch(/style="/);
  });

  it('pages without script: a cursor in the page address shows the rows after it', async () => {
    const first = await (await request('/', { session: 'alice' })).text();
    expect(first).not.toContain('Back to the newest');
    const after = await request(`/?after=${aliceBilled.id}`, { session: 'alice' });
    const html = await after.text();
    expect(html).toContain(`data-transaction-id="${aliceCompleted.id}"`);
    expect(html).not.toContain(`data-transaction-id="${aliceBilled.id}"`);
    expect(html).toContain('Back to the newest');
  });

  it('answers a plain form post for the own invoice with a page that links the PDF', async () => {
    const response = await request(`/transactions/${aliceCompleted.id}/invoice`, { method: 'POST', session: 'alice' });
    expect(response.status).toBe(200);
    const href = /href="([^"]+)">Download the invoice PDF/.exec(await response.text())?.[1];
    expect(href).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    const pdf = await fetch((href ?? '').replaceAll('&amp;', '&'));
    expect(pdf.headers.get('content-type')).toMatch(/^application\/pdf/);
  });
});
