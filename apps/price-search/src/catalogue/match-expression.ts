/**
 * @module
 * Builds FTS5 MATCH expressions from search terms. Every term is quoted, so user text can never inject FTS5
 * syntax (NEAR, column filters, `*`); a hyphenated model name becomes a phrase ("wh-1000xm5" → "wh 1000xm5").
 */

// Beyond this many terms the all-but-one expansion grows too long to be worth it.
const MAX_RELAXED_TERMS = 8;

/**
 * Returns the strict expression (all terms) and, for three or more terms, the relaxed one (all but any one).
 * @example buildMatchExpressions(['sony', 'wh-1000xm5']) // ['"sony" AND "wh 1000xm5"']
 */
export function buildMatchExpressions(terms: readonly string[]): string[] {
  const quoted = [...new Set(terms.map(quoteTerm).filter((term) => term !== ''))];
  if (quoted.length === 0) return [];
  const strict = quoted.join(' AND ');
  if (quoted.length < 3 || quoted.length > MAX_RELAXED_TERMS) return [strict];
  const allButOne = quoted.map((_, skipped) => `(${quoted.filter((_, index) => index !== skipped).join(' AND ')})`);
  return [strict, allButOne.join(' OR ')];
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
