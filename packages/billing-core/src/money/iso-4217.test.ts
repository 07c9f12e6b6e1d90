/**
 * The generated ISO 4217 table agrees with the currency-codes package it was generated from,
 * and amounts format exactly with ISO's decimal places (not ICU's).
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { CURRENCY_MINOR_UNITS, isSupportedCurrency, listCurrencies } from './currencies.js';
import { ISO_4217 } from './iso-4217.js';
import { toMajorUnitText } from './minor-units.js';
import { formatMinorUnits, resolveLocale } from './money-format.js';

const require = createRequire(import.meta.url);
const currencyCodes = require('currency-codes') as {
  code(code: string): { digits: number; currency: string } | undefined;
};

describe('ISO 4217 data', () => {
  it('matches the currency-codes package for every billed currency', () => {
    for (const [code, entry] of Object.entries(ISO_4217)) {
      const iso = currencyCodes.code(code);
      expect(iso, code).toBeDefined();
      expect({ code, digits: entry.minorUnits, name: entry.name }).toEqual({
        code,
        digits: iso?.digits,
        name: iso?.currency,
      });
    }
  });

  it('bills in the 33 currencies of the public API, HUF with two decimals and JPY with none', () => {
    expect(listCurrencies()).toHaveLength(33);
    expect(CURRENCY_MINOR_UNITS.HUF).toBe(2);
    expect(CURRENCY_MINOR_UNITS.JPY).toBe(0);
    expect(isSupportedCurrency('XXX')).toBe(false);
  });
});

describe('formatting amounts', () => {
  it('moves the decimal point by the currency’s ISO minor units, exactly', () => {
    expect(toMajorUnitText(123456n, 'EUR')).toBe('1234.56');
    expect(toMajorUnitText(5n, 'HUF')).toBe('0.05');
    expect(toMajorUnitText(123456n, 'JPY')).toBe('123456');
    expect(toMajorUnitText(-7n, 'USD')).toBe('-0.07');
    expect(toMajorUnitText(123456789012345678901n, 'USD')).toBe('1234567890123456789.01');
  });

  it('formats for a locale with ISO decimal places, and falls back to en-US on a malformed tag', () => {
    expect(formatMinorUnits(238000n, 'EUR', 'en-US')).toBe('€2,380.00');
    expect(formatMinorUnits(238000n, 'EUR', 'de-DE')).toBe('2.380,00\u00a0€');
    expect(formatMinorUnits(1005n, 'HUF', 'en-US')).toBe('HUF\u00a010.05');
    expect(formatMinorUnits(1000n, 'JPY', 'en-US')).toBe('¥1,000');
    expect(formatMinorUnits(123456789012345678901n, 'USD', 'en-US')).toBe('$1,234,567,890,123,456,789.01');
    expect(resolveLocale('not a locale!')).toBe('en-US');
    expect(formatMinorUnits(100n, 'USD', '??')).toBe('$1.00');
  });
});
