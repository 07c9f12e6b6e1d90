import { describe, expect, it } from 'vitest';
import { formatPence, type Pence, penceFromDecimal, penceFromPounds, poundsFromPence, scalePence } from './pence.js';

describe('penceFromDecimal', () => {
  it('reads pounds with up to two decimals', () => {
    expect(penceFromDecimal('279.00')).toBe(27900);
    expect(penceFromDecimal('1299.9')).toBe(129990);
    expect(penceFromDecimal('0.01')).toBe(1);
    expect(penceFromDecimal('42')).toBe(4200);
  });

  it('refuses more than two decimals, signs, separators and exponents', () => {
    for (const text of ['1.999', '-1.00', '+1', '1,299.00', '1e3', '', '.5', 'abc']) {
      expect(penceFromDecimal(text)).toBeUndefined();
    }
  });

  it('refuses amounts above one million pounds', () => {
    expect(penceFromDecimal('1000000.00')).toBe(100_000_000);
    expect(penceFromDecimal('1000000.01')).toBeUndefined();
  });
});

describe('penceFromPounds', () => {
  it('reads a float through its shortest spelling, so 0.1 + 0.2 style noise never appears', () => {
    expect(penceFromPounds(49.99)).toBe(4999);
    expect(penceFromPounds(0.29)).toBe(29);
    expect(penceFromPounds(1.005)).toBeUndefined();
  });

  it('refuses negative and non-finite values', () => {
    expect(penceFromPounds(-1)).toBeUndefined();
    expect(penceFromPounds(Number.POSITIVE_INFINITY)).toBeUndefined();
    expect(penceFromPounds(Number.NaN)).toBeUndefined();
  });
});

describe('the response edge', () => {
  it('prints integer pence as exact pounds', () => {
    for (let pence = 0; pence < 100_000; pence += 7) {
      expect(String(poundsFromPence(pence as Pence))).toBe(String(Number(formatPence(pence as Pence))));
    }
  });

  it('formats two decimals for marketplace filters', () => {
    expect(formatPence(5000 as Pence)).toBe('50.00');
    expect(formatPence(4999 as Pence)).toBe('49.99');
    expect(formatPence(5 as Pence)).toBe('0.05');
  });
});

describe('scalePence', () => {
  it('rounds half up with integers only', () => {
    expect(scalePence(5000 as Pence, 9, 10)).toBe(4500);
    expect(scalePence(5 as Pence, 1, 2)).toBe(3);
    expect(scalePence(150 as Pence, 1000, 1)).toBe(150_000);
  });
});
