import { describe, expect, it } from 'vitest';
import type { Meter } from '../catalogue/entities.js';
import { BillingError } from '../shared/billing-error.js';
import { canonicalTimestamp } from '../shared/timestamps.js';
import {
  checkEventWindow,
  EVENT_KEY_MAX_LENGTH,
  MAX_EVENT_AGE_MS,
  MAX_EVENT_LEAD_MS,
  resolveDrawdowns,
  type UsageEventInput,
  validateUsageEvent,
} from './usage-event.js';

const event: UsageEventInput = {
  eventKey: 'key-1',
  customerId: 'ctm_01h00000000000000000000000',
  action: 'api_call',
  quantity: '1',
  occurredAt: '2026-03-01T12:00:00Z',
};

/** The field error of a refused event, or null when it passed. */
function refusal(input: Partial<UsageEventInput>, index = 0): { code: string; field: string | undefined } | null {
  try {
    validateUsageEvent({ ...event, ...input }, index);
    return null;
  } catch (error) {
    if (!(error instanceof BillingError)) throw error;
    return { code: error.code, field: error.fieldErrors[0]?.field };
  }
}

function meter(id: string, usageBalanceUnitId: string, rate: string): Meter {
  return {
    id,
    usageBalanceUnitId,
    name: id,
    description: null,
    action: 'api_call',
    unitName: 'call',
    rate,
    aggregation: 'sum',
    status: 'active',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
}

describe('canonicalTimestamp', () => {
  it('names one instant by one text whether it is spelled with Z or +00:00', () => {
    const zulu = canonicalTimestamp('2026-03-01T12:00:00Z');
    const offset = canonicalTimestamp('2026-03-01T12:00:00+00:00');
    expect(zulu).toEqual({ canonical: '2026-03-01T12:00:00Z', epochMs: Date.UTC(2026, 2, 1, 12) });
    expect(offset).toEqual(zulu);
  });

  it('keeps fractions to nanoseconds and drops trailing zeros, so 1.5 and 1.500 are one instant', () => {
    expect(canonicalTimestamp('2026-03-01T12:00:01.500Z')?.canonical).toBe('2026-03-01T12:00:01.5Z');
    expect(canonicalTimestamp('2026-03-01T12:00:01.5+00:00')?.canonical).toBe('2026-03-01T12:00:01.5Z');
    expect(canonicalTimestamp('2026-03-01T12:00:01.000000000Z')?.canonical).toBe('2026-03-01T12:00:01Z');
    expect(canonicalTimestamp('2026-03-01T12:00:01.123456789Z')).toEqual({
      canonical: '2026-03-01T12:00:01.123456789Z',
      epochMs: Date.UTC(2026, 2, 1, 12, 0, 1, 123),
    });
  });

  it('tells apart instants that differ below a millisecond', () => {
    const first = canonicalTimestamp('2026-03-01T12:00:01.1234Z');
    const second = canonicalTimestamp('2026-03-01T12:00:01.1235Z');
    expect(first?.canonical).not.toBe(second?.canonical);
  });

  it.each([
    ['2026-02-30T00:00:00Z', 'a day February does not have'],
    ['2026-02-29T00:00:00Z', '29 February in a common year'],
    ['2026-04-31T00:00:00Z', '31 April'],
    ['2026-13-01T00:00:00Z', 'month 13'],
    ['2026-00-10T00:00:00Z', 'month 0'],
    ['2026-01-00T00:00:00Z', 'day 0'],
    ['2026-01-31T24:00:00Z', 'hour 24 at a month end'],
    ['2026-01-15T24:00:00Z', 'hour 24 mid-month'],
    ['2026-01-15T10:60:00Z', 'minute 60'],
    ['2026-01-15T10:00:60Z', 'second 60'],
    ['2026-01-15T10:00:99Z', 'second 99'],
  ])('refuses %s (%s)', (text) => {
    expect(canonicalTimestamp(text)).toBeNull();
  });

  it('keeps years below 100 as they are instead of moving them to the 1900s', () => {
    expect(canonicalTimestamp('0050-01-15T10:00:00Z')?.epochMs).toBe(Date.parse('0050-01-15T10:00:00Z'));
    expect(canonicalTimestamp('0000-01-01T00:00:00Z')?.epochMs).toBe(Date.parse('0000-01-01T00:00:00Z'));
  });

  it('accepts 29 February in a leap year', () => {
    expect(canonicalTimestamp('2028-02-29T23:59:59Z')?.canonical).toBe('2028-02-29T23:59:59Z');
  });

  it.each([
    '2026-03-01T12:00:00+01:00',
    '2026-03-01T12:00:00-05:00',
    '2026-03-01T12:00:00-00:00',
    '2026-03-01T12:00:00',
    '2026-03-01 12:00:00Z',
    '2026-03-01',
    '2026-03-01T12:00Z',
    '2026-03-01T12:00:00.Z',
    '2026-03-01T12:00:00.1234567891Z',
    '20260301T120000Z',
    ' 2026-03-01T12:00:00Z',
    '2026-03-01T12:00:00Z ',
    '1772366400',
    '',
  ])('refuses %j: not an RFC 3339 UTC timestamp', (text) => {
    expect(canonicalTimestamp(text)).toBeNull();
  });
});

describe('validateUsageEvent', () => {
  it('accepts a well-formed event and canonicalises its occurred_at', () => {
    expect(validateUsageEvent({ ...event, occurredAt: '2026-03-01T12:00:00.250+00:00' }, 0)).toEqual({
      ...event,
      occurredAt: '2026-03-01T12:00:00.25Z',
    });
  });

  it.each([
    '1',
    '0.1',
    '0.000000001',
    '10.5',
    '12345678901234567890123456789012345',
    '12345678901234567890123456789012345.123456789',
  ])('accepts the quantity %s', (quantity) => {
    expect(refusal({ quantity })).toBeNull();
  });

  it.each([
    ['0.30000000000000004', 'more than 9 decimal places'],
    ['0.1234567891', '10 decimal places'],
    ['01', 'a leading zero'],
    ['00.5', 'leading zeros'],
    ['-1', 'a sign'],
    ['+1', 'a plus sign'],
    ['1e3', 'an exponent'],
    ['0', 'zero'],
    ['0.0', 'zero with a fraction'],
    ['0.000000000', 'zero with nine decimals'],
    ['123456789012345678901234567890123456', '36 integer digits'],
    ['1.', 'a point without decimals'],
    ['.5', 'no integer part'],
    ['1,5', 'a comma'],
    [' 1', 'a blank'],
    ['', 'nothing'],
    ['NaN', 'not a number'],
    ['Infinity', 'infinity'],
  ])('refuses the quantity %j (%s) with invalid_field on events[n].quantity', (quantity) => {
    expect(refusal({ quantity }, 3)).toEqual({ code: 'invalid_field', field: 'events[3].quantity' });
  });

  it.each(['ab', 'api_call', 'a1', 'a_', `a${'b'.repeat(63)}`])('accepts the action %j', (action) => {
    expect(refusal({ action })).toBeNull();
  });

  it.each([
    ['a', 'one character'],
    [`a${'b'.repeat(64)}`, '65 characters'],
    ['Api_call', 'an upper-case letter'],
    ['1api', 'a leading digit'],
    ['_api', 'a leading underscore'],
    ['api-call', 'a hyphen'],
    ['api call', 'a blank'],
    ['api.call', 'a dot'],
    ['apí', 'a non-ASCII letter'],
    ['api_call\n', 'a trailing newline'],
    ['', 'nothing'],
  ])('refuses the action %j (%s) with invalid_field on events[n].action', (action) => {
    expect(refusal({ action })).toEqual({ code: 'invalid_field', field: 'events[0].action' });
  });

  it('refuses an empty event_key and one longer than the limit, and accepts one at the limit', () => {
    expect(refusal({ eventKey: '' })).toEqual({ code: 'invalid_field', field: 'events[0].event_key' });
    expect(refusal({ eventKey: 'k'.repeat(EVENT_KEY_MAX_LENGTH + 1) })).toEqual({
      code: 'invalid_field',
      field: 'events[0].event_key',
    });
    expect(refusal({ eventKey: 'k'.repeat(EVENT_KEY_MAX_LENGTH) })).toBeNull();
    expect(refusal({ eventKey: 'x' })).toBeNull();
  });

  it('refuses an occurred_at with a non-UTC offset or an impossible date', () => {
    for (const occurredAt of ['2026-03-01T12:00:00+02:00', '2026-02-30T00:00:00Z', 'yesterday']) {
      expect(refusal({ occurredAt })).toEqual({ code: 'invalid_field', field: 'events[0].occurred_at' });
    }
  });
});

describe('checkEventWindow', () => {
  const now = Date.UTC(2026, 5, 15, 12, 0, 0);
  const at = (epochMs: number) => new Date(epochMs).toISOString();

  it('accepts an event exactly 60 days old and refuses one a millisecond older as usage_event_timestamp_too_old', () => {
    expect(MAX_EVENT_AGE_MS).toBe(60 * 24 * 3_600_000);
    expect(checkEventWindow(at(now - MAX_EVENT_AGE_MS), now)).toBeNull();
    expect(checkEventWindow(at(now - MAX_EVENT_AGE_MS - 1), now)?.code).toBe('usage_event_timestamp_too_old');
  });

  it('accepts an event exactly 24 hours ahead and refuses one a millisecond further as usage_event_future_timestamp', () => {
    expect(MAX_EVENT_LEAD_MS).toBe(24 * 3_600_000);
    expect(checkEventWindow(at(now + MAX_EVENT_LEAD_MS), now)).toBeNull();
    expect(checkEventWindow(at(now + MAX_EVENT_LEAD_MS + 1), now)?.code).toBe('usage_event_future_timestamp');
  });

  it('accepts now and anything between the bounds', () => {
    expect(checkEventWindow(at(now), now)).toBeNull();
    expect(checkEventWindow(at(now - 30 * 86_400_000), now)).toBeNull();
    expect(checkEventWindow(at(now + 3_600_000), now)).toBeNull();
  });

  it('compares at millisecond precision whatever the fraction digits', () => {
    const boundary = new Date(now - MAX_EVENT_AGE_MS).toISOString().replace('.000Z', '.000999999Z');
    expect(checkEventWindow(boundary, now)).toBeNull();
  });
});

describe('resolveDrawdowns', () => {
  it('draws quantity × rate from the unit of every meter, exactly', () => {
    const meters = [
      meter('mtr_a', 'ubu_calls', '0.1'),
      meter('mtr_b', 'ubu_credits', '2.5'),
      meter('mtr_c', 'ubu_tokens', '0.000000001'),
    ];
    expect(resolveDrawdowns(meters, '3')).toEqual([
      { meterId: 'mtr_a', usageBalanceUnitId: 'ubu_calls', amount: '0.3' },
      { meterId: 'mtr_b', usageBalanceUnitId: 'ubu_credits', amount: '7.5' },
      { meterId: 'mtr_c', usageBalanceUnitId: 'ubu_tokens', amount: '0.000000003' },
    ]);
  });

  it('keeps every digit of large and finely divided products', () => {
    const [drawdown] = resolveDrawdowns(
      [meter('mtr_a', 'ubu_a', '2.000000001')],
      '99999999999999999999999999999999999.999999999',
    );
    // 99…9.999999999 × 2.000000001 = 2 × q + q / 10^9, written out digit by digit.
    expect(drawdown?.amount).toBe('200000000099999999999999999999999999.999999997999999999');
    expect(resolveDrawdowns([meter('mtr_a', 'ubu_a', '0.1')], '0.2')[0]?.amount).toBe('0.02');
    expect(resolveDrawdowns([meter('mtr_a', 'ubu_a', '3')], '0.1')[0]?.amount).toBe('0.3');
  });

  it('draws nothing for an action with no meter', () => {
    expect(resolveDrawdowns([], '5')).toEqual([]);
  });

  it('lets several meters draw the same unit, each at its own rate', () => {
    expect(resolveDrawdowns([meter('mtr_a', 'ubu_a', '1'), meter('mtr_b', 'ubu_a', '4')], '2')).toEqual([
      { meterId: 'mtr_a', usageBalanceUnitId: 'ubu_a', amount: '2' },
      { meterId: 'mtr_b', usageBalanceUnitId: 'ubu_a', amount: '8' },
    ]);
  });
});
