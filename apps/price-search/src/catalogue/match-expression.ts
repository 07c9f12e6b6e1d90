/**
 * @module
 * Builds FTS5 MATCH expressions from search terms. Every term is quoted, so user text can never inject FTS5
 * syntax (NEAR, column filters, `*`); a hyphenated model name becomes a phrase ("wh-1000xm5" → "wh 1000xm5").
 */

// Shoppers' words for what titles spell differently. Both directions matter: "ps5" must find "PlayStation 5"
// titles and "hoover" the vacuum cleaners (British usage).
const SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  ps5: ['playstation 5'],
  ps4: ['playstation 4'],
  playstation5: ['playstation 5'],
  xsx: ['xbox series x'],
  tv: ['television'],
  telly: ['tv', 'television'],
  television: ['tv'],
  hoover: ['vacuum'],
  laptop: ['notebook', 'macbook', 'chromebook'],
  notebook: ['laptop'],
  earphones: ['earbuds'],
  earbuds: ['earphones'],
  cellphone: ['phone'],
  mobile: ['phone'],
  fridge: ['refrigerator'],
  'e-reader': ['kindle', 'kobo'],
  ereader: ['kindle', 'kobo'],
};

// Beyond this many terms the all-but-one expansion grows too long to be worth it.
const MAX_RELAXED_TERMS = 8;

/**
 * Returns the strict expression (all terms) and, for three or more terms, the relaxed one (all but any one).
 * @example buildMatchExpressions(['sony', 'wh-1000xm5']) // ['"sony" AND "wh 1000xm5"']
 */
export function buildMatchExpressions(terms: readonly string[]): string[] {
  const quoted = [...new Set(terms.map(termExpression).filter((term) => term !== ''))];
  if (quoted.length === 0) return [];
  const strict = quoted.join(' AND ');
  if (quoted.length < 3 || quoted.length > MAX_RELAXED_TERMS) return [strict];
  const allButOne = quoted.map((_, skipped) => `(${quoted.filter((_, index) => index !== skipped).join(' AND ')})`);
  return [strict, allButOne.join(' OR ')];
}

function termExpression(term: string): string {
  const quoted = quoteTerm(term);
  const alternatives = (SYNONYMS[term] ?? []).map(quoteTerm);
  return alternatives.length === 0 || quoted === '' ? quoted : `(${[quoted, ...alternatives].join(' OR ')})`;
}

function quoteTerm(term: string): string {
  const words = term
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
  return words.length === 0 ? '' : `"${words.join(' ')}"`;
}
