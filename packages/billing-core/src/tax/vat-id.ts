/**
 * @module
 * Offline format check of EU VAT identification numbers (ADR 1430): the country prefix and
 * the national number's shape as the EU's VIES service publishes them. A well-formed id may
 * still be unregistered; Drawdown does not call VIES (no network in the billing path).
 */

/** National number patterns by VAT prefix (Greece uses `EL`, not `GR`). */
export const VAT_PATTERNS: Readonly<Record<string, RegExp>> = {
  AT: /^U\d{8}$/,
  BE: /^[01]\d{9}$/,
  BG: /^\d{9,10}$/,
  CY: /^\d{8}[A-Z]$/,
  CZ: /^\d{8,10}$/,
  DE: /^\d{9}$/,
  DK: /^\d{8}$/,
  EE: /^\d{9}$/,
  EL: /^\d{9}$/,
  ES: /^[A-Z0-9]\d{7}[A-Z0-9]$/,
  FI: /^\d{8}$/,
  FR: /^[A-HJ-NP-Z0-9]{2}\d{9}$/,
  HR: /^\d{11}$/,
  HU: /^\d{8}$/,
  IE: /^(\d{7}[A-W][A-I]?|\d[A-Z+*]\d{5}[A-W])$/,
  IT: /^\d{11}$/,
  LT: /^(\d{9}|\d{12})$/,
  LU: /^\d{8}$/,
  LV: /^\d{11}$/,
  MT: /^\d{8}$/,
  NL: /^\d{9}B\d{2}$/,
  PL: /^\d{10}$/,
  PT: /^\d{9}$/,
  RO: /^[1-9]\d{1,9}$/,
  SE: /^\d{10}01$/,
  SI: /^\d{8}$/,
  SK: /^\d{10}$/,
};

/** The VAT prefix of a country: `EL` for Greece, else the ISO code. */
export function vatPrefixOf(countryCode: string): string {
  return countryCode === 'GR' ? 'EL' : countryCode;
}

function countryOfPrefix(prefix: string): string {
  return prefix === 'EL' ? 'GR' : prefix;
}

/** Upper case, without the blanks, dots and dashes people write inside VAT ids. */
export function normalizeVatId(text: string): string {
  return text.toUpperCase().replace(/[\s.-]/g, '');
}

/**
 * The EU country whose VAT id format `id` (normalized) has: by its own prefix, or, without
 * one, as a national number of `assumedCountry`. Null when it is no well-formed EU VAT id.
 */
export function vatCountryOf(id: string, assumedCountry: string | null): string | null {
  const prefix = id.slice(0, 2);
  const own = VAT_PATTERNS[prefix];
  if (own) return own.test(id.slice(2)) ? countryOfPrefix(prefix) : null;
  if (assumedCountry === null) return null;
  const national = VAT_PATTERNS[vatPrefixOf(assumedCountry)];
  return national?.test(id) ? assumedCountry : null;
}

/** Whether `text` is a well-formed EU VAT id (with its country prefix). */
export function isWellFormedEuVatId(text: string): boolean {
  return vatCountryOf(normalizeVatId(text), null) !== null;
}
