import { describe, expect, it } from 'vitest';
import { COUNTRY_CODES, countryOptions } from './countries.js';

describe('countries for address forms', () => {
  it('names every code in each page language, sorted by that language', () => {
    expect(COUNTRY_CODES.length).toBe(250);
    expect(new Set(COUNTRY_CODES).size).toBe(250);
    for (const locale of ['en-US', 'de-DE', 'fr-FR', 'es-ES', 'ja-JP']) {
      const options = countryOptions(locale);
      expect(options.length).toBe(250);
      expect(options.filter((option) => option.name === option.code)).toEqual([]);
      const collator = new Intl.Collator(locale);
      const names = options.map((option) => option.name);
      expect(names).toEqual([...names].sort((left, right) => collator.compare(left, right)));
    }
    expect(countryOptions('de-DE').find((option) => option.code === 'GB')?.name).toBe('Vereinigtes Königreich');
  });
});
