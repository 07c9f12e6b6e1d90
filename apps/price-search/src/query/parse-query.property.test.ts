import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { parseQuery } from './parse-query.js';

describe('parseQuery on any text', () => {
  test.prop([fc.string({ maxLength: 200 })], { numRuns: 500 })('never throws and keeps the budget ordered', (text) => {
    const parsed = parseQuery(text);
    const { minPence, maxPence } = parsed.budget;
    if (minPence !== undefined && maxPence !== undefined) expect(minPence).toBeLessThanOrEqual(maxPence);
    for (const bound of [minPence, maxPence]) {
      if (bound !== undefined) expect(Number.isSafeInteger(bound) && bound > 0).toBe(true);
    }
    expect(parsed.text).toBe(parsed.terms.join(' '));
  });

  test.prop([fc.constantFrom('iphone', 'rtx', 't', 'galaxy s', 'pixel'), fc.integer({ min: 1, max: 99_999 })])(
    'never reads a number after a product word as a price',
    (word, number) => {
      expect(parseQuery(`${word} ${number}`).budget).toEqual({ minPence: undefined, maxPence: undefined });
    },
  );
});
