import type { PendingUsageEvent } from '@drawdown/billing-core';
import { describe, expect, it } from 'vitest';
import { RecentlyRecorded } from './recently-recorded.js';

function pending(sequence: number, id = `uev_${sequence}`): PendingUsageEvent {
  return {
    scope: { accountId: 'acc_1', environment: 'live' },
    sequence,
    event: {
      id,
      customerId: 'ctm_1',
      action: 'api_call',
      eventKey: `key-${sequence}`,
      occurredAt: '2026-01-01T00:00:00Z',
      quantity: '1',
      acceptedAt: '2026-01-01T00:00:00.000Z',
      drawdowns: [],
    },
  };
}

describe('RecentlyRecorded', () => {
  it('gives a remembered event once, and only for the event id the pending row names', () => {
    const memo = new RecentlyRecorded();
    memo.add([pending(1), pending(2)]);
    expect(memo.take(1, 'uev_1')).toEqual(pending(1));
    expect(memo.take(1, 'uev_1')).toBeUndefined();
    // Another event under the same sequence (a row written by someone else): read from the table.
    expect(memo.take(2, 'uev_other')).toBeUndefined();
    expect(memo.take(2, 'uev_2')).toBeUndefined();
    expect(memo.size).toBe(0);
  });

  it('forgets the events older than the oldest pending one, and the oldest beyond its bound', () => {
    const memo = new RecentlyRecorded(3);
    memo.add([pending(1), pending(2), pending(3)]);
    memo.forgetBefore(3);
    expect(memo.take(2, 'uev_2')).toBeUndefined();
    memo.add([pending(4), pending(5), pending(6)]);
    expect(memo.size).toBe(3);
    expect(memo.take(3, 'uev_3')).toBeUndefined();
    expect(memo.take(4, 'uev_4')).toEqual(pending(4));
  });
});
