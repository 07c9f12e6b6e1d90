/**
 * @module
 * The ranking rule of both catalogue engines, written once (issue 33 stage 5, issue 38 item 3; ADR 0235). The
 * engines only find the candidates (the first CANDIDATE_CAP listings that pass the filters, or every match; ADR
 * 0220); this module orders them, so SQLite's SQL path, its listing facts and PostgreSQL answer every query in
 * the same order, ties included:
 *
 * - by relevance: a product's accessories after it when the query names the product; then the relevance score
 *   (`relevanceScore`, higher first); new before used and refurbished; cheaper first; then catalogue order;
 * - cheapest first: cheaper first, then catalogue order.
 *
 * Catalogue order is the order listings were first written (SQLite's rowid, PostgreSQL's id): the same feed
 * imported into either engine gives the same order.
 *
 * The relevance score is BM25's shape without its document frequencies, computed here from the listing's indexed
 * text rather than by either engine's full-text ranking (SQLite's bm25 and PostgreSQL's ts_rank weigh terms
 * differently, and disagreed on 135 of 598 answers of the labelled and dev sets): each query term counts by the
 * column it is found in (title 10, its run-together spellings 6, brand 4, category 2, and 8 more for the
 * category's last segment), saturated by how often
 * it occurs and discounted by how long that column is. Every candidate has every query word somewhere (the
 * engines' match), so frequencies across the catalogue would change little of the order.
 */
import { foldText, searchTextOf, wordsOf } from '../listing/search-text.js';
import { isOptionalWord, termAlternatives } from './match-expression.js';

/** The text of a candidate the score reads: as indexed (search title, aliases) and as fed (brand, category). */
export interface RankedText {
  readonly searchTitle: string;
  readonly aliases: string;
  readonly brand: string;
  readonly category: string;
}

/** What the order of a candidate depends on. */
export interface RankedCandidate {
  /** Catalogue order: SQLite's rowid, PostgreSQL's id. */
  readonly position: number;
  readonly pricePence: number;
  readonly isNew: boolean;
  readonly accessory: boolean;
  /** `relevanceScore` of the candidate (cheapest-first ordering does not read it). */
  readonly score: number;
}

// Column weights (as the SQLite index's bm25 weights were: title 10, aliases 6, brand 4, category 2), the
// usual BM25 constants, and each column's typical length in words (the demo catalogue's means, rounded) for the
// length discount.
// The category's last segment ("Games" of "Video Games > Games") is a column of its own: a query word that
// names it names what the product is ("switch games" are games, not consoles of "Video Games > Consoles").
const COLUMNS = [
  { key: 'searchTitle', weight: 10, typicalWords: 9 },
  { key: 'aliases', weight: 6, typicalWords: 2 },
  { key: 'brand', weight: 4, typicalWords: 1 },
  { key: 'category', weight: 2, typicalWords: 3 },
  { key: 'kind', weight: 8, typicalWords: 2 },
] as const;

/** The last segment of a category path ("Video Games > Games" → "Games"). */
export function categoryLeaf(category: string): string {
  return category.slice(category.lastIndexOf('>') + 1).trim();
}

const K1 = 1.2;
const B = 0.75;

/** A word as the score compares it: the plural and possessive endings the engines' stemmers remove, removed. */
function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(ches|shes|sses|xes)$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

function stems(text: string): string[] {
  return wordsOf(foldText(text)).map(stem);
}

/** How often `phrase` (stemmed words) occurs in `words`. */
function occurrences(words: readonly string[], phrase: readonly string[]): number {
  if (phrase.length === 0) return 0;
  let count = 0;
  for (let start = 0; start + phrase.length <= words.length; start += 1) {
    let index = 0;
    while (index < phrase.length && words[start + index] === phrase[index]) index += 1;
    if (index === phrase.length) count += 1;
  }
  return count;
}

/** The stemmed alternatives of each term (its phrase, run-together spelling and synonyms), kept per term list. */
function termPhrases(terms: readonly string[]): (readonly string[][])[] {
  return terms.map((term) =>
    kept(phrasesOfTerm, term, () => termAlternatives(term).map((alternative) => alternative.split(' ').map(stem))),
  );
}

/**
 * A candidate's columns as stemmed words (`stems` of the indexed text), read once per candidate for both the
 * score and the parent-category check. The brand's and the category's words depend on those strings alone, and
 * a catalogue has few of them, so they are kept (`wordsOfBrand`, `wordsOfCategory`); a title's are not.
 */
interface ColumnWords {
  readonly searchTitle: readonly string[];
  readonly aliases: readonly string[];
  readonly brand: readonly string[];
  readonly category: readonly string[];
  /** The category's last segment. */
  readonly kind: readonly string[];
  /** The category's segments before the last one. */
  readonly parents: readonly string[];
}

// Pure functions of one string (a brand, a category, a query term), kept across lookups: at most WORDS_KEPT
// strings each, the oldest dropped first.
const WORDS_KEPT = 10_000;
const brandWords = new Map<string, readonly string[]>();
const categoryWords = new Map<string, Pick<ColumnWords, 'category' | 'kind' | 'parents'>>();
const phrasesOfTerm = new Map<string, string[][]>();

function kept<V>(memo: Map<string, V>, key: string, make: (key: string) => V): V {
  let value = memo.get(key);
  if (value === undefined) {
    value = make(key);
    memo.set(key, value);
    if (memo.size > WORDS_KEPT) memo.delete(memo.keys().next().value as string);
  }
  return value;
}

function wordsOfBrand(brand: string): readonly string[] {
  return kept(brandWords, brand, (text) => stems(searchTextOf(text)));
}

function wordsOfCategory(category: string): Pick<ColumnWords, 'category' | 'kind' | 'parents'> {
  return kept(categoryWords, category, (text) => {
    const indexed = searchTextOf(text);
    const leaf = searchTextOf(categoryLeaf(text));
    return {
      category: stems(indexed),
      kind: stems(leaf),
      parents: stems(indexed.slice(0, Math.max(0, indexed.length - leaf.length))),
    };
  });
}

function columnWords(text: RankedText): ColumnWords {
  return {
    searchTitle: stems(text.searchTitle),
    aliases: stems(text.aliases),
    brand: wordsOfBrand(text.brand),
    ...wordsOfCategory(text.category),
  };
}

/** The relevance score of one candidate's words for the stemmed alternatives of each term (`termPhrases`). */
function scoreOf(phrases: readonly (readonly string[][])[], columns: ColumnWords): number {
  let score = 0;
  for (const alternatives of phrases) {
    for (const { key, weight, typicalWords } of COLUMNS) {
      const words = columns[key];
      let frequency = 0;
      for (const phrase of alternatives) frequency = Math.max(frequency, occurrences(words, phrase));
      if (frequency === 0) continue;
      const lengthNorm = 1 - B + (B * words.length) / typicalWords;
      score += (weight * (frequency * (K1 + 1))) / (frequency + K1 * lengthNorm);
    }
  }
  return score;
}

/**
 * The relevance score of every candidate for `terms` (the match plan's terms), higher is better. Pure: the same
 * text and terms give the same score on either engine.
 */
export function relevanceScores(terms: readonly string[], texts: readonly RankedText[]): number[] {
  const phrases = termPhrases(terms);
  return texts.map((text) => scoreOf(phrases, columnWords(text)));
}

/** The relevance order: accessories after products when `demoteAccessories`, score, new first, price, position. */
export function byRelevance(demoteAccessories: boolean): (a: RankedCandidate, b: RankedCandidate) => number {
  return (a, b) =>
    (demoteAccessories ? Number(a.accessory) - Number(b.accessory) : 0) ||
    b.score - a.score ||
    Number(b.isNew) - Number(a.isNew) ||
    a.pricePence - b.pricePence ||
    a.position - b.position;
}

/** The cheapest-first order: price, then catalogue order. */
export function byPrice(a: Pick<RankedCandidate, 'pricePence' | 'position'>, b: typeof a): number {
  return a.pricePence - b.pricePence || a.position - b.position;
}

/** The cheapest-first order in SQL, over a listings alias and its catalogue-order column. */
export function byPriceSql(alias: string, positionColumn: 'rowid' | 'id'): string {
  return `${alias}.price_pence, ${alias}.${positionColumn}`;
}

/**
 * True when some term is found in the candidate's text only in a parent segment of its category ("games" in
 * "Video Games > Consoles"): the word names a kind of product the candidate is not ("ps5 games" are not
 * consoles; issue 38); a usage word (`isOptionalWord`: "garden") is not such a word. A term the score cannot find anywhere (the engines' stemmers reach further) is not held
 * against it.
 */
export function matchesOnlyByParentCategory(terms: readonly string[], text: RankedText): boolean {
  return onlyByParentCategory(essentialPhrases(terms), columnWords(text));
}

// A usage word ("garden", "kitchen", "office") says where a product is used, not what kind it is: a pizza oven
// for the garden is found under "Garden > Outdoor Cooking" and stays (ADR 0239).
function essentialPhrases(terms: readonly string[]): (readonly string[][])[] {
  return termPhrases(terms.filter((term) => !isOptionalWord(term)));
}

function onlyByParentCategory(essential: readonly (readonly string[][])[], columns: ColumnWords): boolean {
  const { parents } = columns;
  if (parents.length === 0) return false;
  const own = [columns.searchTitle, columns.aliases, columns.brand, columns.kind];
  return essential.some(
    (alternatives) =>
      alternatives.some((phrase) => occurrences(parents, phrase) > 0) &&
      !alternatives.some((phrase) => own.some((words) => occurrences(words, phrase) > 0)),
  );
}

/**
 * Orders candidates by relevance: scores their text for `terms`, then sorts with `byRelevance`. A candidate that
 * matches a term only by a parent segment of its category is left out (`matchesOnlyByParentCategory`). The
 * candidates keep their own shape; `facts` reads what the order needs from each.
 */
export function rankByRelevance<T>(
  candidates: readonly T[],
  terms: readonly string[],
  demoteAccessories: boolean,
  facts: (candidate: T) => RankedText & Omit<RankedCandidate, 'score'>,
): T[] {
  const phrases = termPhrases(terms);
  const essential = essentialPhrases(terms);
  const ranked: Array<RankedCandidate & { index: number }> = [];
  candidates.forEach((candidate, index) => {
    const read = facts(candidate);
    const columns = columnWords(read);
    if (onlyByParentCategory(essential, columns)) return;
    ranked.push({
      position: read.position,
      pricePence: read.pricePence,
      isNew: read.isNew,
      accessory: read.accessory,
      score: scoreOf(phrases, columns),
      index,
    });
  });
  return ranked.sort(byRelevance(demoteAccessories)).map(({ index }) => candidates[index] as T);
}
