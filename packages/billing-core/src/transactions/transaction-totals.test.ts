import { describe, expect, it } from 'vitest';
import { Decimal } from '../money/decimal.js';
import { divideRounded } from '../money/rounding.js';
import { TRANSACTION_STATUSES } from './transaction.js';
import { canTransition, NEXT_TRANSACTION_STATUSES, requireTransition } from './transaction-status.js';
import { taxLine } from './transaction-totals.js';

describe('divideRounded', () => {
  it('rounds exact halves to the even neighbour under half-even', () => {
    expect(divideRounded(5n, 2n, 'half-even')).toBe(2n);
    expect(divideRounded(7n, 2n, 'half-even')).toBe(4n);
    expect(divideRounded(-5n, 2n, 'half-even')).toBe(-2n);
    expect(divideRounded(51n, 100n, 'half-even')).toBe(1n);
  });

  it('rounds halves away from zero under half-up, and truncates under down', () => {
    expect(divideRounded(5n, 2n, 'half-up')).toBe(3n);
    expect(divideRounded(-5n, 2n, 'half-up')).toBe(-3n);
    expect(divideRounded(9n, 10n, 'down')).toBe(0n);
  });

  it('refuses a zero denominator', () => {
    expect(() => divideRounded(1n, 0n, 'half-even')).toThrow(RangeError);
  });
});

describe('taxLine', () => {
  it('adds exclusive tax on the line amount, rounded half to even', () => {
    expect(taxLine(2000n, Decimal.parse('0.19'), 'external')).toEqual({
      subtotal: 2000n,
      discount: 0n,
      tax: 380n,
      total: 2380n,
    });
    // 125 × 0.2 = 25; 1 × 0.125 = 0.125 → 0; 4 × 0.125 = 0.5 → 0 (even); 12 × 0.125 = 1.5 → 2
    expect(taxLine(4n, Decimal.parse('0.125'), 'external').tax).toBe(0n);
    expect(taxLine(12n, Decimal.parse('0.125'), 'external').tax).toBe(2n);
  });

  it('takes inclusive tax out of the line amount: tax = amount × rate / (1 + rate)', () => {
    expect(taxLine(2380n, Decimal.parse('0.19'), 'internal')).toEqual({
      subtotal: 2000n,
      discount: 0n,
      tax: 380n,
      total: 2380n,
    });
    expect(taxLine(1000n, Decimal.parse('0.2'), 'internal')).toEqual({
      subtotal: 833n,
      discount: 0n,
      tax: 167n,
      total: 1000n,
    });
  });

  it('charges no tax at a zero rate', () => {
    expect(taxLine(999n, Decimal.zero, 'external')).toEqual({ subtotal: 999n, discount: 0n, tax: 0n, total: 999n });
  });
});

describe('the transaction lifecycle table', () => {
  it('has an entry for every status, and final statuses lead nowhere', () => {
    expect(Object.keys(NEXT_TRANSACTION_STATUSES).sort()).toEqual([...TRANSACTION_STATUSES].sort());
    expect(NEXT_TRANSACTION_STATUSES.completed).toEqual([]);
    expect(NEXT_TRANSACTION_STATUSES.canceled).toEqual([]);
  });

  it('allows the transitions that happen in practice and refuses the others with a code', () => {
    expect(canTransition('draft', 'ready')).toBe(true);
    expect(canTransition('ready', 'billed')).toBe(true);
    expect(canTransition('billed', 'past_due')).toBe(true);
    expect(canTransition('past_due', 'paid')).toBe(true);
    expect(canTransition('paid', 'completed')).toBe(true);
    expect(canTransition('draft', 'billed')).toBe(false);
    expect(canTransition('completed', 'canceled')).toBe(false);
    expect(() => requireTransition('txn_x', 'canceled', 'paid')).toThrow(
      expect.objectContaining({ code: 'transaction_status_transition_not_allowed' }),
    );
  });
});
