/**
 * Products, customers and addresses over real HTTP on both storage engines: create, get,
 * update, archive, list filters and search, and isolation between accounts and environments.
 */
import { type BillingHarness, ENGINES, expectEvery, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiClient,
  apiClient,
  eventCount,
  expectError,
  expectInvalidField,
  harnessClients,
} from '../support/api-client.js';
import { createCustomer, createProduct, unique } from '../support/catalogue-fixtures.js';

describe.each(ENGINES)('%s: products, customers and addresses', (engine) => {
  let harness: BillingHarness;
  let api: ApiClient;
  let live: ApiClient;
  let other: ApiClient;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine });
    ({ sandbox: api, live } = harnessClients(harness));
    const otherAccount = await harness.createAccount({ earlyAccess: true });
    other = apiClient(
      harness.sandboxUrl,
      await harness.createKey({ environment: 'sandbox', permissions: ['all'], accountId: otherAccount }),
    );
  });
  afterAll(() => harness.close());

  describe('products', () => {
    it('creates a product with the reference’s fields and defaults', async () => {
      const response = await api.post('/products', {
        name: 'Analytics',
        tax_category: 'saas',
        description: 'Dashboards',
        image_url: 'https://example.com/logo.png',
        custom_data: { camelKey: 1, snake_key: { innerKey: true } },
      });
      expect(response.status).toBe(201);
      expect(response.entity).toMatchObject({
        name: 'Analytics',
        tax_category: 'saas',
        description: 'Dashboards',
        type: 'standard',
        status: 'active',
        image_url: 'https://example.com/logo.png',
        custom_data: { camelKey: 1, snake_key: { innerKey: true } },
      });
      expect(response.id).toMatch(/^pro_[a-z\d]{26}$/);
      expect(response.entity.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    });

    it('refuses an unknown tax category, a missing name and a non-http image URL with invalid_field', async () => {
      expectInvalidField(await api.post('/products', { name: 'x', tax_category: 'food' }), 'tax_category');
      expectInvalidField(await api.post('/products', { tax_category: 'saas' }), 'name');
      expectInvalidField(
        await api.post('/products', { name: 'x', tax_category: 'saas', image_url: 'javascript:alert(1)' }),
        'image_url',
      );
    });

    it('filters by status, type, tax category and id', async () => {
      const ebook = await createProduct(api, { tax_category: 'ebooks', type: 'custom' });
      const archived = await createProduct(api, { tax_category: 'ebooks' });
      await api.patch(`/products/${archived}`, { status: 'archived' });
      // Without a type filter, lists show the catalogue (standard items) only (ADR 1108).
      const ebooks = await api.get('/products?tax_category=ebooks&per_page=200');
      expect(ebooks.list.map((product) => product.id)).toEqual([archived]);
      expect(
        (await api.get('/products?tax_category=ebooks&type=custom,standard')).list.map((p) => p.id).sort(),
      ).toEqual([ebook, archived].sort());
      expect((await api.get('/products?tax_category=ebooks&status=active&type=custom')).list.map((p) => p.id)).toEqual([
        ebook,
      ]);
      expect((await api.get('/products?tax_category=ebooks&type=custom')).list.map((p) => p.id)).toEqual([ebook]);
      expect(
        (await api.get(`/products?id=${ebook},${archived}&type=standard,custom`)).list.map((p) => p.id).sort(),
      ).toEqual([ebook, archived].sort());
    });

    it('refuses an unknown filter value with invalid_field naming the parameter', async () => {
      expectInvalidField(await api.get('/products?status=deleted'), 'status');
      expectInvalidField(await api.get('/products?id=ctm_00000000000000000000000000'), 'id');
      expectInvalidField(await api.get('/prices?recurring=yes'), 'recurring');
      // Documented fields order products (ADR 1471); one no product has is refused.
      expectInvalidField(await api.get('/products?order_by=unit_price.amount[ASC]'), 'order_by');
    });

    it('orders by id descending by default and ascending on request', async () => {
      const first = await createProduct(api, { tax_category: 'training-services' });
      const second = await createProduct(api, { tax_category: 'training-services' });
      const descending = await api.get('/products?tax_category=training-services');
      expect(descending.list.map((p) => p.id)).toEqual([second, first]);
      const ascending = await api.get('/products?tax_category=training-services&order_by=id[ASC]');
      expect(ascending.list.map((p) => p.id)).toEqual([first, second]);
    });
  });

  describe('customers', () => {
    it('creates a customer with the reference’s defaults', async () => {
      const email = `${unique('ada')}@example.com`;
      const response = await api.post('/customers', { email, name: 'Ada' });
      expect(response.status).toBe(201);
      expect(response.id).toMatch(/^ctm_[a-z\d]{26}$/);
      expect(response.entity).toMatchObject({
        email,
        name: 'Ada',
        locale: 'en',
        marketing_consent: false,
        status: 'active',
        custom_data: null,
      });
    });

    it('refuses a second customer with the same email, whatever its case, with customer_already_exists (409)', async () => {
      const email = `${unique('dup')}@example.com`;
      const before = await eventCount(harness);
      await createCustomer(api, { email });
      expectError(await api.post('/customers', { email }), 409, 'customer_already_exists');
      expectError(await api.post('/customers', { email: email.toUpperCase() }), 409, 'customer_already_exists');
      expect(await eventCount(harness)).toBe(before + 1);
    });

    it('refuses changing an email onto another customer’s with customer_already_exists', async () => {
      const taken = `${unique('taken')}@example.com`;
      await createCustomer(api, { email: taken });
      const id = await createCustomer(api);
      expectError(await api.patch(`/customers/${id}`, { email: taken }), 409, 'customer_already_exists');
      expect((await api.get(`/customers/${id}`)).entity.email).not.toBe(taken);
    });

    it('lets another account and the other environment use the same email', async () => {
      const email = `${unique('shared')}@example.com`;
      await createCustomer(api, { email });
      expect((await other.post('/customers', { email })).status).toBe(201);
      expect((await live.post('/customers', { email })).status).toBe(201);
    });

    it('refuses a malformed email or locale with invalid_field', async () => {
      expectInvalidField(await api.post('/customers', { email: 'not an email' }), 'email');
      expectInvalidField(await api.post('/customers', { email: 'a@example.com', locale: 'English!' }), 'locale');
    });

    it('archives a customer and lists only active ones by default', async () => {
      const id = await createCustomer(api);
      expect((await api.patch(`/customers/${id}`, { status: 'archived' })).entity.status).toBe('archived');
      expect((await api.get(`/customers?id=${id}`)).list).toEqual([]);
      expect((await api.get(`/customers?id=${id}&status=archived`)).list.map((c) => c.id)).toEqual([id]);
    });

    it('filters by email', async () => {
      const email = `${unique('filter')}@example.com`;
      const id = await createCustomer(api, { email });
      expect((await api.get(`/customers?email=${encodeURIComponent(email)}`)).list.map((c) => c.id)).toEqual([id]);
    });

    it('searches name and email, case-insensitively, treating wildcards literally', async () => {
      const marker = unique('Grace');
      const byName = await createCustomer(api, { name: `${marker} Hopper` });
      const byEmail = await createCustomer(api, { email: `${marker.toLowerCase()}@example.org` });
      await createCustomer(api, { name: '100% Real' });
      const found = await api.get(`/customers?search=${encodeURIComponent(marker.toUpperCase())}`);
      expect(found.list.map((c) => c.id).sort()).toEqual([byName, byEmail].sort());
      const percent = await api.get(`/customers?search=${encodeURIComponent('%')}`);
      expectEvery(percent.list, (customer) => String(customer.name).includes('%'));
    });

    it('answers not_found for a customer of another account or of the other environment', async () => {
      const id = await createCustomer(api);
      expectError(await other.get(`/customers/${id}`), 404, 'not_found');
      expectError(await live.get(`/customers/${id}`), 404, 'not_found');
      expectError(await other.patch(`/customers/${id}`, { name: 'Mallory' }), 404, 'not_found');
      expect((await api.get(`/customers/${id}`)).entity.name).toBeNull();
    });
  });

  describe('addresses', () => {
    let customerId: string;

    beforeAll(async () => {
      customerId = await createCustomer(api);
    });

    it('creates, gets, lists, updates and archives an address of a customer', async () => {
      const created = await api.post(`/customers/${customerId}/addresses`, {
        country_code: 'GB',
        first_line: '1 High Street',
        city: 'London',
        postal_code: 'N1 1AA',
      });
      expect(created.status, created.text).toBe(201);
      expect(created.id).toMatch(/^add_[a-z\d]{26}$/);
      expect(created.entity).toMatchObject({ customer_id: customerId, country_code: 'GB', status: 'active' });
      const path = `/customers/${customerId}/addresses/${created.id}`;
      expect((await api.get(path)).entity).toEqual(created.entity);
      expect((await api.get(`/customers/${customerId}/addresses`)).list.map((a) => a.id)).toContain(created.id);
      expect((await api.patch(path, { city: 'Leeds' })).entity.city).toBe('Leeds');
      expect((await api.patch(path, { status: 'archived' })).entity.status).toBe('archived');
      expect((await api.get(`/customers/${customerId}/addresses`)).list.map((a) => a.id)).not.toContain(created.id);
    });

    it('refuses a country code that is not ISO 3166-1 alpha-2 with invalid_field', async () => {
      expectInvalidField(await api.post(`/customers/${customerId}/addresses`, { country_code: 'gb' }), 'country_code');
      expectInvalidField(await api.post(`/customers/${customerId}/addresses`, {}), 'country_code');
    });

    it('answers not_found for an address under another customer, or a customer of another account', async () => {
      const address = await api.post(`/customers/${customerId}/addresses`, { country_code: 'DE' });
      const otherCustomer = await createCustomer(api);
      expectError(await api.get(`/customers/${otherCustomer}/addresses/${address.id}`), 404, 'not_found');
      expectError(await other.get(`/customers/${customerId}/addresses`), 404, 'not_found');
      expectError(await other.post(`/customers/${customerId}/addresses`, { country_code: 'FR' }), 404, 'not_found');
      expectError(
        await api.post(`/customers/ctm_00000000000000000000000000/addresses`, { country_code: 'FR' }),
        404,
        'not_found',
      );
    });
  });
});
