/**
 * @module
 * The one broader retry of the client rules ("when results are empty, retry once with a broader query").
 * It drops condition and sort words, model codes and numbers, and keeps the first and last remaining words
 * (usually the brand and the head noun); the budget is carried separately as max_price.
 */
import type { Pence } from '../money/pence.js';
import { parseQuery } from './parse-query.js';

/** A broader query and the ceiling that must still apply to it. */
export interface BroaderQuery {
  readonly query: string;
  readonly maxPence: Pence | undefined;
}

/**
 * Builds the broader retry, or returns undefined when the query cannot be made broader.
 * @example broadenQuery('refurbished lenovo thinkpad t480 laptop under £300')
 * // { query: 'lenovo laptop', maxPence: 30000 }
 */
export function broadenQuery(query: string): BroaderQuery | undefined {
  const parsed = parseQuery(query);
  const withoutCodes = parsed.terms.filter((term) => !/\d/.test(term));
  const kept = withoutCodes.length > 2 ? [withoutCodes[0], withoutCodes[withoutCodes.length - 1]] : withoutCodes;
  const terms = kept.filter((term): term is string => term !== undefined);
  if (terms.length === 0) return undefined;
  const narrowerPartsDropped =
    terms.length < parsed.terms.length ||
    parsed.condition !== undefined ||
    parsed.sort !== 'relevance' ||
    parsed.budget.minPence !== undefined;
  if (!narrowerPartsDropped) return undefined;
  return { query: terms.join(' '), maxPence: parsed.budget.maxPence };
}
