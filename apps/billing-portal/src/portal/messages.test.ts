import { negotiateLocale } from '@drawdown/http-kit';
import { describe, expect, it } from 'vitest';
import { LANGUAGES, MESSAGE_KEYS, type MessageKey, pickLanguage, translator } from './messages.js';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

describe('page text', () => {
  it('has every message in every language, with the same placeholders as the English one', () => {
    const english = translator('en');
    expect(MESSAGE_KEYS.length).toBeGreaterThan(100);
    for (const language of LANGUAGES) {
      const t = translator(language);
      for (const key of MESSAGE_KEYS) {
        const text = t(key);
        expect(text, `${language}.${key}`).not.toBe('');
        expect(placeholders(text), `${language}.${key}`).toEqual(placeholders(english(key)));
        if (language !== 'en' && !SAME_IN_SOME_LANGUAGES.has(key)) {
          expect(text, `${language}.${key} is not translated`).not.toBe(english(key));
        }
      }
    }
  });

  it('follows the stored locale unless it is the API’s default, then Accept-Language, then English', () => {
    expect(pickLanguage('de', 'fr-FR,fr;q=0.9')).toBe('de');
    expect(pickLanguage('ja-JP', null)).toBe('ja');
    expect(pickLanguage('en', 'fr-FR,fr;q=0.9')).toBe('fr');
    expect(pickLanguage(null, 'nl-NL, es;q=0.8, de;q=0.9')).toBe('de');
    expect(pickLanguage('pt', 'xx, !!')).toBe('en');
    expect(pickLanguage(undefined, 'es;q=0, fr;q=0.1')).toBe('fr');
  });

  it('formats in the browser’s locale when it is of the page’s language, else the language’s usual one', () => {
    expect(negotiateLocale({ acceptLanguage: 'de-CH' }).locale).toBe('de-CH');
    expect(negotiateLocale({ customerLocale: 'de', acceptLanguage: 'en-US' }).locale).toBe('de-DE');
    expect(negotiateLocale({ customerLocale: null, acceptLanguage: 'ja-JP' }).locale).toBe('ja-JP');
  });

  it('fills placeholders and leaves unknown ones visible', () => {
    expect(translator('fr')('nextChargeValue', { amount: '45,00 €', date: '1 déc. 2026' })).toBe(
      '45,00 € le 1 déc. 2026',
    );
    expect(translator('en')('nextChargeValue', { amount: '$1.00' })).toBe('$1.00 on {date}');
  });
});

/** Words that are the same in another language (Status, Plan, Date, Description…). */
const SAME_IN_SOME_LANGUAGES: ReadonlySet<MessageKey> = new Set<MessageKey>([
  'colStatus',
  'subStatus',
  'subActive',
  'planChoice',
  'colDate',
  'colDescription',
  'customerName',
  // A template of figures alone: "{product} × {quantity}".
  'lineCharge',
]);
