import { expectEvery } from '@drawdown/testkit';
import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../src/app.js';
import { createTestService } from '../support/test-service.js';

async function expectError(response: Response, status: number, code: string, field?: string): Promise<void> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = (await response.json()) as { error: { code: string; message: string; field?: string } };
  expect(body.error.code).toBe(code);
  expect(body.error.message.length).toBeGreaterThan(10);
  expect(body.error.field).toBe(field);
}

describe('POST /api/query field rules', () => {
  describe('query', () => {
    it('is required', async () => {
      const { query } = await createTestService();
      await expectError(await query({ max_results: 3 }), 400, 'missing_field', 'query');
    });

    it('must be a string', async () => {
      const { query } = await createTestService();
      await expectError(await query({ query: 42 }), 400, 'invalid_type', 'query');
      await expectError(await query({ query: null }), 400, 'invalid_type', 'query');
    });

    it('must not be blank', async () => {
      const { query } = await createTestService();
      await expectError(await query({ query: '' }), 400, 'query_empty', 'query');
      await expectError(await query({ query: '   ' }), 400, 'query_empty', 'query');
    });

    it('accepts 200 characters and refuses 201', async () => {
      const { query } = await createTestService();
      expect((await query({ query: `kettle ${'x'.repeat(193)}` })).status).toBe(200);
      await expectError(await query({ query: `kettle ${'x'.repeat(194)}` }), 400, 'query_too_long', 'query');
    });

    it('must name a product, not only a budget', async () => {
      const { query } = await createTestService();
      await expectError(await query({ query: 'cheapest under £50' }), 400, 'query_without_terms', 'query');
    });
  });

  describe('max_results', () => {
    it('defaults to 5', async () => {
      const { query } = await createTestService();
      const listings = (await (await query({ query: 'headphones' })).json()) as unknown[];
      expect(listings).toHaveLength(5);
    });

    it('accepts 1 and 20', async () => {
      const { query } = await createTestService();
      expect((await (await query({ query: 'apple', max_results: 1 })).json()) as unknown[]).toHaveLength(1);
      expect((await (await query({ query: 'apple', max_results: 20 })).json()) as unknown[]).toHaveLength(20);
    });

    it('refuses 0, 21 and negative numbers', async () => {
      const { query } = await createTestService();
      for (const value of [0, 21, -1, 1000]) {
        await expectError(await query({ query: 'kettle', max_results: value }), 400, 'out_of_range', 'max_results');
      }
    });

    it('must be an integer', async () => {
      const { query } = await createTestService();
      await expectError(await query({ query: 'kettle', max_results: 2.5 }), 400, 'invalid_type', 'max_results');
      await expectError(await query({ query: 'kettle', max_results: '5' }), 400, 'invalid_type', 'max_results');
    });
  });

  describe('max_price', () => {
    it('must be above zero', async () => {
      const { query } = await createTestService();
      await expectError(await query({ query: 'kettle', max_price: 0 }), 400, 'out_of_range', 'max_price');
      await expectError(await query({ query: 'kettle', max_price: -5 }), 400, 'out_of_range', 'max_price');
    });

    it('must be at most one million pounds', async () => {
      const { query } = await createTestService();
      expect((await query({ query: 'kettle', max_price: 1_000_000 })).status).toBe(200);
      await expectError(await query({ query: 'kettle', max_price: 1_000_000.01 }), 400, 'out_of_range', 'max_price');
    });

    it('must be a number', async () => {
      const { query } = await createTestService();
      await expectError(await query({ query: 'kettle', max_price: '50' }), 400, 'invalid_type', 'max_price');
      await expectError(await query({ query: 'kettle', max_price: null }), 400, 'invalid_type', 'max_price');
    });

    it('has at most two decimal places', async () => {
      const { query } = await createTestService();
      expect((await query({ query: 'kettle', max_price: 49.99 })).status).toBe(200);
      await expectError(await query({ query: 'kettle', max_price: 49.999 }), 400, 'invalid_precision', 'max_price');
    });
  });

  describe('min_price', () => {
    it('is a floor on every listing and wins over a floor in the text', async () => {
      const { query } = await createTestService();
      const listings = (await (await query({ query: 'headphones over £20', min_price: 200 })).json()) as Array<{
        price: number;
      }>;
      expectEvery(listings, (listing) => listing.price >= 200);
    });

    it('with max_price gives a window; 0 is no floor', async () => {
      const { query } = await createTestService();
      const listings = (await (
        await query({ query: 'tv', min_price: 300, max_price: 500, max_results: 20 })
      ).json()) as Array<{
        price: number;
      }>;
      expectEvery(listings, (listing) => listing.price >= 300 && listing.price <= 500);
      expect((await query({ query: 'kettle', min_price: 0 })).status).toBe(200);
    });

    it('must not be negative, above max_price, or finer than pence', async () => {
      const { query } = await createTestService();
      await expectError(await query({ query: 'kettle', min_price: -1 }), 400, 'out_of_range', 'min_price');
      await expectError(
        await query({ query: 'kettle', min_price: 60, max_price: 50 }),
        400,
        'out_of_range',
        'min_price',
      );
      await expectError(await query({ query: 'kettle', min_price: 5.001 }), 400, 'invalid_precision', 'min_price');
      await expectError(await query({ query: 'kettle', min_price: '5' }), 400, 'invalid_type', 'min_price');
    });
  });

  describe('currency', () => {
    it('accepts GBP, the currency of every listing', async () => {
      const { query } = await createTestService();
      expect((await query({ query: 'kettle', currency: 'GBP' })).status).toBe(200);
      expect((await query({ query: 'kettle', currency: 'gbp' })).status).toBe(200);
    });

    it('refuses any other currency rather than answering in pounds', async () => {
      const { query } = await createTestService();
      await expectError(await query({ query: 'kettle', currency: 'EUR' }), 400, 'unsupported_currency', 'currency');
      await expectError(await query({ query: 'kettle', currency: 826 }), 400, 'invalid_type', 'currency');
    });
  });

  describe('networks', () => {
    it('accepts known networks and ignores repeats', async () => {
      const { query } = await createTestService();
      const response = await query({ query: 'kettle', networks: ['argos_uk', 'argos_uk'] });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-networks-searched')).toBe('argos_uk');
    });

    it('refuses an unknown network and names it', async () => {
      const { query } = await createTestService();
      const response = await query({ query: 'kettle', networks: ['argos_uk', 'ebay_us'] });
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('unknown_network');
      expect(body.error.message).toContain('"ebay_us"');
    });

    it('refuses an empty list', async () => {
      const { query } = await createTestService();
      await expectError(await query({ query: 'kettle', networks: [] }), 400, 'out_of_range', 'networks');
    });

    it('must be an array', async () => {
      const { query } = await createTestService();
      await expectError(await query({ query: 'kettle', networks: 'ebay_uk' }), 400, 'invalid_type', 'networks');
    });
  });

  describe('the body', () => {
    it('refuses unknown fields', async () => {
      const { query } = await createTestService();
      await expectError(await query({ query: 'kettle', sort: 'price' }), 400, 'unknown_field', 'sort');
    });

    it('reports unknown fields before other problems', async () => {
      const { query } = await createTestService();
      await expectError(await query({ max_results: 99, country: 'GB' }), 400, 'unknown_field', 'country');
    });

    it('must be a JSON object', async () => {
      const { query } = await createTestService();
      await expectError(await query([{ query: 'kettle' }]), 400, 'invalid_body');
      await expectError(await query('"kettle"'), 400, 'invalid_body');
    });

    it('must be valid JSON', async () => {
      const { query } = await createTestService();
      await expectError(await query('{"query": "kettle"'), 400, 'invalid_json');
    });

    it('must be sent as application/json', async () => {
      const { query } = await createTestService();
      await expectError(await query({ query: 'kettle' }, { contentType: 'text/plain' }), 415, 'unsupported_media_type');
      expect((await query({ query: 'kettle' }, { contentType: 'application/json; charset=utf-8' })).status).toBe(200);
    });

    it(`must be at most ${MAX_BODY_BYTES} bytes`, async () => {
      const { query } = await createTestService();
      await expectError(await query({ query: 'kettle', pad: 'x'.repeat(MAX_BODY_BYTES) }), 413, 'body_too_large');
    });
  });

  describe('other routes', () => {
    it('answers GET /api/query with 405 and Allow: POST', async () => {
      const { app } = await createTestService();
      const response = await app.request('/api/query');
      expect(response.headers.get('allow')).toBe('POST');
      await expectError(response, 405, 'method_not_allowed');
    });

    it('answers unknown paths with 404 not_found', async () => {
      const { app } = await createTestService();
      await expectError(await app.request('/api/search'), 404, 'not_found');
    });
  });
});
