import { describe, expect, it } from 'vitest';
import {
  formatDate,
  formatMoney,
  LANGUAGES,
  type Messages,
  messageCatalogue,
  negotiateLocale,
} from './localisation.js';

const en = { hello: 'Hello {name}', total: '{amount} due on {date}' };
const words = (hello: string): Messages<keyof typeof en> => ({ hello: `${hello} {name}`, total: '{amount} / {date}' });
const catalogue = messageCatalogue({
  en,
  de: words('Hallo'),
  fr: words('Bonjour'),
  es: words('Hola'),
  ja: words('こんにちは'),
});

describe('a message catalogue', () => {
  it('lists the English keys and fills placeholders in each language, leaving a missing one visible', () => {
    expect(catalogue.keys).toEqual(['hello', 'total']);
    expect(LANGUAGES.map((language) => catalogue.translator(language)('hello', { name: 'Ada' }))).toEqual([
      'Hello Ada',
      'Hallo Ada',
      'Bonjour Ada',
      'Hola Ada',
      'こんにちは Ada',
    ]);
    expect(catalogue.translator('de')('total', { amount: '1,00 €' })).toBe('1,00 € / {date}');
    expect(catalogue.messages('fr').hello).toBe('Bonjour {name}');
  });
});

describe('the reader’s language and format locale', () => {
  it('takes the override, then the stored locale unless it is the default en, then Accept-Language, then English', () => {
    expect(negotiateLocale({ query: 'ja', customerLocale: 'fr', acceptLanguage: 'de' })).toEqual({
      language: 'ja',
      locale: 'ja-JP',
      fromQuery: 'ja',
    });
    expect(negotiateLocale({ query: `de${'-x'.repeat(20)}`, acceptLanguage: 'es' }).language).toBe('es');
    expect(negotiateLocale({ customerLocale: 'fr-CA', acceptLanguage: 'de' })).toEqual({
      language: 'fr',
      locale: 'fr-CA',
      fromQuery: null,
    });
    expect(negotiateLocale({ customerLocale: 'EN', acceptLanguage: 'es-MX, en;q=0.5' }).locale).toBe('es-MX');
    expect(negotiateLocale({})).toEqual({ language: 'en', locale: 'en-US', fromQuery: null });
  });

  it('formats in the first regional tag of the language it gave, without extensions, else the usual locale', () => {
    expect(negotiateLocale({ acceptLanguage: 'en-GB;q=0.9, fr-CA' }).locale).toBe('fr-CA');
    expect(negotiateLocale({ acceptLanguage: 'de-AT-u-nu-arab' }).locale).toBe('de-AT');
    expect(negotiateLocale({ acceptLanguage: 'ja_JP' }).locale).toBe('ja-JP');
    expect(negotiateLocale({ acceptLanguage: 'de-%%' }).locale).toBe('de-DE');
    // Where there is no browser (an email), the stored locale alone decides.
    expect(negotiateLocale({ customerLocale: 'es' }).locale).toBe('es-ES');
  });
});

describe('money and dates', () => {
  it('formats a lowest-unit amount of any size exactly, with the decimal places given', () => {
    expect(formatMoney('123456789012345678901', 'EUR', 2, 'de-DE')).toBe('1.234.567.890.123.456.789,01\u00a0€');
    expect(formatMoney('-5', 'USD', 2, 'en-US')).toBe('-$0.05');
    expect(formatMoney('123456', 'JPY', 0, 'ja-JP')).toBe('￥123,456');
  });

  it('writes an instant’s UTC day in the style asked, and text that is not a date as it is', () => {
    expect(formatDate('2026-11-30T23:30:00Z', 'en-US', 'long')).toBe('November 30, 2026');
    expect(formatDate('2026-11-30T23:30:00Z', 'de-CH', 'medium')).toBe('30.11.2026');
    expect(formatDate('not a date', 'fr-FR', 'long')).toBe('not a date');
  });
});
