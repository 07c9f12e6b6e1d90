/**
 * The public API's wire conventions (its reference's "About" pages), over real HTTP on both
 * storage engines: envelopes, request ids, errors, pagination, body reading and key scope.
 */
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiClient,
  apiClient,
  eventCount,
  expectError,
  expectInvalidField,
  harnessClients,
} from '../support/api-client.js';
import { createProduct } from '../support/catalogue-fixtures.js';

const PUBLIC_SANDBOX_URL = 'https://sandbox.billing.example/api';

describe.each(ENGINES)('%s: wire conventions', (engine) => {
  let harness: BillingHarness;
  let api: ApiClient;
  /** A fresh account, so list totals are known exactly. */
  let fresh: ApiClient;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine, sandboxPublicUrl: `${PUBLIC_SANDBOX_URL}/` });
    api = harnessClients(harness).sandbox;
    const accountId = await harness.createAccount({ earlyAccess: true });
    fresh = apiClient(
      harness.sandboxUrl,
      await harness.createKey({ environment: 'sandbox', permissions: ['all'], accountId }),
    );
    for (let index = 0; index < 3; index += 1) await createProduct(fresh, { name: `Paged ${index}` });
  });
  afterAll(() => harness.close());

  describe('envelopes', () => {
    it('wraps an entity in data with meta.request_id equal to the Request-Id header', async () => {
      const response = await api.post('/products', { name: 'Envelope', tax_category: 'saas' });
      expect(Object.keys(response.body).sort()).toEqual(['data', 'meta']);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const requestId = response.headers.get('request-id');
      expect(requestId).toMatch(/^[\da-f]{8}-[\da-f]{4}-4[\da-f]{3}-[89ab][\da-f]{3}-[\da-f]{12}$/);
      expect(response.body.meta).toEqual({ request_id: requestId });
    });

    it('gives every request its own request id', async () => {
      const [first, second] = await Promise.all([api.get('/products'), api.get('/products')]);
      expect(first?.body.meta?.request_id).not.toBe(second?.body.meta?.request_id);
    });

    it('answers errors with type, code, detail and documentation_url, and the request id', async () => {
      const response = await api.get('/products/pro_00000000000000000000000000');
      const error = expectError(response, 404, 'not_found');
      expect(Object.keys(error).sort()).toEqual(['code', 'detail', 'documentation_url', 'type']);
      expect(error.type).toBe('request_error');
      expect(error.detail).toContain('pro_00000000000000000000000000');
    });

    it('adds errors[] with field and message on validation errors only', async () => {
      const response = await api.post('/products', { name: '', tax_category: 'nope' });
      const error = expectError(response, 400, 'invalid_field');
      expect(error.errors).toEqual(
        expect.arrayContaining([
          { field: 'name', message: expect.any(String) },
          { field: 'tax_category', message: expect.any(String) },
        ]),
      );
    });

    it('answers an unknown path with not_found in the envelope', async () => {
      expectError(await api.get('/no-such-thing'), 404, 'not_found');
    });
  });

  describe('pagination', () => {
    it('clamps per_page to the maximum instead of refusing it', async () => {
      const response = await fresh.get('/products?per_page=500');
      expect(response.status).toBe(200);
      expect(response.body.meta?.pagination?.per_page).toBe(200);
    });

    it('uses 50 when per_page is absent', async () => {
      expect((await fresh.get('/products')).body.meta?.pagination?.per_page).toBe(50);
    });

    it.each([
      '0',
      'abc',
      '-1',
      '1.5',
      '',
      '1e2',
      '99999999999',
    ])('refuses per_page=%j with invalid_field', async (value) => {
      expectInvalidField(await fresh.get(`/products?per_page=${value}`), 'per_page');
    });

    it('refuses a malformed after cursor with invalid_field', async () => {
      for (const after of ['garbage', 'ctm_00000000000000000000000000', 'pro_short', "pro_' or 1=1 --"]) {
        expectInvalidField(await fresh.get(`/products?after=${encodeURIComponent(after)}`), 'after');
      }
    });

    it('reports has_more and estimated_total, and pages to the end by following next', async () => {
      const first = await fresh.get('/products?per_page=2&status=active');
      expect(first.list).toHaveLength(2);
      expect(first.body.meta?.pagination).toMatchObject({ per_page: 2, has_more: true, estimated_total: 3 });
      const next = new URL(first.body.meta?.pagination?.next ?? '');
      expect(next.searchParams.get('after')).toBe(first.list[1]?.id);
      expect(next.searchParams.get('per_page')).toBe('2');
      expect(next.searchParams.get('status')).toBe('active');
      const second = await fresh.get(`/products${next.search}`);
      expect(second.list).toHaveLength(1);
      expect(second.body.meta?.pagination).toMatchObject({ has_more: false, estimated_total: 3 });
      expect(second.body.meta?.pagination?.next).toMatch(/^https:\/\//);
      const ids = [...first.list, ...second.list].map((product) => product.id);
      expect(new Set(ids).size).toBe(3);
    });

    it('advertises next as an absolute URL on the configured public base, once-slashed', async () => {
      const response = await fresh.get('/products?per_page=1');
      const next = response.body.meta?.pagination?.next ?? '';
      expect(next.startsWith(`${PUBLIC_SANDBOX_URL}/products?`)).toBe(true);
      expect(next).toContain(`after=${String(response.list[0]?.id)}`);
    });

    it('advertises next on the bound address when no public base is configured', async () => {
      const response = await apiClient(harness.liveUrl, harness.liveKey).get('/products?per_page=1');
      expect(response.body.meta?.pagination?.next.startsWith(`${harness.liveUrl}/products?`)).toBe(true);
    });
  });

  describe('request bodies', () => {
    let productId: string;

    beforeAll(async () => {
      productId = await createProduct(api, { name: 'Body tests' });
    });

    it('reads a bodiless request with a JSON content type and Content-Length 0 as an empty object', async () => {
      const response = await api.request('PATCH', `/products/${productId}`, {
        rawBody: '',
        headers: { 'Content-Type': 'application/json', 'Content-Length': '0' },
      });
      expect(response.status, response.text).toBe(200);
      expect(response.entity.name).toBe('Body tests');
      const create = await api.request('POST', '/products', {
        rawBody: '',
        headers: { 'Content-Type': 'application/json', 'Content-Length': '0' },
      });
      expectInvalidField(create, 'name');
    });

    it('accepts a JSON content type with a charset', async () => {
      const response = await api.request('PATCH', `/products/${productId}`, {
        rawBody: JSON.stringify({ description: 'utf-8 ✓' }),
        headers: { 'Content-Type': 'application/json; charset=utf-8' },
      });
      expect(response.status, response.text).toBe(200);
      expect(response.entity.description).toBe('utf-8 ✓');
    });

    it('refuses malformed JSON with bad_request and changes nothing', async () => {
      const before = await eventCount(harness);
      for (const rawBody of ['{', '{"name": "x",}', "{'name': 'x'}", 'null x', '\u0000']) {
        expectError(await api.request('POST', '/products', { rawBody }), 400, 'bad_request');
      }
      expect(await eventCount(harness)).toBe(before);
    });

    it('refuses a body of another content type with bad_request', async () => {
      const rawBody = JSON.stringify({ name: 'x', tax_category: 'saas' });
      for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data']) {
        expectError(
          await api.request('POST', '/products', { rawBody, headers: { 'Content-Type': contentType } }),
          400,
          'bad_request',
        );
      }
    });

    it('refuses a JSON body that is not an object with invalid_field', async () => {
      for (const rawBody of ['[]', '"text"', '42', 'null', 'true']) {
        expectError(await api.request('POST', '/products', { rawBody }), 400, 'invalid_field');
      }
    });

    it('refuses an unknown field with invalid_field naming it, at the top and nested', async () => {
      expectInvalidField(await api.post('/products', { name: 'x', tax_category: 'saas', colour: 'red' }), 'colour');
      expectInvalidField(
        await api.post('/prices', {
          product_id: productId,
          description: 'x',
          unit_price: { amount: '1', currency_code: 'EUR', precision: 2 },
        }),
        'unit_price.precision',
      );
      const pollution = '{"__proto__": {"admin": true}, "name": "x"}';
      expectInvalidField(await api.request('PATCH', `/products/${productId}`, { rawBody: pollution }), '__proto__');
    });

    it('refuses a body over 1 MiB with 413 request_body_too_large and changes nothing', async () => {
      const before = await eventCount(harness);
      const rawBody = JSON.stringify({ name: 'x', tax_category: 'saas', description: 'a'.repeat(1024 * 1024) });
      expectError(await api.request('POST', '/products', { rawBody }), 413, 'request_body_too_large');
      expect(await eventCount(harness)).toBe(before);
    });

    it('reads a body just under 1 MiB and validates it as usual', async () => {
      const rawBody = JSON.stringify({ name: 'x', tax_category: 'saas', description: 'a'.repeat(1024 * 1024 - 100) });
      expectInvalidField(await api.request('POST', '/products', { rawBody }), 'description');
    });
  });

  describe('authentication header', () => {
    it('matches the bearer scheme case-insensitively', async () => {
      for (const scheme of ['bearer', 'Bearer', 'BEARER']) {
        const response = await api.get('/products', { authorization: `${scheme} ${harness.sandboxKey}` });
        expect(response.status, scheme).toBe(200);
      }
    });

    it('refuses a sandbox key on the live address, and a live key on the sandbox address, with invalid_token', async () => {
      expectError(await apiClient(harness.liveUrl, harness.sandboxKey).get('/products'), 403, 'invalid_token');
      expectError(await apiClient(harness.sandboxUrl, harness.liveKey).get('/products'), 403, 'invalid_token');
    });
  });
});
