import { describe, expect, it } from 'vitest';
import { Decimal } from './decimal.js';
import {
  ALLOWANCE_AMOUNT_PATTERN,
  MINOR_UNIT_AMOUNT_PATTERN,
  QUANTITY_PATTERN,
  RATE_PATTERN,
} from './decimal-patterns.js';

const d = (text: string) => Decimal.parse(text);

describe('Decimal.parse', () => {
  it('reads whole numbers, fractions and negatives exactly', () => {
    expect(d('12')).toMatchObject({ coefficient: 12n, scale: 0 });
    expect(d('-0.5')).toMatchObject({ coefficient: -5n, scale: 1 });
    expect(d('1.250')).toMatchObject({ coefficient: 1250n, scale: 3 });
  });

  it('keeps every digit of a 35-digit quantity with 9 decimal places', () => {
    const text = `${'9'.repeat(35)}.123456789`;
    expect(d(text).toString()).toBe(text);
  });

  it.each([
    '',
    ' 1',
    '1 ',
    '+1',
    '01',
    '-01',
    '1.',
    '.5',
    '1e3',
    '1E3',
    '0x10',
    'NaN',
    'Infinity',
    '1,5',
    '--1',
    '١',
  ])('refuses %j with a RangeError', (text) => {
    expect(() => d(text)).toThrow(RangeError);
  });
});

describe('Decimal.toString', () => {
  it.each([
    ['0', '0'],
    ['0.000', '0'],
    ['-0', '0'],
    ['-0.0', '0'],
    ['1.500', '1.5'],
    ['100', '100'],
    ['100.00', '100'],
    ['0.001', '0.001'],
    ['-0.001', '-0.001'],
    ['-12.340', '-12.34'],
  ])('writes %s canonically as %s', (text, canonical) => {
    expect(d(text).toString()).toBe(canonical);
  });

  it('serialises to JSON as its canonical string', () => {
    expect(JSON.stringify({ amount: d('2.50') })).toBe('{"amount":"2.5"}');
  });
});

describe('Decimal arithmetic', () => {
  it('adds 0.1 and 0.2 to exactly 0.3', () => {
    expect(d('0.1').add(d('0.2')).toString()).toBe('0.3');
  });

  it('adds and subtracts across different scales', () => {
    expect(d('1.005').add(d('2')).toString()).toBe('3.005');
    expect(d('2').subtract(d('0.001')).toString()).toBe('1.999');
    expect(d('0.5').subtract(d('0.75')).toString()).toBe('-0.25');
  });

  it('multiplies exactly, summing the scales', () => {
    expect(d('1.5').multiply(d('0.25')).toString()).toBe('0.375');
    expect(d('-3').multiply(d('0.1')).toString()).toBe('-0.3');
    expect(
      d(`${'9'.repeat(35)}`)
        .multiply(d('0.000000001'))
        .toString(),
    ).toBe(`${'9'.repeat(26)}.${'9'.repeat(9)}`);
  });

  it('negates', () => {
    expect(d('1.5').negate().toString()).toBe('-1.5');
    expect(d('0').negate().isZero()).toBe(true);
  });

  it('builds from a BigInt', () => {
    expect(Decimal.fromBigInt(-42n).toString()).toBe('-42');
    expect(Decimal.zero.toString()).toBe('0');
  });
});

describe('Decimal comparison', () => {
  it('compares values, not text', () => {
    expect(d('1.50').compare(d('1.5'))).toBe(0);
    expect(d('1.5').equals(d('1.500'))).toBe(true);
    expect(d('10').compare(d('9.99'))).toBe(1);
    expect(d('-10').compare(d('-9.99'))).toBe(-1);
    expect(d('0.001').compare(d('0.01'))).toBe(-1);
  });

  it('tells the sign', () => {
    expect(d('0.000').isZero()).toBe(true);
    expect(d('0.001').isPositive()).toBe(true);
    expect(d('-0.001').isNegative()).toBe(true);
    expect(d('0').isPositive()).toBe(false);
    expect(d('0').isNegative()).toBe(false);
  });

  it('picks the smaller and the larger', () => {
    expect(d('2').min(d('1.99')).toString()).toBe('1.99');
    expect(d('2').max(d('1.99')).toString()).toBe('2');
  });

  it('refuses coercion, so < and + cannot silently compare or join text', () => {
    const one = d('1');
    expect(() => one.valueOf()).toThrow(TypeError);
    expect(() => `${+one}`).toThrow(TypeError);
  });
});

describe('QUANTITY_PATTERN (the seed: no leading zeros, up to 35 integer digits and 9 decimal places)', () => {
  it.each([
    '0',
    '1',
    '0.5',
    '10',
    '1.000000001',
    '0.000000001',
    '9'.repeat(35),
    `${'9'.repeat(35)}.${'9'.repeat(9)}`,
  ])('accepts %s', (text) => {
    expect(QUANTITY_PATTERN.test(text)).toBe(true);
  });

  it.each([
    ['a float artefact', '0.30000000000000004'],
    ['a leading zero', '01'],
    ['a leading zero before a fraction', '00.5'],
    ['a negative', '-1'],
    ['an exponent', '1e3'],
    ['a plus sign', '+1'],
    ['a leading blank', ' 1'],
    ['a trailing blank', '1 '],
    ['a trailing point', '1.'],
    ['a leading point', '.5'],
    ['36 integer digits', '1'.repeat(36)],
    ['10 decimal places', '0.1234567890'],
    ['an empty string', ''],
    ['a comma', '1,5'],
    ['a trailing newline', '1\n'],
  ])('rejects %s (%j)', (_label, text) => {
    expect(QUANTITY_PATTERN.test(text)).toBe(false);
  });

  it('is the pattern of rates and allowance amounts too', () => {
    expect(RATE_PATTERN).toBe(QUANTITY_PATTERN);
    expect(ALLOWANCE_AMOUNT_PATTERN).toBe(QUANTITY_PATTERN);
  });
});

describe('MINOR_UNIT_AMOUNT_PATTERN', () => {
  it.each(['0', '1', '1000', '9'.repeat(18)])('accepts %s', (text) => {
    expect(MINOR_UNIT_AMOUNT_PATTERN.test(text)).toBe(true);
  });

  it.each(['01', '-1', '1.5', '1e3', '9'.repeat(19), ''])('rejects %j', (text) => {
    expect(MINOR_UNIT_AMOUNT_PATTERN.test(text)).toBe(false);
  });
});
