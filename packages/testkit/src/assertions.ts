/**
 * @module
 * Assertions the suite shares. `[].every(p)` is true, so `expect(items.every(p)).toBe(true)` passes
 * when a request, a filter or a page returned nothing at all: the suite uses `expectEvery` instead
 * (test/test-suite-rules.test.ts refuses `.every(` inside an `expect(`).
 */
import { expect } from 'vitest';

/**
 * Asserts that `items` holds at least `atLeast` items (1 by default) and that `predicate` holds for
 * each; a failure shows the items it does not hold for.
 */
export function expectEvery<T>(
  items: readonly T[],
  predicate: (item: T) => boolean,
  options: { readonly what?: string; readonly atLeast?: number } = {},
): void {
  const what = options.what ?? 'items';
  expect(items.length, `too few ${what} to check`).toBeGreaterThanOrEqual(options.atLeast ?? 1);
  expect(
    items.filter((item) => !predicate(item)),
    `${what} for which the condition does not hold`,
  ).toEqual([]);
}
