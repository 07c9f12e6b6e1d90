import { describe, expect, it } from 'vitest';
import { type FactsRow, ListingFacts } from './listing-facts.js';

describe('ListingFacts', () => {
  // Three listings with rowids far apart: the arrays hold three slots, not a million.
  const rows: FactsRow[] = [
    [7, 2_500, 'argos_uk', 'new', 1, 0, 'kettle-a'],
    [500_000, 1_900, 'ebay_uk', 'used', 1, 0, 'kettle-a'],
    [999_999, 3_000, 'currys_uk', 'new', 0, 1, 'kettle-case'],
  ];
  const sparse = ListingFacts.fromRows(999_999, rows.length, rows);
  const dense = ListingFacts.fromRows(999_999, 900_000, rows);

  it('gives sparse rowids slots of their own, and uses rowids as slots while they are dense', () => {
    expect(sparse.size).toBe(3);
    expect(dense.size).toBe(1_000_000);
  });

  it.each([
    ['sparse', sparse],
    ['dense', dense],
  ])('filters, groups and orders by rowid when %s', (_, facts) => {
    const everything = facts.passes({
      networks: ['argos_uk', 'ebay_uk', 'currys_uk'],
      minPence: undefined,
      maxPence: undefined,
      condition: undefined,
    });
    // Out of stock, and a rowid the facts do not hold, never pass.
    expect([7, 500_000, 999_999, 8, 2_000_000].map(everything)).toEqual([true, true, false, false, false]);
    const usedUnderTwenty = facts.passes({
      networks: ['ebay_uk'],
      minPence: undefined,
      maxPence: 2_000,
      condition: 'used',
    });
    expect([7, 500_000].map(usedUnderTwenty)).toEqual([false, true]);
    expect(facts.productOf(7)).toBe(facts.productOf(500_000));
    expect(facts.productOf(999_999)).not.toBe(facts.productOf(7));
    expect(facts.productOf(8)).toBe(-1);
    expect(facts.orderByPrice([7, 500_000, 999_999])).toEqual([500_000, 7, 999_999]);
    expect([...facts.walkByPrice([999_999, 7])]).toEqual([7, 999_999]);
    // One product: the page is its offers, cheapest first (the used one at 19.00), both counted (ADR 0238).
    expect(facts.group([500_000, 7], 5, true, 50)).toEqual([
      { rowid: 500_000, offers: 2 },
      { rowid: 7, offers: 2 },
    ]);
    expect(
      facts.agreesWith(500_000, { pricePence: 1_900, network: 'ebay_uk', condition: 'used', availability: 'in_stock' }),
    ).toBe(true);
    expect(
      facts.agreesWith(500_000, { pricePence: 1_800, network: 'ebay_uk', condition: 'used', availability: 'in_stock' }),
    ).toBe(false);
  });
});
