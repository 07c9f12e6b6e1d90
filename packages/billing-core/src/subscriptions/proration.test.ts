import { describe, expect, it } from 'vitest';
import { billsWhen, remainingShare } from './proration.js';

const MARCH = { startsAt: '2026-03-01T00:00:00.000Z', endsAt: '2026-04-01T00:00:00.000Z' };

describe('remainingShare', () => {
  it('is the exact milliseconds left over the period’s, with the rate rounded half to even to six places', () => {
    const share = remainingShare(MARCH, '2026-03-16T00:00:00.000Z');
    expect(share.remaining * 31n).toBe(share.whole * 16n);
    expect(share.proration).toEqual({
      rate: '0.516129',
      billingPeriod: { startsAt: '2026-03-16T00:00:00.000Z', endsAt: '2026-04-01T00:00:00.000Z' },
    });
  });

  it('drops trailing zeros and clamps instants outside the period', () => {
    expect(
      remainingShare({ startsAt: MARCH.startsAt, endsAt: '2026-03-03T00:00:00.000Z' }, '2026-03-02T00:00:00.000Z')
        .proration.rate,
    ).toBe('0.5');
    expect(remainingShare(MARCH, '2026-02-01T00:00:00.000Z').proration.rate).toBe('1');
    expect(remainingShare(MARCH, '2026-05-01T00:00:00.000Z').remaining).toBe(0n);
  });
});

describe('billsWhen', () => {
  it('names when each mode bills', () => {
    expect(billsWhen('prorated_immediately')).toBe('now');
    expect(billsWhen('full_immediately')).toBe('now');
    expect(billsWhen('prorated_next_billing_period')).toBe('next_renewal');
    expect(billsWhen('full_next_billing_period')).toBe('next_renewal');
    expect(billsWhen('do_not_bill')).toBe('never');
  });
});
