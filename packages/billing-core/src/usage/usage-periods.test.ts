import { describe, expect, it } from 'vitest';
import { usagePeriodsOf } from './usage-periods.js';

describe('usage per period, from the ledger', () => {
  it('starts a period at each grant instant and counts drawdowns until the next', () => {
    const periods = usagePeriodsOf([
      { kind: 'grant', at: 't1', subscriptionId: 'sub_a', amount: '1000', expiresAt: 't2' },
      { kind: 'grant', at: 't1', subscriptionId: 'sub_b', amount: '50', expiresAt: 't2' },
      { kind: 'drawdown', at: 't1.5', usageEventId: 'uev_1', amount: '700.25' },
      { kind: 'drawdown', at: 't1.6', usageEventId: 'uev_2', amount: '529.75' },
      { kind: 'expire', at: 't2', subscriptionId: 'sub_a' },
      { kind: 'reset_overage', at: 't2' },
      { kind: 'grant', at: 't2', subscriptionId: 'sub_a', amount: '1000', expiresAt: 't3' },
      { kind: 'drawdown', at: 't2.1', usageEventId: 'uev_3', amount: '3' },
    ]);
    expect(periods).toEqual([
      { startsAt: 't1', endsAt: 't2', allowance: '1050', used: '1230', overage: '180' },
      { startsAt: 't2', endsAt: null, allowance: '1000', used: '3', overage: '0' },
    ]);
  });

  it('puts usage before any grant in a period with no allowance', () => {
    expect(usagePeriodsOf([{ kind: 'drawdown', at: 't0', usageEventId: 'uev_1', amount: '2' }])).toEqual([
      { startsAt: 't0', endsAt: null, allowance: '0', used: '2', overage: '2' },
    ]);
  });
});
