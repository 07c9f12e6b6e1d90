/**
 * Property tests: `formatAmount` is exact for every currency, for random amounts far beyond
 * 2^53, and for random locales and malformed tags. The reference splits the amount with BigInt
 * arithmetic and formats the exact decimal string with Intl (which formats strings exactly),
 * a path the implementation does not take; a second property reads the digits back out.
 */

import { clearFormatterCache, fallbackDecimalPlaces, formatAmount, localeFromAcceptLanguage } from '@drawdown/sdk';
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';

const CURRENCIES = [
  'ARS',
  'AUD',
  'BRL',
  'CAD',
  'CHF',
  'CLP',
  'CNY',
  'COP',
  'CZK',
  'DKK',
  'EUR',
  'GBP',
  'HKD',
  'HUF',
  'ILS',
  'INR',
  'JPY',
  'KRW',
  'MXN',
  'NOK',
  'NZD',
  'PEN',
  'PLN',
  'RUB',
  'SEK',
  'SGD',
  'THB',
  'TRY',
  'TWD',
  'UAH',
  'USD',
  'VND',
  'ZAR',
] as const;

const LOCALES = [
  'en-US',
  'en-GB',
  'en-IN',
  'de-DE',
  'de-CH',
  'fr-FR',
  'fr-CH',
  'es-ES',
  'es-CL',
  'pt-BR',
  'it-IT',
  'nl-NL',
  'sv-SE',
  'nb-NO',
  'da-DK',
  'pl-PL',
  'cs-CZ',
  'hu-HU',
  'ru-RU',
  'uk-UA',
  'tr-TR',
  'ja-JP',
  'ko-KR',
  'zh-CN',
  'zh-TW',
  'hi-IN',
  'ar-EG',
  'ar-SA',
  'he-IL',
  'th-TH',
  'vi-VN',
  'fa-IR',
  'bn-BD',
  'mr-IN',
  'ne-NP',
  'de-AT',
] as const;

const MALFORMED = [
  '',
  ' ',
  '!!',
  'en_US',
  'en-',
  '-en',
  '12-34',
  'en;q=abc',
  '*',
  'q=1',
  ';;;',
  'éé-FR',
  'a'.repeat(90),
];

/** The exact decimal string of a lowest-unit amount, by BigInt arithmetic. */
function exactDecimal(amount: bigint, decimalPlaces: number): string {
  const negative = amount < 0n;
  const magnitude = negative ? -amount : amount;
  const scale = 10n ** BigInt(decimalPlaces);
  const integer = magnitude / scale;
  const fraction = (magnitude % scale).toString().padStart(decimalPlaces, '0');
  const sign = negative ? '-' : '';
  return decimalPlaces === 0 ? `${sign}${integer}` : `${sign}${integer}.${fraction}`;
}

const referenceFormats = new Map<string, Intl.NumberFormat>();

function reference(amount: bigint, currency: string, locale: string, decimalPlaces: number): string {
  const key = `${locale} ${currency} ${decimalPlaces}`;
  const format =
    referenceFormats.get(key) ??
    new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      minimumFractionDigits: decimalPlaces,
      maximumFractionDigits: decimalPlaces,
    });
  referenceFormats.set(key, format);
  // Intl formats a numeric string exactly (Intl.NumberFormat v3); the cast is for older lib types.
  return format.format(exactDecimal(amount, decimalPlaces) as unknown as number);
}

/** The ASCII digits of a formatted amount, whatever the locale's numbering system. */
function digitsOf(text: string, locale: string): string {
  const numberingSystem = new Intl.NumberFormat(locale).resolvedOptions().numberingSystem;
  const digitFormat = new Intl.NumberFormat(locale, { numberingSystem, useGrouping: false });
  const map = new Map(Array.from({ length: 10 }, (_, digit) => [digitFormat.format(digit), String(digit)]));
  return [...text].map((character) => map.get(character) ?? (/\d/.test(character) ? character : '')).join('');
}

const hugeAmount = fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n });
const anyAmount = fc.oneof(hugeAmount, fc.bigInt({ min: -10_000n, max: 10_000n }), fc.constantFrom(0n, 2n ** 53n + 1n));

describe('formatAmount', () => {
  test.prop([fc.constantFrom(...CURRENCIES), anyAmount, fc.constantFrom(...LOCALES)], { numRuns: 400 })(
    'is exact for every currency with its default decimal places',
    (currency, amount, locale) => {
      const places = fallbackDecimalPlaces(currency);
      expect(formatAmount(amount.toString(), currency, locale)).toBe(reference(amount, currency, locale, places));
    },
  );

  test.prop([fc.constantFrom(...CURRENCIES), anyAmount, fc.constantFrom(...LOCALES), fc.integer({ min: 0, max: 6 })], {
    numRuns: 400,
  })('is exact with explicit decimal places, as the currency list gives them', (currency, amount, locale, places) => {
    expect(formatAmount(amount.toString(), currency, locale, places)).toBe(reference(amount, currency, locale, places));
  });

  test.prop([hugeAmount, fc.constantFrom(...LOCALES), fc.constantFrom(...CURRENCIES)], { numRuns: 300 })(
    'keeps every digit of amounts beyond 2^53',
    (amount, locale, currency) => {
      const text = formatAmount(amount.toString(), currency, locale);
      const magnitude = (amount < 0n ? -amount : amount).toString();
      const places = fallbackDecimalPlaces(currency);
      const expected = magnitude.padStart(places + 1, '0');
      expect(digitsOf(text, locale)).toBe(expected);
    },
  );

  test.prop([anyAmount, fc.constantFrom(...CURRENCIES), fc.oneof(fc.constantFrom(...MALFORMED), fc.string())], {
    numRuns: 300,
  })('formats a malformed Accept-Language as en-US', (amount, currency, header) => {
    const locale = localeFromAcceptLanguage(header);
    fc.pre(locale === 'en-US');
    expect(formatAmount(amount.toString(), currency, header)).toBe(
      reference(amount, currency, 'en-US', fallbackDecimalPlaces(currency)),
    );
  });

  test.prop([fc.constantFrom(...MALFORMED)])('never takes a locale from a malformed tag', (header) => {
    expect(localeFromAcceptLanguage(header)).toBe('en-US');
  });

  test.prop([fc.shuffledSubarray([...LOCALES], { minLength: 1, maxLength: 4 }), anyAmount])(
    'formats for the highest-q locale of an Accept-Language header',
    (locales, amount) => {
      const header = locales
        .map((locale, index) => `${locale};q=${(0.9 - index * 0.1).toFixed(1)}`)
        .reverse()
        .join(', ');
      const first = locales[0] ?? 'en-US';
      expect(localeFromAcceptLanguage(header)).toBe(first);
      expect(formatAmount(amount.toString(), 'EUR', header)).toBe(reference(amount, 'EUR', first, 2));
    },
  );

  it('is exact for every currency in every listed locale at the edges', () => {
    const edges = [0n, 1n, -1n, 99n, -100n, 2n ** 53n + 1n, -(10n ** 30n) - 7n];
    for (const currency of CURRENCIES) {
      const places = fallbackDecimalPlaces(currency);
      for (const locale of LOCALES) {
        for (const amount of edges) {
          expect(formatAmount(amount.toString(), currency, locale)).toBe(reference(amount, currency, locale, places));
        }
      }
    }
  });

  it('formats familiar examples', () => {
    expect(formatAmount('123456', 'USD', 'en-US')).toBe('$1,234.56');
    expect(formatAmount('-5', 'USD', 'en-US')).toBe('-$0.05');
    expect(formatAmount('123456', 'JPY', 'ja-JP')).toBe('￥123,456');
    expect(formatAmount('123456', 'EUR', 'de-DE')).toBe('1.234,56\u00a0€');
    expect(formatAmount('9007199254740993', 'USD', 'en-US')).toBe('$90,071,992,547,409.93');
    expect(formatAmount('123456789012345678901234567890', 'KRW', 'ko-KR')).toBe(
      '₩123,456,789,012,345,678,901,234,567,890',
    );
  });

  it('takes HUF decimal places from the caller or the fallback rule, not from ICU', () => {
    expect(formatAmount('123456', 'HUF', 'en-US')).toBe('HUF\u00a01,234.56');
    expect(formatAmount('123456', 'HUF', 'en-US', 0)).toBe('HUF\u00a0123,456');
  });

  it('picks locales by q-value and skips q=0, wildcards and unusable tags', () => {
    expect(localeFromAcceptLanguage('fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5')).toBe('fr-CH');
    expect(localeFromAcceptLanguage('en;q=0.5, de-DE;q=0.9')).toBe('de-DE');
    expect(localeFromAcceptLanguage('de;q=0, ja')).toBe('ja');
    expect(localeFromAcceptLanguage('!!, pt-br;q=0.2')).toBe('pt-BR');
    expect(localeFromAcceptLanguage(undefined)).toBe('en-US');
  });

  it('refuses an amount that is not an integer string, and a bad currency code', () => {
    for (const amount of ['12.5', '1e3', '', ' 1', '0x10', '--1']) {
      expect(() => formatAmount(amount, 'USD', 'en-US')).toThrow(RangeError);
    }
    expect(() => formatAmount('1', 'US', 'en-US')).toThrow(RangeError);
    expect(() => formatAmount('1', 'USD', 'en-US', 1.5)).toThrow(RangeError);
  });

  it('reuses cached formatters rather than building one per call', () => {
    clearFormatterCache();
    const original = Intl.NumberFormat;
    let constructed = 0;
    const counting = function (this: unknown, ...args: ConstructorParameters<typeof Intl.NumberFormat>) {
      constructed += 1;
      return new original(...args);
    } as unknown as typeof Intl.NumberFormat;
    Object.assign(counting, original);
    Intl.NumberFormat = counting;
    try {
      for (let index = 0; index < 50; index += 1) formatAmount(String(index * 1_234), 'EUR', 'fr-FR');
    } finally {
      Intl.NumberFormat = original;
    }
    expect(constructed).toBeLessThanOrEqual(2);
  });
});
