import { describe, expect, it } from 'vitest';
import { toTimestamp } from './clock.js';
import { canonicalTimestamp, parseTimestamp } from './timestamps.js';

describe('parseTimestamp', () => {
  it('reads offsets as the instant they name', () => {
    expect(parseTimestamp('2026-03-01T13:30:00+01:30', { utcOnly: false })?.epochMs).toBe(
      Date.parse('2026-03-01T12:00:00Z'),
    );
    expect(parseTimestamp('2026-03-01t07:00:00.25-05:00', { utcOnly: false })).toEqual({
      epochMs: Date.parse('2026-03-01T12:00:00.250Z'),
      fraction: '25',
    });
  });

  it('refuses instants that do not exist and offsets when only UTC is allowed', () => {
    for (const text of [
      '2026-02-30T00:00:00Z',
      '2026-03-01T24:00:00Z',
      '2026-03-01T23:59:60Z',
      '2026-03-01T00:00:00+24:00',
    ]) {
      expect(parseTimestamp(text, { utcOnly: false })).toBeNull();
    }
    expect(parseTimestamp('2026-03-01T12:00:00+01:00', { utcOnly: true })).toBeNull();
    expect(parseTimestamp('2026-03-01T12:00:00-00:00', { utcOnly: true })).toBeNull();
    expect(parseTimestamp('2026-03-01t12:00:00z', { utcOnly: true })).toBeNull();
    expect(canonicalTimestamp('2026-03-01T12:00:00.100+00:00')?.canonical).toBe('2026-03-01T12:00:00.1Z');
  });
});

describe('canonicalTimestamp', () => {
  it('spells the seconds as the instant’s UTC text, whatever was read before', () => {
    for (const text of [
      '0001-01-01T00:00:00Z',
      '0099-12-31T23:59:59.999999999Z',
      '1969-12-31T23:59:59.5Z',
      '2024-02-29T12:00:00+00:00',
      '9999-12-31T23:59:59.000Z',
      '2026-03-01T12:00:00.120Z',
      '2026-03-01T12:00:00.120Z',
      '2026-02-30T00:00:00Z',
    ]) {
      const found = canonicalTimestamp(text);
      const parsed = parseTimestamp(text, { utcOnly: true });
      if (!parsed) {
        expect(found).toBeNull();
        continue;
      }
      const whole = parsed.epochMs - (((parsed.epochMs % 1000) + 1000) % 1000);
      const seconds = new Date(whole).toISOString().slice(0, 19);
      expect(found).toEqual({
        canonical: `${seconds}${parsed.fraction ? `.${parsed.fraction}` : ''}Z`,
        epochMs: parsed.epochMs,
      });
    }
  });
});

describe('toTimestamp', () => {
  it('spells each instant as Date does, the same instant twice in a row included, and refuses NaN', () => {
    for (const ms of [0, 0, 1_795_830_000_123, 1_795_830_000_123, 1_795_830_000_124, -1, -1, 253_402_300_799_999]) {
      expect(toTimestamp(ms)).toBe(new Date(ms).toISOString());
    }
    expect(() => toTimestamp(Number.NaN)).toThrow(RangeError);
    expect(() => toTimestamp(Number.NaN)).toThrow(RangeError);
  });
});
