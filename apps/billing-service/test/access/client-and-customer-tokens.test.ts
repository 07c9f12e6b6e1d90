/**
 * Client-side tokens and customer authentication tokens through the official SDK, on both
 * engines (ADR 1431, ADR 1432): `clientTokens.create/list/get/update/revoke` with the
 * `live_`/`test_` format, the whole token shown once and stored hashed, events, the revoked
 * status kept; `customers.generateAuthToken` with its 30-minute expiry; and the core checks that
 * the checkout and portal pages use, which never accept a token of another account,
 * environment or customer, or one past its expiry on the sandbox clock.
 */
import { createHash } from 'node:crypto';
import { BillingError, CUSTOMER_AUTH_TOKEN_LIFETIME_MS } from '@drawdown/billing-core';
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { ApiError, type Environment, Paddle } from '@paddle/paddle-node-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, apiClient, expectError, expectInvalidField, harnessClients } from '../support/api-client.js';
import { unique } from '../support/catalogue-fixtures.js';

function sdk(key: string, baseUrl: string): Paddle {
  return new Paddle(key, { environment: baseUrl as Environment, logLevel: 'none' as never });
}

async function refusal(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    if (error instanceof BillingError) return error.code;
    if (error instanceof ApiError) return error.code;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe.each(ENGINES)('%s: client-side tokens and customer auth tokens', (engine) => {
  let harness: BillingHarness;
  let paddle: Paddle;
  let live: Paddle;
  let sandbox: ApiClient;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine });
    ({ sandbox } = harnessClients(harness));
    paddle = sdk(harness.sandboxKey, harness.sandboxUrl);
    live = sdk(harness.liveKey, harness.liveUrl);
  });
  afterAll(() => harness.close());

  it('creates a test_ token in sandbox and a live_ one in live, whole in every answer (public by design)', async () => {
    const created = await paddle.clientTokens.create({ name: 'Pricing page', description: 'Marketing site checkout' });
    expect(created).toMatchObject({
      name: 'Pricing page',
      description: 'Marketing site checkout',
      status: 'active',
      revokedAt: null,
    });
    expect(created.id).toMatch(/^ctkn_[a-z\d]{26}$/);
    expect(created.token).toMatch(/^test_[a-z\d]{32}$/);
    const read = await paddle.clientTokens.get(created.id);
    // Client-side tokens are public (they sit in a web page), so reads show them whole, as the public API does (issue 36).
    expect(read.token).toBe(created.token);
    const listed: string[] = [];
    for await (const token of paddle.clientTokens.list()) listed.push(token.token);
    expect(listed).toContain(created.token);
    expect(read).toMatchObject({
      id: created.id,
      name: 'Pricing page',
      status: 'active',
      createdAt: created.createdAt,
    });
    const liveToken = await live.clientTokens.create({ name: 'Live site' });
    expect(liveToken.token).toMatch(/^live_[a-z\d]{32}$/);
    expect(liveToken.description).toBeNull();
    // The event carries it whole too, as the public API's client_token.created does.
    const events = await sandbox.get('/events?per_page=200');
    expect(events.text).toContain(created.token);
  });

  it('lists active tokens by default, revoked on request, newest first; revoke is final', async () => {
    const first = await paddle.clientTokens.create({ name: unique('first') });
    const second = await paddle.clientTokens.create({ name: unique('second') });
    const revoked = await paddle.clientTokens.revoke(first.id);
    expect(revoked).toMatchObject({ id: first.id, status: 'revoked' });
    expect(revoked.revokedAt).not.toBeNull();
    const active: string[] = [];
    for await (const token of paddle.clientTokens.list()) active.push(token.id);
    expect(active).toContain(second.id);
    expect(active).not.toContain(first.id);
    expect(active).toEqual([...active].sort().reverse());
    const revokedOnes: string[] = [];
    for await (const token of paddle.clientTokens.list({ status: ['revoked'] })) revokedOnes.push(token.id);
    expect(revokedOnes).toEqual([first.id]);
    // Revoked stays revoked; revoking again changes nothing.
    expect(await refusal(paddle.clientTokens.update(first.id, { status: 'active' }))).toBe('client_token_revoked');
    expect((await paddle.clientTokens.revoke(first.id)).revokedAt).toBe(revoked.revokedAt);
    const types = (await sandbox.get('/events?per_page=200')).list
      .filter((event) => (event.data as { id?: string }).id === first.id)
      .map((event) => event.event_type);
    // Once each: created, then updated and revoked by the revoke (a second revoke records nothing).
    expect([...types].sort()).toEqual(['client_token.created', 'client_token.revoked', 'client_token.updated']);
  });

  it('authenticates an active token only in its own environment, never once revoked', async () => {
    const created = await paddle.clientTokens.create({ name: unique('checkout') });
    const { useCases } = harness.services;
    const found = await useCases.authenticateClientToken('sandbox', created.token);
    expect(found.scope).toEqual({ accountId: harness.accountId, environment: 'sandbox' });
    expect(found.token.id).toBe(created.id);
    expect(await refusal(useCases.authenticateClientToken('live', created.token))).toBe('invalid_client_token');
    // Another last character, whatever the token's own is (the same one would be the token itself).
    const tampered = `${created.token.slice(0, -1)}${created.token.endsWith('x') ? 'y' : 'x'}`;
    expect(await refusal(useCases.authenticateClientToken('sandbox', tampered))).toBe('invalid_client_token');
    expect(await refusal(useCases.authenticateClientToken('sandbox', 'test_short'))).toBe('invalid_client_token');
    await paddle.clientTokens.revoke(created.id);
    expect(await refusal(useCases.authenticateClientToken('sandbox', created.token))).toBe('invalid_client_token');
  });

  it('keeps accounts and environments apart and refuses bad input', async () => {
    const mine = await paddle.clientTokens.create({ name: unique('mine') });
    const strangerAccount = await harness.createAccount({ earlyAccess: false });
    const stranger = sdk(
      await harness.createKey({ environment: 'sandbox', permissions: ['all'], accountId: strangerAccount }),
      harness.sandboxUrl,
    );
    expect(await refusal(stranger.clientTokens.get(mine.id))).toBe('not_found');
    expect(await refusal(stranger.clientTokens.revoke(mine.id))).toBe('not_found');
    expect(await refusal(live.clientTokens.get(mine.id))).toBe('not_found');
    expect((await paddle.clientTokens.get(mine.id)).status).toBe('active');
    expectInvalidField(await sandbox.post('/client-tokens', { name: '' }), 'name');
    expectInvalidField(await sandbox.post('/client-tokens', { name: 'x'.repeat(151) }), 'name');
    expectInvalidField(
      await sandbox.post('/client-tokens', { name: 'ok', description: 'x'.repeat(501) }),
      'description',
    );
    expectInvalidField(await sandbox.post('/client-tokens', { name: 'ok', description: '' }), 'description');
    expectInvalidField(await sandbox.post('/client-tokens', { name: 'ok', token: 'test_mine' }), 'token');
    expectInvalidField(await sandbox.patch(`/client-tokens/${mine.id}`, { status: 'paused' }), 'status');
    expectInvalidField(await sandbox.patch(`/client-tokens/${mine.id}`, { name: 'renamed' }), 'name');
    expectError(await sandbox.get('/client-tokens/ctkn_nope'), 400, 'bad_request');
    expectError(await sandbox.get('/client-tokens/ctkn_01h00000000000000000000000'), 404, 'not_found');
    expectInvalidField(await sandbox.get('/client-tokens?status=paused'), 'status');
    const reader = apiClient(
      harness.sandboxUrl,
      await harness.createKey({ environment: 'sandbox', permissions: ['client_token.read'] }),
    );
    expect((await reader.get(`/client-tokens/${mine.id}`)).status).toBe(200);
    expectError(await reader.post('/client-tokens', { name: 'nope' }), 403, 'forbidden');
    expect((await paddle.clientTokens.get(mine.id)).name).toBe(mine.name);
  });

  it('generates a customer auth token that expires in 30 minutes and verifies only for its scope and customer', async () => {
    const customer = await paddle.customers.create({ email: `${unique('buyer')}@example.com` });
    const other = await paddle.customers.create({ email: `${unique('other')}@example.com` });
    const before = Date.now();
    const issued = await paddle.customers.generateAuthToken(customer.id);
    expect(issued.customerAuthToken).toMatch(
      new RegExp(`^pca_[a-z\\d]{26}_${customer.id.slice(4)}_[A-Za-z\\d]{32,64}$`),
    );
    const lifetime = Date.parse(issued.expiresAt) - before;
    expect(lifetime).toBeGreaterThan(CUSTOMER_AUTH_TOKEN_LIFETIME_MS - 60_000);
    expect(lifetime).toBeLessThanOrEqual(CUSTOMER_AUTH_TOKEN_LIFETIME_MS + 60_000);

    const { useCases } = harness.services;
    const scope = { accountId: harness.accountId, environment: 'sandbox' } as const;
    expect(await useCases.verifyCustomerAuthToken(scope, issued.customerAuthToken)).toEqual({
      customerId: customer.id,
      expiresAt: issued.expiresAt,
    });
    expect((await useCases.verifyCustomerAuthToken(scope, issued.customerAuthToken, customer.id)).customerId).toBe(
      customer.id,
    );
    const invalid = 'invalid_customer_auth_token';
    expect(await refusal(useCases.verifyCustomerAuthToken(scope, issued.customerAuthToken, other.id))).toBe(invalid);
    expect(
      await refusal(useCases.verifyCustomerAuthToken({ ...scope, environment: 'live' }, issued.customerAuthToken)),
    ).toBe(invalid);
    const strangerAccount = await harness.createAccount({ earlyAccess: false });
    expect(
      await refusal(
        useCases.verifyCustomerAuthToken(
          { accountId: strangerAccount, environment: 'sandbox' },
          issued.customerAuthToken,
        ),
      ),
    ).toBe(invalid);
    expect(await refusal(useCases.verifyCustomerAuthToken(scope, `${issued.customerAuthToken}x`))).toBe(invalid);
    // The store keeps the token's SHA-256, not the token.
    const stored = await harness.services.store.customerAuthTokens.findByHash(
      createHash('sha256').update(issued.customerAuthToken).digest('hex'),
    );
    expect(stored?.token.customerId).toBe(customer.id);
    expect(JSON.stringify(stored)).not.toContain(issued.customerAuthToken);

    // Past its expiry on the sandbox clock, it is refused.
    const advanced = await sandbox.post('/sandbox-clock/advance', { seconds: 31 * 60 });
    expect(advanced.status, advanced.text).toBe(200);
    expect(await refusal(useCases.verifyCustomerAuthToken(scope, issued.customerAuthToken))).toBe(invalid);
  });

  it('refuses auth tokens for customers of another account or environment, unknown or archived ones', async () => {
    const customer = await paddle.customers.create({ email: `${unique('buyer')}@example.com` });
    const strangerAccount = await harness.createAccount({ earlyAccess: false });
    const stranger = sdk(
      await harness.createKey({ environment: 'sandbox', permissions: ['all'], accountId: strangerAccount }),
      harness.sandboxUrl,
    );
    expect(await refusal(stranger.customers.generateAuthToken(customer.id))).toBe('not_found');
    expect(await refusal(live.customers.generateAuthToken(customer.id))).toBe('not_found');
    expectError(await sandbox.post('/customers/ctm_01h00000000000000000000000/auth-token'), 404, 'not_found');
    // The endpoint takes no fields: one sent is refused, not ignored.
    expectInvalidField(await sandbox.post(`/customers/${customer.id}/auth-token`, { expires_in: 3600 }), 'expires_in');
    expectError(await sandbox.post('/customers/not-an-id/auth-token'), 400, 'bad_request');
    await paddle.customers.archive(customer.id);
    expectError(await sandbox.post(`/customers/${customer.id}/auth-token`), 400, 'entity_archived');
    const withoutPermission = apiClient(
      harness.sandboxUrl,
      await harness.createKey({ environment: 'sandbox', permissions: ['customer.write'] }),
    );
    expectError(await withoutPermission.post(`/customers/${customer.id}/auth-token`), 403, 'forbidden');
  });
});
