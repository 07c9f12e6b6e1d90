import { fc, test } from '@fast-check/vitest';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { ERROR_CODES } from '../../src/http/api-error.js';
import { createTestService, type TestService } from '../support/test-service.js';

// Random and hostile bodies: the API answers 200 with an array or a 4xx with the error envelope, never a 5xx.
describe('POST /api/query under hostile input', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await createTestService(
      { monthlyLookups: { free: undefined, pro: undefined, scale: undefined } },
      (cleanup) => afterAll(cleanup),
    );
  });

  const expectWellFormed = async (response: Response): Promise<void> => {
    expect(response.status).toBeLessThan(500);
    const body: unknown = await response.json();
    if (response.status === 200) {
      expect(Array.isArray(body)).toBe(true);
    } else {
      const error = (body as { error: { code: string; message: string } }).error;
      expect(ERROR_CODES).toContain(error.code);
      expect(typeof error.message).toBe('string');
    }
  };

  test.prop([fc.jsonValue()], { numRuns: 100 })('any JSON value as the body', async (value) => {
    await expectWellFormed(await service.query(value));
  });

  test.prop(
    [
      fc.record(
        {
          query: fc.oneof(
            fc.string({ maxLength: 260 }),
            fc.string({ unit: 'grapheme', maxLength: 60 }),
            fc.jsonValue(),
          ),
          max_results: fc.oneof(fc.integer({ min: -5, max: 30 }), fc.double(), fc.jsonValue()),
          max_price: fc.oneof(fc.double({ noNaN: true }), fc.integer(), fc.jsonValue()),
          networks: fc.oneof(
            fc.array(fc.constantFrom('ebay_uk', 'amazon_uk', 'ebay_us', '', 'EBAY_UK')),
            fc.jsonValue(),
          ),
        },
        { requiredKeys: [] },
      ),
    ],
    { numRuns: 120 },
  )('near-valid bodies', async (body) => {
    await expectWellFormed(await service.query(body));
  });

  test.prop([fc.string({ maxLength: 400 })], { numRuns: 60 })('any text as the body', async (text) => {
    await expectWellFormed(await service.query(text));
  });
});
