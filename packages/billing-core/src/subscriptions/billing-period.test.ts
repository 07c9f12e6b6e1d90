import { describe, expect, it } from 'vitest';
import type { Duration } from '../catalogue/entities.js';
import { addCycles, periodAt } from './billing-period.js';

const month: Duration = { interval: 'month', frequency: 1 };
const year: Duration = { interval: 'year', frequency: 1 };

describe('addCycles', () => {
  it('keeps a month-end anchor on the last day of shorter months and returns to the 31st after them', () => {
    const anchor = '2026-01-31T09:30:00.000Z';
    expect(addCycles(anchor, month, 1)).toBe('2026-02-28T09:30:00.000Z');
    expect(addCycles(anchor, month, 2)).toBe('2026-03-31T09:30:00.000Z');
    expect(addCycles(anchor, month, 3)).toBe('2026-04-30T09:30:00.000Z');
    expect(addCycles(anchor, month, 4)).toBe('2026-05-31T09:30:00.000Z');
  });

  it('lands on 29 February in a leap year', () => {
    expect(addCycles('2028-01-31T00:00:00.000Z', month, 1)).toBe('2028-02-29T00:00:00.000Z');
    expect(addCycles('2028-01-30T00:00:00.000Z', month, 1)).toBe('2028-02-29T00:00:00.000Z');
    expect(addCycles('2028-01-29T00:00:00.000Z', month, 1)).toBe('2028-02-29T00:00:00.000Z');
    expect(addCycles('2028-01-28T00:00:00.000Z', month, 1)).toBe('2028-02-28T00:00:00.000Z');
  });

  it('counts every period from the anchor, so a clipped month never shortens later ones', () => {
    const anchor = '2026-01-31T00:00:00.000Z';
    // Adding one month to 28 February would give 28 March; counting from the anchor gives 31 March.
    expect(addCycles(addCycles(anchor, month, 1), month, 1)).toBe('2026-03-28T00:00:00.000Z');
    expect(periodAt(anchor, month, 1)).toEqual({
      startsAt: '2026-02-28T00:00:00.000Z',
      endsAt: '2026-03-31T00:00:00.000Z',
    });
  });

  it('crosses year ends and counts several months per cycle', () => {
    expect(addCycles('2026-11-30T12:00:00.000Z', month, 3)).toBe('2027-02-28T12:00:00.000Z');
    expect(addCycles('2026-12-31T00:00:00.000Z', month, 1)).toBe('2027-01-31T00:00:00.000Z');
    expect(addCycles('2026-08-31T00:00:00.000Z', { interval: 'month', frequency: 6 }, 1)).toBe(
      '2027-02-28T00:00:00.000Z',
    );
    expect(addCycles('2026-01-15T00:00:00.000Z', month, 24)).toBe('2028-01-15T00:00:00.000Z');
  });

  it('moves a 29 February anchor to 28 February in common years and back to 29 in leap years', () => {
    const anchor = '2024-02-29T08:00:00.000Z';
    expect(addCycles(anchor, year, 1)).toBe('2025-02-28T08:00:00.000Z');
    expect(addCycles(anchor, year, 3)).toBe('2027-02-28T08:00:00.000Z');
    expect(addCycles(anchor, year, 4)).toBe('2028-02-29T08:00:00.000Z');
    expect(addCycles(anchor, { interval: 'year', frequency: 2 }, 2)).toBe('2028-02-29T08:00:00.000Z');
  });

  it('adds whole weeks and days in UTC, keeping the time of day and milliseconds', () => {
    expect(addCycles('2026-03-25T23:59:59.123Z', { interval: 'week', frequency: 1 }, 1)).toBe(
      '2026-04-01T23:59:59.123Z',
    );
    expect(addCycles('2026-02-22T10:00:00.000Z', { interval: 'week', frequency: 2 }, 3)).toBe(
      '2026-04-05T10:00:00.000Z',
    );
    expect(addCycles('2028-02-28T00:00:00.000Z', { interval: 'day', frequency: 1 }, 1)).toBe(
      '2028-02-29T00:00:00.000Z',
    );
    expect(addCycles('2026-02-28T00:00:00.000Z', { interval: 'day', frequency: 1 }, 1)).toBe(
      '2026-03-01T00:00:00.000Z',
    );
    expect(addCycles('2026-12-31T18:00:00.000Z', { interval: 'day', frequency: 10 }, 1)).toBe(
      '2027-01-10T18:00:00.000Z',
    );
  });

  it('gives the anchor itself for zero cycles', () => {
    expect(addCycles('2026-01-31T00:00:00.000Z', month, 0)).toBe('2026-01-31T00:00:00.000Z');
  });
});

describe('periodAt', () => {
  it('gives consecutive periods that meet end to start', () => {
    const anchor = '2026-01-31T00:00:00.000Z';
    const periods = [0, 1, 2, 3].map((index) => periodAt(anchor, month, index));
    expect(periods.map((period) => period.startsAt)).toEqual([
      '2026-01-31T00:00:00.000Z',
      '2026-02-28T00:00:00.000Z',
      '2026-03-31T00:00:00.000Z',
      '2026-04-30T00:00:00.000Z',
    ]);
    for (const [index, period] of periods.entries()) {
      const next = periods[index + 1];
      if (next) expect(next.startsAt).toBe(period.endsAt);
    }
  });
});
