import { describe, expect, it } from 'vitest';
import { monthKey, secondsUntil, startOfNextMonth } from './calendar-month.js';

describe('calendar months (UTC)', () => {
  it('names the month of an instant in UTC, whatever the local offset of the text', () => {
    expect(monthKey(new Date('2026-11-30T23:59:59Z'))).toBe('2026-11');
    expect(monthKey(new Date('2026-12-01T00:30:00+01:00'))).toBe('2026-11');
  });

  it('rolls December over into January', () => {
    expect(startOfNextMonth(new Date('2026-12-15T08:00:00Z'))).toEqual(new Date('2027-01-01T00:00:00Z'));
  });

  it('waits at least one second', () => {
    const at = new Date('2026-01-01T00:00:00Z');
    expect(secondsUntil(at, at)).toBe(1);
    expect(secondsUntil(at, new Date('2026-01-01T00:00:01.200Z'))).toBe(2);
  });
});
