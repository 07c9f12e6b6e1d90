/**
 * @module
 * Query understanding: from "cheapest used thinkpad t480 under £300" to search terms ["thinkpad", "t480"],
 * a ceiling of 30000 pence, condition "used" and a price-ascending sort. Pure: no I/O, no clock.
 */
import type { Condition } from '../listing/listing.js';
import type { NetworkId } from '../listing/networks.js';
import type { Pence } from '../money/pence.js';
import { type Budget, extractBudget } from './extract-budget.js';
import { normaliseQuery, type QueryToken, tokenise } from './query-tokens.js';

/** How results should be ordered: by relevance, or cheapest first when the user asks for it. */
export type SortIntent = 'relevance' | 'price_asc';

/** What a natural-language query asks for. */
export interface ParsedQuery {
  /** Search terms, lower case, without budget, condition, sort and filler words. */
  readonly terms: readonly string[];
  /** The terms joined by spaces: what is sent to a marketplace's keyword search. */
  readonly text: string;
  readonly budget: Budget;
  /** Undefined when the query names no condition, or names several ("new or used"). */
  readonly condition: Condition | undefined;
  readonly sort: SortIntent;
  /** Retailers named in the text ("at currys", "argos air fryer"); undefined when none is named. */
  readonly networks: readonly NetworkId[] | undefined;
}

type Phrase = readonly string[];
const phrases = (...list: string[]): readonly Phrase[] =>
  list.map((phrase) => phrase.split(' ')).sort((a, b) => b.length - a.length);

// Checked in this order, so "certified pre owned" is refurbished before "pre owned" is used, and "like new"
// (eBay's 2750, a used grade) is used before "new" is new.
const CONDITION_PHRASES: ReadonlyArray<readonly [Condition, readonly Phrase[]]> = [
  [
    'refurbished',
    phrases(
      'refurbished',
      'refurb',
      'refurbed',
      'refurbs',
      'renewed',
      'reconditioned',
      'remanufactured',
      'certified pre owned',
      'certified preowned',
    ),
  ],
  [
    'used',
    phrases(
      'used',
      'second hand',
      'secondhand',
      'pre owned',
      'preowned',
      'pre loved',
      'preloved',
      'like new',
      'ex display',
    ),
  ],
  ['new', phrases('brand new', 'new', 'sealed', 'unopened', 'bnib', 'bnwt', 'factory sealed', 'boxed new')],
];

// "new" is part of these names, not a condition: "new balance trainers", "new look dress".
const NEW_IN_NAMES = new Set(['balance', 'look', 'era', 'york', 'yorker', 'zealand', 'forest', 'world', 'rock']);

// How shoppers name the marketplaces. A name counts as a retailer after "at", "on", "from"... or at either end
// of the query; "amazon" before one of Amazon's own products ("amazon echo dot") is the brand.
const RETAILER_PHRASES: ReadonlyArray<readonly [NetworkId, readonly Phrase[]]> = [
  ['amazon_uk', phrases('amazon', 'amazon uk', 'amazon.co.uk', 'amzn')],
  ['argos_uk', phrases('argos', 'argos uk', 'argos.co.uk')],
  ['currys_uk', phrases('currys', "curry's", 'currys pc world', 'pc world', 'currys.co.uk')],
  ['ebay_uk', phrases('ebay', 'ebay uk', 'ebay.co.uk')],
];
const RETAILER_PREPOSITIONS = new Set(['at', 'on', 'from', 'in', 'via', 'through', 'using', 'or', 'and']);
const AMAZON_PRODUCTS = new Set(['echo', 'kindle', 'fire', 'alexa', 'basics', 'eero', 'luna']);

const CHEAPEST_PHRASES = phrases(
  'cheapest',
  'cheap',
  'cheaper',
  'cheapo',
  'lowest price',
  'lowest prices',
  'lowest priced',
  'lowest cost',
  'least expensive',
  'inexpensive',
  'low cost',
  'low price',
  'budget',
  'bargain',
  'bargains',
  'best price',
  'best prices',
  'best deal',
  'best deals',
  'affordable',
  'price low to high',
  'sorted by price',
  'sort by price',
);

// Words that carry no product meaning in a shopping query. "one", "under", "max" and "look" are not here:
// they are parts of names ("xbox one", "under armour", "pro max", "new look").
const FILLER = new Set(
  `a an the for with without and or in on of to at by from into me my i im i'm i'd id we us our want wanted
  need needs needed looking find finding found show showing get getting buy buying purchase search searching some
  any please pls what whats what's which who is are was be where can could would should will do does did you your
  uk online shop shops shopping store stores price prices priced pricing deal deals sale sales stock available
  availability good best top great decent nice newest latest it its that this those these there here than less
  more pounds pound quid gbp £ something thing things item items product products listing listings cost costs
  costing spend spending hi hello hey help recommend recommendation suggest suggestions compare comparison
  around about roughly approx approximately ideally preferably really very just also now today currently right
  delivery delivered shipping free fast quick uk's britain british england`.split(/\s+/),
);

/**
 * Reads a natural-language product query.
 * @example parseQuery('cheapest used thinkpad t480 under £300')
 * // { terms: ['thinkpad', 't480'], text: 'thinkpad t480', budget: { minPence: undefined, maxPence: 30000 },
 * //   condition: 'used', sort: 'price_asc' }
 */
export function parseQuery(raw: string): ParsedQuery {
  const tokens = tokenise(normaliseQuery(raw));
  const { budget, consumed } = extractBudget(tokens);
  const used = [...consumed];

  const conditions = new Set<Condition>();
  for (const [condition, list] of CONDITION_PHRASES) {
    consumePhrases(tokens, used, list, (start, end) => {
      if (condition === 'new' && end - start === 1 && NEW_IN_NAMES.has(nextUnused(tokens, used, end) ?? '')) {
        return false;
      }
      conditions.add(condition);
      return true;
    });
  }

  let sort: SortIntent = 'relevance';
  consumePhrases(tokens, used, CHEAPEST_PHRASES, () => {
    sort = 'price_asc';
    return true;
  });

  const networks = new Set<NetworkId>();
  for (const [network, list] of RETAILER_PHRASES) {
    consumePhrases(tokens, used, list, (start, end) => {
      const before = previousUnused(tokens, used, start);
      const after = nextUnused(tokens, used, end);
      if (network === 'amazon_uk' && AMAZON_PRODUCTS.has(after ?? '')) return false;
      const prepositioned = before !== undefined && RETAILER_PREPOSITIONS.has(tokens[before]?.text ?? '');
      if (!prepositioned && before !== undefined && after !== undefined) return false;
      if (prepositioned && before !== undefined) used[before] = true;
      networks.add(network);
      return true;
    });
  }

  const terms = buildTerms(tokens, used);
  const [onlyCondition] = conditions;
  return {
    terms,
    text: terms.join(' '),
    budget,
    condition: conditions.size === 1 ? onlyCondition : undefined,
    sort,
    networks: networks.size === 0 ? undefined : [...networks],
  };
}

/**
 * Applies the request's `min_price` and `max_price`: each wins over the same bound found in the text; a bound
 * from the text is kept only while the window stays non-empty.
 */
export function withPriceRange(
  parsed: ParsedQuery,
  minPence: Pence | undefined,
  maxPence: Pence | undefined,
): ParsedQuery {
  const capped = withMaxPrice(parsed, maxPence);
  if (minPence === undefined) return capped;
  const ceiling = capped.budget.maxPence;
  return {
    ...capped,
    budget: { minPence, maxPence: ceiling !== undefined && ceiling >= minPence ? ceiling : undefined },
  };
}

/**
 * Applies the request's `max_price`, which wins over a ceiling found in the text. A floor from the text is kept
 * only while it stays below the new ceiling.
 */
export function withMaxPrice(parsed: ParsedQuery, maxPence: Pence | undefined): ParsedQuery {
  if (maxPence === undefined) return parsed;
  const { minPence } = parsed.budget;
  return {
    ...parsed,
    budget: { maxPence, minPence: minPence !== undefined && minPence <= maxPence ? minPence : undefined },
  };
}

function consumePhrases(
  tokens: readonly QueryToken[],
  used: boolean[],
  list: readonly Phrase[],
  accept: (start: number, end: number) => boolean,
): void {
  for (let index = 0; index < tokens.length; index += 1) {
    if (used[index]) continue;
    for (const phrase of list) {
      const end = matchPhrase(tokens, used, index, phrase);
      if (end === undefined || !accept(index, end)) continue;
      for (let position = index; position < end; position += 1) used[position] = true;
      break;
    }
  }
}

function matchPhrase(
  tokens: readonly QueryToken[],
  used: readonly boolean[],
  start: number,
  phrase: Phrase,
): number | undefined {
  let position = start;
  for (const word of phrase) {
    if (used[position] || tokens[position]?.text !== word) return undefined;
    position += 1;
  }
  return position;
}

function previousUnused(tokens: readonly QueryToken[], used: readonly boolean[], before: number): number | undefined {
  for (let index = before - 1; index >= 0; index -= 1) if (!used[index] && tokens[index]?.kind === 'word') return index;
  return undefined;
}

function nextUnused(tokens: readonly QueryToken[], used: readonly boolean[], from: number): string | undefined {
  for (let index = from; index < tokens.length; index += 1) if (!used[index]) return tokens[index]?.text;
  return undefined;
}

// Keeps the words that are left, re-joining hyphenated names ("wh-1000xm5", "on-ear") that the lexer split; a
// filler word inside such a name is kept.
function buildTerms(tokens: readonly QueryToken[], used: readonly boolean[]): string[] {
  const terms: string[] = [];
  let lastEnd = -1;
  let glue = false;
  tokens.forEach((token, index) => {
    if (used[index]) {
      glue = false;
      return;
    }
    if (token.kind === 'symbol') {
      const next = tokens[index + 1];
      glue = token.text === '-' && token.start === lastEnd && next !== undefined && next.start === token.end;
      return;
    }
    const next = tokens[index + 1];
    const startsCompound =
      next?.text === '-' && next.start === token.end && tokens[index + 2]?.start === next.end && !used[index + 2];
    if (glue && terms.length > 0) {
      terms[terms.length - 1] = `${terms[terms.length - 1]}-${token.text}`;
    } else if (startsCompound || !FILLER.has(token.text)) {
      terms.push(token.text);
    } else {
      lastEnd = -1;
      glue = false;
      return;
    }
    lastEnd = token.end;
    glue = false;
  });
  return [...new Set(terms)];
}
