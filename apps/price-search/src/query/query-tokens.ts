/**
 * @module
 * The lexer behind query understanding: lower-cased word, number and symbol tokens with their offsets,
 * so that later passes can tell "wh-1000xm5" (no spaces around the hyphen) from "£300 - £500".
 */

/** One token of a normalised query. */
export interface QueryToken {
  readonly text: string;
  readonly kind: 'word' | 'symbol';
  readonly start: number;
  readonly end: number;
}

const TENS_WORDS = 'twenty|thirty|forty|fourty|fifty|sixty|seventy|eighty|ninety';
const UNIT_WORDS = 'one|two|three|four|five|six|seven|eight|nine';

// Order matters: symbols first, then numbers with thousands separators, then ordinary words. Digits joined by
// commas only in groups of three ("1,299.99"), so "laptop,cheap" still splits.
// Words are letters and digits of any script ("pokémon", "耳机"), so text the catalogue cannot match is still
// searched (and answered with nothing) rather than refused.
const TOKEN = /£|<=|>=|[<>~+"-]|\d{1,3}(?:,\d{3})+(?:\.\d+)?[a-z]*|[\p{L}\p{N}]+(?:[.'][\p{L}\p{N}]+)*/gu;

/**
 * Normalises a raw query: lower case, typographic dashes, quotes and comparison signs folded, and the
 * hyphenated spellings of condition phrases and compound numbers split into words.
 */
export function normaliseQuery(raw: string): string {
  return raw
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2012-\u2015\u2212]/g, '-')
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/[\u201c\u201d\u2033]/g, '"')
    .replace(/\u2264/g, '<=')
    .replace(/\u2265/g, '>=')
    .replace(/\bgbp\s*(?=\d)/g, '£')
    .replace(/\b(second|pre|brand|like|ex)-(?=[a-z])/g, '$1 ')
    .replace(new RegExp(`\\b(${TENS_WORDS})-(?=(?:${UNIT_WORDS})\\b)`, 'g'), '$1 ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Splits a normalised query into tokens; punctuation other than the symbols the grammar uses is dropped. */
export function tokenise(normalised: string): QueryToken[] {
  const tokens: QueryToken[] = [];
  for (const match of normalised.matchAll(TOKEN)) {
    const text = match[0];
    const start = match.index;
    const kind = /^[\p{L}\p{N}]/u.test(text) ? 'word' : 'symbol';
    tokens.push({ text, kind, start, end: start + text.length });
  }
  return tokens;
}
