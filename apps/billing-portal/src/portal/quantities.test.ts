import { describe, expect, it } from 'vitest';
import { addDecimals, basisPoints, decimalToString, formatQuantity, parseDecimal } from './quantities.js';

describe('quantities', () => {
  it('adds decimal strings exactly, beyond the range of a float', () => {
    const sum = addDecimals(parseDecimal('99999999999999999999.000000001'), parseDecimal('0.000000009'));
    expect(decimalToString(sum)).toBe('99999999999999999999.00000001');
  });

  it('reads anything that is not a decimal as zero', () => {
    expect(decimalToString(parseDecimal('1e3'))).toBe('0');
    expect(decimalToString(parseDecimal(undefined))).toBe('0');
  });

  it('gives shares in basis points, rounding down but never a positive part to zero', () => {
    expect(basisPoints(parseDecimal('250'), parseDecimal('1000'))).toBe(2_500);
    expect(basisPoints(parseDecimal('1'), parseDecimal('1000000000'))).toBe(1);
    expect(basisPoints(parseDecimal('0'), parseDecimal('1000'))).toBe(0);
    expect(basisPoints(parseDecimal('5'), parseDecimal('0'))).toBe(0);
    expect(basisPoints(parseDecimal('1000.5'), parseDecimal('1000'))).toBe(10_000);
  });

  it('formats quantities in the viewer’s locale, keeping every digit', () => {
    expect(formatQuantity('1234567.25', 'en-US')).toBe('1,234,567.25');
    expect(formatQuantity('1234567.25', 'de-DE')).toBe('1.234.567,25');
    expect(formatQuantity('123456789012345678901234567890', 'en-US')).toBe('123,456,789,012,345,678,901,234,567,890');
    expect(formatQuantity('0.000000001', 'en-US')).toBe('0.000000001');
    expect(formatQuantity('12.50', 'en-US')).toBe('12.5');
  });
});
