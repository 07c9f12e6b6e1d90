import { describe, expect, it } from 'vitest';
import { BillingError } from '../shared/billing-error.js';
import { allocate, type DiscountTerms, discountLines } from './apply-discount.js';

const line = (priceId: string, gross: bigint, quantity = 1) => ({
  priceId,
  productId: `pro_${priceId}`,
  quantity,
  gross,
});
const terms = (overrides: Partial<DiscountTerms>): DiscountTerms => ({
  id: 'dsc_x',
  type: 'percentage',
  amount: '10',
  currencyCode: null,
  restrictTo: null,
  ...overrides,
});

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof BillingError) return error.code;
    throw error;
  }
  return 'no error';
}

describe('allocate', () => {
  it('splits in proportion and gives leftover units to the largest remainders', () => {
    expect(allocate(100n, [1000n, 2000n])).toEqual([33n, 67n]);
    expect(allocate(2n, [1n, 1n, 1n])).toEqual([1n, 1n, 0n]);
  });

  it('gives nothing to zero weights', () => {
    expect(allocate(5n, [0n, 10n, 0n])).toEqual([0n, 5n, 0n]);
  });
});

describe('discountLines', () => {
  it('rounds a percentage per line, half to even', () => {
    expect(discountLines(terms({ amount: '12.5' }), [line('a', 4n), line('b', 12n)], 'EUR')).toEqual([0n, 2n]);
  });

  it('caps a flat discount at the eligible amount', () => {
    const flat = terms({ type: 'flat', amount: '5000', currencyCode: 'EUR' });
    expect(discountLines(flat, [line('a', 300n), line('b', 700n)], 'EUR')).toEqual([300n, 700n]);
  });

  it('takes flat per seat per unit, at most the line', () => {
    const perSeat = terms({ type: 'flat_per_seat', amount: '300', currencyCode: 'EUR' });
    expect(discountLines(perSeat, [line('a', 1000n, 3), line('b', 500n, 2)], 'EUR')).toEqual([900n, 500n]);
  });

  it('applies only to restricted prices and products', () => {
    const restricted = terms({ restrictTo: ['b', 'pro_c'] });
    expect(discountLines(restricted, [line('a', 100n), line('b', 100n), line('c', 100n)], 'EUR')).toEqual([
      0n,
      10n,
      10n,
    ]);
  });

  it('refuses a flat discount in another currency and one with no eligible line', () => {
    const flat = terms({ type: 'flat', amount: '1', currencyCode: 'USD' });
    expect(codeOf(() => discountLines(flat, [line('a', 100n)], 'EUR'))).toBe('transaction_invalid_discount_currency');
    expect(codeOf(() => discountLines(terms({ restrictTo: ['z'] }), [line('a', 100n)], 'EUR'))).toBe(
      'transaction_discount_not_eligible',
    );
  });

  it('gives back from a credit line what the same charge line took (ADR 1013)', () => {
    // A percentage rounds the same way either side of zero, so a change and its reversal net to nothing.
    expect(discountLines(terms({ amount: '12.5' }), [line('a', -12n, -1), line('b', 12n)], 'EUR')).toEqual([-2n, 2n]);
    const perSeat = terms({ type: 'flat_per_seat', amount: '300', currencyCode: 'EUR' });
    expect(discountLines(perSeat, [line('a', -1000n, -3), line('b', -500n, -2)], 'EUR')).toEqual([-900n, -500n]);
    // A flat discount is shared among the charge lines only, at most their amount.
    const flat = terms({ type: 'flat', amount: '5000', currencyCode: 'EUR' });
    expect(discountLines(flat, [line('a', -300n, -1), line('b', 700n)], 'EUR')).toEqual([0n, 700n]);
    expect(discountLines(flat, [line('a', -300n, -1)], 'EUR')).toEqual([0n]);
  });
});
