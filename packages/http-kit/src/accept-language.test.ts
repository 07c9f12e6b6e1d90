import { describe, expect, it } from 'vitest';
import { acceptedLanguageTags, firstAcceptedLanguage, languageOfTag } from './accept-language.js';

const LANGUAGES = ['en', 'de', 'ja'] as const;

describe('Accept-Language', () => {
  it('orders tags by quality, then by position, and drops q=0 and malformed q', () => {
    expect(acceptedLanguageTags('fr;q=0.5, de-CH, ja;q=0.9, es;q=0, it;q=abc, nl;q=0.9')).toEqual([
      'de-CH',
      'ja',
      'nl',
      'fr',
    ]);
    expect(acceptedLanguageTags(undefined)).toEqual([]);
    expect(acceptedLanguageTags(' , ;q=1')).toEqual([]);
  });

  it('reads at most 32 entries', () => {
    const header = [...Array.from({ length: 40 }, (_, index) => `x${index}`), 'de'].join(',');
    expect(firstAcceptedLanguage(LANGUAGES, header)).toBeNull();
  });

  it('finds the first supported language by its primary subtag', () => {
    expect(firstAcceptedLanguage(LANGUAGES, 'fr-FR, de-AT;q=0.8, ja;q=0.9')).toBe('ja');
    expect(firstAcceptedLanguage(LANGUAGES, 'fr-FR')).toBeNull();
    expect(languageOfTag(LANGUAGES, 'DE_ch')).toBe('de');
    expect(languageOfTag(LANGUAGES, '')).toBeNull();
  });
});
