/**
 * @module
 * Builds FTS5 MATCH expressions from search terms. Every term becomes a quoted phrase in the index's own
 * spelling (see `search-text.ts`), so user text can never inject FTS5 syntax (NEAR, column filters, `*`); a
 * run-together spelling and shoppers' synonyms are alternatives of the same term.
 */
import { foldText, joinedOf, phraseOf, wordsOf } from '../listing/search-text.js';

// Shoppers' words for what titles spell differently. Both directions matter: "ps5" must find "PlayStation 5"
// titles and "hoover" the vacuum cleaners (British usage).
const SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  ps5: ['playstation 5'],
  ps4: ['playstation 4'],
  playstation5: ['playstation 5'],
  xsx: ['xbox series x'],
  tv: ['television'],
  telly: ['tv', 'television'],
  tellies: ['tv', 'television'],
  television: ['tv'],
  hoover: ['vacuum'],
  hoovers: ['vacuum'],
  laptop: ['notebook', 'macbook', 'chromebook'],
  notebook: ['laptop'],
  earphones: ['earbuds', 'airpods', 'buds'],
  earbuds: ['earphones', 'airpods', 'buds'],
  bbq: ['barbecue'],
  barbeque: ['barbecue'],
  smartwatch: ['watch'],
  watch: ['smartwatch'],
  ebike: ['e bike', 'electric bike'],
  'e-bike': ['e bike', 'electric bike'],
  'electric bike': ['e bike', 'ebike'],
  'electric mountain': ['e mountain'],
  cellphone: ['phone'],
  mobile: ['phone'],
  fridge: ['refrigerator'],
  'e-reader': ['kindle', 'kobo'],
  ereader: ['kindle', 'kobo'],
  aircon: ['air conditioner'],
  'record player': ['turntable'],
  'games console': ['console'],
  'air con': ['air conditioner'],
  'ps5 controller': ['dualsense'],
  exercise: ['fitness'],
  'playstation controller': ['dualsense'],
  'playstation 5 controller': ['dualsense'],
  cafe: ['coffee'],
  // Category words as shoppers say them, and the products intents name (parse-query.ts), as titles say them.
  'coffee machine': ['espresso machine'],
  'coffee machines': ['espresso machine'],
  'coffee maker': ['coffee machine', 'espresso machine'],
  'coffee makers': ['coffee machine', 'espresso machine'],
  'cordless drill': ['combi drill'],
  'cordless drills': ['combi drill'],
  'smart speaker': ['echo', 'nest mini', 'nest hub'],
  'smart speakers': ['smart speaker', 'echo', 'nest mini', 'nest hub'],
  'streaming stick': ['fire tv stick', 'chromecast'],
  'pressure cooker': ['multi cooker'],
  'hair styler': ['airwrap', 'flexstyle'],
  'hair stylers': ['airwrap', 'flexstyle'],
  'home gym': ['dumbbells', 'exercise bike', 'peloton bike'],
  'sparkling water': ['sodastream'],
  shaver: ['oneblade'],
};

/**
 * Words that say how or where a product is used rather than what it is: "wireless earbuds", "a kettle for the
 * kitchen". Listings are matched on them first; only when nothing at all has every word do they become
 * optional, so earbuds that do not say "wireless" in the title still answer, and a kitchen kettle is a kettle.
 * Brands, product nouns and model codes are never here: dropping one would offer another product.
 */
const OPTIONAL_WORDS: ReadonlySet<string> = new Set([
  'wireless',
  'bluetooth',
  'cordless',
  'portable',
  'rechargeable',
  'kitchen',
  'bathroom',
  'bedroom',
  'room',
  'rooms',
  'spare',
  'lounge',
  'conservatory',
  'garage',
  'shed',
  'loft',
  'flat',
  'house',
  'dorm',
  'living',
  'garden',
  'office',
  'home',
  'travel',
  'travelling',
  'gym',
  'car',
  'kids',
  'children',
  'outdoor',
  'indoor',
  'camping',
  'school',
  'work',
  'university',
  'uni',
  'college',
  'student',
  'students',
  'studying',
  'study',
  'homework',
  'business',
]);

/** Two-word synonym keys, merged into one term before matching ("record player"). */
const PHRASE_KEYS = new Set(Object.keys(SYNONYMS).filter((key) => key.includes(' ')));

/** A word's singular as plurals are commonly written ("consoles", "batteries", "watches"). */
function singular(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(ches|shes|sses|xes)$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/**
 * The synonym key a term (or two-word phrase) is written for: itself, or with its last word in the singular
 * ("games consoles" is "games console"; issue 38), undefined when there is none.
 */
function synonymKey(phrase: string): string | undefined {
  if (SYNONYMS[phrase] !== undefined) return phrase;
  const words = phrase.split(' ');
  const last = words[words.length - 1] ?? '';
  const key = [...words.slice(0, -1), singular(last)].join(' ');
  return SYNONYMS[key] === undefined ? undefined : key;
}

// Beyond this many terms the all-but-one expansion grows too long to be worth it.
const MAX_RELAXED_TERMS = 8;

/** The terms with two-word synonym phrases merged into single terms. */
export function mergeSynonymPhrases(terms: readonly string[]): string[] {
  const merged: string[] = [];
  for (let index = 0; index < terms.length; index += 1) {
    const pair = `${terms[index]} ${terms[index + 1] ?? ''}`;
    const key = index + 1 < terms.length ? synonymKey(pair) : undefined;
    if (key !== undefined && PHRASE_KEYS.has(key)) {
      merged.push(pair);
      index += 1;
    } else {
      merged.push(terms[index] ?? '');
    }
  }
  return merged;
}

/** True for a term that names a model, size or capacity: it is never dropped or corrected. */
export function isModelTerm(term: string): boolean {
  return /\p{N}/u.test(term);
}

/**
 * Returns the strict expression (all terms) and, when nothing matches it, the relaxed one: for three or more
 * terms, all but any one term the catalogue does not know (`isUnknown`), so a stray word ("gift", "黑色") does
 * not empty the result; and, when the query has usage words (`OPTIONAL_WORDS`) beside a product word, every
 * term but those. A known product word, a brand or a model code is never dropped: "iphone 14 pro" must not
 * become "14 pro" and find a MacBook Pro 14-inch.
 * @example buildMatchExpressions(['sony', 'wh-1000xm5']) // ['"sony" AND ("wh 1000xm 5" OR "wh1000xm5")']
 * @example buildMatchExpressions(['wireless', 'earbuds'])[1] // '(("earbuds" OR "earphones" OR …))'
 */
export function buildMatchExpressions(
  terms: readonly string[],
  isUnknown: (term: string) => boolean = () => true,
): string[] {
  const entries = [...new Map(terms.map((term) => [termExpression(term), term] as const)).entries()].filter(
    ([expression]) => expression !== '',
  );
  if (entries.length === 0) return [];
  const conjunction = (kept: readonly (readonly [string, string])[]) =>
    `(${kept.map(([expression]) => expression).join(' AND ')})`;
  const strict = entries.map(([expression]) => expression).join(' AND ');
  const alternatives: string[] = [];
  const droppable = entries
    .map(([, term], index) => (isModelTerm(term) || !isUnknown(term) ? -1 : index))
    .filter((index) => index >= 0);
  if (entries.length >= 3 && entries.length <= MAX_RELAXED_TERMS) {
    for (const skipped of droppable) alternatives.push(conjunction(entries.filter((_, index) => index !== skipped)));
  }
  const essential = entries.filter(([, term]) => !isOptionalWord(term));
  if (essential.length > 0 && essential.length < entries.length) alternatives.push(conjunction(essential));
  const relaxed = [...new Set(alternatives)];
  return relaxed.length === 0 ? [strict] : [strict, relaxed.join(' OR ')];
}

/** True for a usage word that may be dropped when nothing has every word of the query (`OPTIONAL_WORDS`). */
export function isOptionalWord(term: string): boolean {
  return OPTIONAL_WORDS.has(wordsOf(foldText(term)).join(' '));
}

// Expressions of recent terms (the function is pure and each lookup asks it several times per term).
const expressions = new Map<string, string>();
const EXPRESSIONS_KEPT = 5_000;

/** The expression of one term: its phrase, its run-together spelling and its synonyms, as alternatives. */
export function termExpression(term: string): string {
  let expression = expressions.get(term);
  if (expression === undefined) {
    expression = buildTermExpression(term);
    expressions.set(term, expression);
    if (expressions.size > EXPRESSIONS_KEPT) expressions.delete(expressions.keys().next().value ?? '');
  }
  return expression;
}

function buildTermExpression(term: string): string {
  const alternatives = termAlternatives(term).map((alternative) => `"${alternative}"`);
  if (alternatives.length === 0) return '';
  return alternatives.length === 1 ? (alternatives[0] as string) : `(${alternatives.join(' OR ')})`;
}

/**
 * The index spellings that match a term, as space-separated words: its phrase, its run-together spelling and its
 * synonyms' phrases (empty when the term has no letters or digits). The match expression and the ranking rule
 * (ranking-rule.ts) both read them.
 */
export function termAlternatives(term: string): string[] {
  const key = wordsOf(foldText(term)).join(' ');
  const phrase = phraseOf(term);
  if (phrase === undefined) return [];
  const joined = joinedOf(term);
  return [
    phrase,
    ...(joined === undefined ? [] : [`"${joined}"`]),
    ...(SYNONYMS[synonymKey(key) ?? ''] ?? SYNONYMS[term] ?? []).map((synonym) => phraseOf(synonym) ?? ''),
  ]
    .filter((alternative, index, all) => alternative !== '' && all.indexOf(alternative) === index)
    .map((alternative) => alternative.slice(1, -1));
}
