/**
 * Customer portal sessions (ADR 1440), on both engines: the official SDK's
 * `customerPortalSessions.create` gets the documented shape with URLs on the configured portal
 * address; the portal's verify call accepts the token only for the same account and environment,
 * refuses an altered one and one past its hour (on the sandbox clock); subscription ids must be
 * the customer's; subscriptions' `management_urls` are real URLs. Tokens are signed with Ed25519
 * and the public key is published to keys with `customer_portal_session.read` (ADR 1443).
 */
import { createPublicKey, verify } from 'node:crypto';
import { type BillingHarness, ENGINES, startBillingHarness, startSandboxSubscription } from '@drawdown/testkit';
import { ApiError, type Paddle } from '@paddle/paddle-node-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, apiClient, expectError, harnessClients } from '../support/api-client.js';
import { createProduct } from '../support/catalogue-fixtures.js';
import { officialSdk } from '../support/official-sdk.js';
import { type Buyer, createBuyer } from '../transactions/transaction-fixtures.js';

const PORTAL = 'https://billing.example.test/portal';

describe.each(ENGINES)('%s: customer portal sessions', (engine) => {
  let harness: BillingHarness;
  let paddle: Paddle;
  let sandbox: ApiClient;
  let live: ApiClient;
  let buyer: Buyer;
  let other: Buyer;
  let subscriptionId: string;
  let othersSubscriptionId: string;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine, portalUrl: `${PORTAL}/` });
    ({ sandbox, live } = harnessClients(harness));
    paddle = officialSdk(harness.sandboxKey, harness.sandboxUrl);
    buyer = await createBuyer(sandbox, 'DE');
    other = await createBuyer(sandbox, 'DE');
    const productId = await createProduct(sandbox, { name: 'Team plan' });
    const price = await sandbox.post('/prices', {
      product_id: productId,
      description: 'Monthly',
      unit_price: { amount: '1500', currency_code: 'EUR' },
      billing_cycle: { interval: 'month', frequency: 1 },
    });
    expect(price.status, price.text).toBe(201);
    const items = [{ priceId: price.id, quantity: 1 }];
    subscriptionId = await startSandboxSubscription(harness, {
      customerId: buyer.customerId,
      items,
      currencyCode: 'EUR',
    });
    othersSubscriptionId = await startSandboxSubscription(harness, {
      customerId: other.customerId,
      items,
      currencyCode: 'EUR',
    });
  });
  afterAll(() => harness.close());

  function tokenOf(url: string): string {
    return new URL(url).searchParams.get('token') ?? '';
  }

  it('creates a session through the official SDK with overview and per-subscription links on the portal', async () => {
    const session = await paddle.customerPortalSessions.create(buyer.customerId, [subscriptionId]);
    expect(session.id).toMatch(/^cpls_[a-z\d]{26}$/);
    expect(session.customerId).toBe(buyer.customerId);
    expect(Date.parse(session.createdAt)).not.toBeNaN();
    const overview = new URL(session.urls.general.overview);
    expect(`${overview.origin}${overview.pathname}`).toBe(`${PORTAL}/session`);
    expect(overview.searchParams.get('action')).toBe('overview');
    expect(session.urls.subscriptions).toHaveLength(1);
    const [links] = session.urls.subscriptions;
    expect(links?.id).toBe(subscriptionId);
    const cancel = new URL(String(links?.cancelSubscription));
    expect(cancel.searchParams.get('action')).toBe('cancel_subscription');
    expect(cancel.searchParams.get('subscription_id')).toBe(subscriptionId);
    const payment = new URL(String(links?.updateSubscriptionPaymentMethod));
    expect(payment.searchParams.get('action')).toBe('update_subscription_payment_method');

    const verified = await sandbox.post('/customer-portal-sessions/verify', {
      token: tokenOf(session.urls.general.overview),
    });
    expect(verified.status, verified.text).toBe(200);
    expect(verified.entity).toMatchObject({
      id: session.id,
      customer_id: buyer.customerId,
      subscription_ids: [subscriptionId],
    });
    // Every link of one session carries the same token.
    expect(tokenOf(cancel.href)).toBe(tokenOf(session.urls.general.overview));
  });

  it('creates a session without a body, and with no subscriptions', async () => {
    const bare = await sandbox.post(`/customers/${buyer.customerId}/portal-sessions`);
    expect(bare.status, bare.text).toBe(201);
    expect(bare.entity.urls).toMatchObject({ subscriptions: [] });
    const empty = await paddle.customerPortalSessions.create(buyer.customerId, []);
    expect(empty.urls.subscriptions).toEqual([]);
  });

  it('refuses subscriptions that are not the customer’s, unknown customers and bad bodies, creating nothing', async () => {
    const foreign = await sandbox.post(`/customers/${buyer.customerId}/portal-sessions`, {
      subscription_ids: [subscriptionId, othersSubscriptionId],
    });
    expectError(foreign, 400, 'subscription_not_found');
    const unknown = await sandbox.post(`/customers/${buyer.customerId}/portal-sessions`, {
      subscription_ids: ['sub_01aaaaaaaaaaaaaaaaaaaaaaaa'],
    });
    expectError(unknown, 400, 'subscription_not_found');
    const noCustomer = await sandbox.post('/customers/ctm_01aaaaaaaaaaaaaaaaaaaaaaaa/portal-sessions', {});
    expectError(noCustomer, 404, 'not_found');
    // The sandbox customer is not the live environment's.
    expectError(await live.post(`/customers/${buyer.customerId}/portal-sessions`, {}), 404, 'not_found');
    expectError(
      await sandbox.post(`/customers/${buyer.customerId}/portal-sessions`, { subscription_ids: ['nope'] }),
      400,
      'invalid_field',
    );
    expectError(
      await sandbox.post(`/customers/${buyer.customerId}/portal-sessions`, { return_url: 'https://x.test' }),
      400,
      'invalid_field',
    );
    await expect(paddle.customerPortalSessions.create(other.customerId, [subscriptionId])).rejects.toBeInstanceOf(
      ApiError,
    );
  });

  it('verifies only an unaltered token of the same account and environment, within its hour', async () => {
    const session = await paddle.customerPortalSessions.create(buyer.customerId, []);
    const token = tokenOf(session.urls.general.overview);
    const [payload = '', signature = ''] = token.split('.');

    // Altered: the payload names another customer, or the signature changes by one character.
    const forged = Buffer.from(
      Buffer.from(payload, 'base64url').toString('utf8').replace(buyer.customerId, other.customerId),
      'utf8',
    ).toString('base64url');
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
    for (const bad of [`${forged}.${signature}`, `${payload}.${flipped}`, `${payload}.`, 'not-a-token', `${token}x`]) {
      expectError(
        await sandbox.post('/customer-portal-sessions/verify', { token: bad }),
        404,
        'portal_session_invalid',
      );
    }
    // Another environment or another account cannot use it.
    expectError(await live.post('/customer-portal-sessions/verify', { token }), 404, 'portal_session_invalid');
    const otherAccount = await harness.createAccount({ earlyAccess: true });
    const otherKey = await harness.createKey({ environment: 'sandbox', permissions: ['all'], accountId: otherAccount });
    const stranger = apiClient(harness.sandboxUrl, otherKey);
    expectError(await stranger.post('/customer-portal-sessions/verify', { token }), 404, 'portal_session_invalid');
    // A key without the permission is refused before anything is read.
    const readOnly = await harness.createKey({ environment: 'sandbox', permissions: ['customer.read'] });
    expectError(
      await apiClient(harness.sandboxUrl, readOnly).post('/customer-portal-sessions/verify', { token }),
      403,
      'forbidden',
    );

    expect((await sandbox.post('/customer-portal-sessions/verify', { token })).status).toBe(200);
    // One hour later on the sandbox clock, the same token is expired.
    const advanced = await sandbox.post('/sandbox-clock/advance', { seconds: 3_601 });
    expect(advanced.status, advanced.text).toBe(200);
    expectError(await sandbox.post('/customer-portal-sessions/verify', { token }), 410, 'portal_session_expired');
  });

  it('signs tokens with Ed25519 under one deployment key that the verification-key route publishes', async () => {
    const key = await sandbox.get('/customer-portal-sessions/verification-key');
    expect(key.status, key.text).toBe(200);
    expect(key.entity).toEqual({
      account_id: harness.accountId,
      environment: 'sandbox',
      algorithm: 'Ed25519',
      public_key: expect.stringMatching(/^[A-Za-z\d_-]{43}$/),
    });
    // The live address tells the same deployment key, with its own environment.
    const liveKey = await live.get('/customer-portal-sessions/verification-key');
    expect(liveKey.entity).toMatchObject({ environment: 'live', public_key: key.entity.public_key });
    const publicKey = createPublicKey({
      key: { kty: 'OKP', crv: 'Ed25519', x: String(key.entity.public_key) },
      format: 'jwk',
    });
    const session = await paddle.customerPortalSessions.create(buyer.customerId, [subscriptionId]);
    const [payload = '', signature = ''] = tokenOf(session.urls.general.overview).split('.');
    expect(signature).toMatch(/^[A-Za-z\d_-]{86}$/);
    const text = Buffer.from(payload, 'base64url');
    expect(text.toString('utf8').split('\n')[0]).toBe('drawdown-portal-session-v1');
    expect(verify(null, text, publicKey, Buffer.from(signature, 'base64url'))).toBe(true);
    expect(verify(null, Buffer.concat([text, Buffer.from('x')]), publicKey, Buffer.from(signature, 'base64url'))).toBe(
      false,
    );
  });

  it('gives subscriptions real management URLs on the portal', async () => {
    const subscription = await paddle.subscriptions.get(subscriptionId);
    expect(subscription.managementUrls?.cancel).toBe(`${PORTAL}/subscriptions/${subscriptionId}/cancel`);
    expect(subscription.managementUrls?.updatePaymentMethod).toBe(
      `${PORTAL}/subscriptions/${subscriptionId}/payment-method`,
    );
    // Events (and the webhooks made from them) carry them too.
    const events = await sandbox.get('/events?event_type=subscription.created&per_page=200');
    const created = (events.body.data as { data: { id: string; management_urls: unknown } }[]).find(
      (event) => event.data.id === subscriptionId,
    );
    expect(created?.data.management_urls).toEqual({
      update_payment_method: `${PORTAL}/subscriptions/${subscriptionId}/payment-method`,
      cancel: `${PORTAL}/subscriptions/${subscriptionId}/cancel`,
    });
    const listed = await sandbox.get(`/subscriptions?id=${subscriptionId}`);
    expect((listed.body.data as { management_urls: unknown }[])[0]?.management_urls).toEqual({
      update_payment_method: `${PORTAL}/subscriptions/${subscriptionId}/payment-method`,
      cancel: `${PORTAL}/subscriptions/${subscriptionId}/cancel`,
    });
  });
});
