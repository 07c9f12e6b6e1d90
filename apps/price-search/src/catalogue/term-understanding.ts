/**
 * @module
 * How a catalogue reads a query's terms, the same on every catalogue engine: synonym phrases merged, unknown
 * words joined, split or corrected against the catalogue's vocabulary, and the strict and relaxed match
 * expressions built (see match-expression.ts). The engine supplies two things: whether an FTS5-syntax
 * expression matches any listing, and the vocabulary.
 */
import { foldText, wordsOf } from '../listing/search-text.js';
import { buildMatchExpressions, isModelTerm, mergeSynonymPhrases, termExpression } from './match-expression.js';
import type { Vocabulary } from './vocabulary.js';

/**
 * Which catalogue words a step needs: `exact` words looked up as they are, and the words `near` a misspelt one
 * (up to two edits away, or beginning with it and at most three letters longer).
 */
export interface VocabularyRequest {
  readonly exact: readonly string[];
  readonly near: readonly string[];
}

/** What the understanding needs from a catalogue engine. */
export interface TermIndex {
  /** True when at least one listing matches the expression (FTS5 syntax: quoted phrases, AND, OR, brackets). */
  matches(expression: string): boolean | Promise<boolean>;
  /**
   * Catalogue words with their listing counts: at least the `exact` words that exist and the words near each
   * `near` word (up to two edits, or completions of it by up to three letters). An engine may return its whole
   * vocabulary.
   */
  vocabulary(request: VocabularyRequest): Vocabulary | Promise<Vocabulary>;
}

/** Every prefix and suffix of at least three letters: the pieces `Vocabulary.split` looks up. */
function splitPieces(word: string): string[] {
  const pieces: string[] = [];
  for (let index = 3; index <= word.length - 3; index += 1) pieces.push(word.slice(0, index), word.slice(index));
  return pieces;
}

/** The match plan of a query. */
export interface MatchPlan {
  readonly terms: readonly string[];
  readonly strict: string | undefined;
  /**
   * When no listing at all has every term: the plan with two words that make one catalogue word joined ("smart
   * watch"), or undefined when that changes nothing. Asked only when `strict` found nothing: a lookup that found
   * listings knows its terms match together, so most lookups skip that probe (ADR 0230).
   */
  joined(): Promise<MatchPlan | undefined>;
  /**
   * The expression tried only when no listing at all matches `strict`, undefined when there is none. Built when
   * asked: it needs to know which words the catalogue lacks, one probe per word, and most lookups never ask.
   */
  relaxed(): Promise<string | undefined>;
}

/**
 * The terms as the catalogue will match them: synonym phrases merged, and each word the index does not know
 * joined with the next ("quiet comfort"), split ("airfryer") or corrected ("iphnoe"), when that gives a word it
 * knows, or completed ("microsd" → "microsdxc"). A short word (3 or 4 letters) is corrected only to a word found together with the query's other words
 * ("airpods por"), since short words have many neighbours ("sofa", "soda"). Model codes are kept as they are.
 * (When every word is known but they match nothing together, `MatchPlan.joined` joins two words that make one
 * catalogue word: "smart watch".)
 */
export async function understandTerms(raw: readonly string[], index: TermIndex): Promise<string[]> {
  const terms = mergeSynonymPhrases(raw);
  const understood: string[] = [];
  for (let position = 0; position < terms.length; position += 1) {
    const term = terms[position] ?? '';
    const expression = termExpression(term);
    if (expression === '' || isModelTerm(term) || (await index.matches(expression))) {
      understood.push(term);
      continue;
    }
    const word = wordsOf(foldText(term)).join('');
    const next = terms[position + 1];
    const joined = next === undefined ? '' : `${word}${wordsOf(foldText(next)).join('')}`;
    const previous = understood[understood.length - 1];
    const withPrevious =
      previous !== undefined && previous === terms[position - 1] && !isModelTerm(previous)
        ? `${wordsOf(foldText(previous)).join('')}${word}`
        : undefined;
    const vocabulary = await index.vocabulary({
      exact: [joined, ...splitPieces(word)],
      near: withPrevious === undefined ? [word] : [word, withPrevious],
    });
    if (next !== undefined && !isModelTerm(next) && vocabulary.has(joined)) {
      understood.push(joined);
      position += 1;
      continue;
    }
    const parts = vocabulary.split(word);
    if (parts !== undefined) {
      understood.push(parts.join(' '));
      continue;
    }
    // A misspelt half of a name written in two words ("quiet confort"): the two joined, corrected, when that is a
    // catalogue word ("quietcomfort"; ADR 0239).
    const joinedCorrection =
      withPrevious !== undefined && withPrevious.length >= 8 ? vocabulary.correct(withPrevious) : undefined;
    if (joinedCorrection !== undefined) {
      understood[understood.length - 1] = joinedCorrection;
      continue;
    }
    let corrected = vocabulary.correct(word) ?? vocabulary.complete(word);
    const others = terms
      .filter((_, other) => other !== position)
      .map(termExpression)
      .filter((other) => other !== '');
    if (corrected === undefined && others.length > 0) {
      for (const candidate of vocabulary.nearShortWords(word)) {
        if (await index.matches([termExpression(candidate), ...others].join(' AND '))) {
          corrected = candidate;
          break;
        }
      }
    }
    understood.push(corrected ?? term);
  }
  return understood;
}

// A piece of a model code as shoppers space it: "wh 1000 xm4", "galaxy a 55", "dcd 796".
const CODE_PIECE = /^[\p{L}\p{N}]{1,5}$/u;
const MAX_CODE_PIECES = 4;

/** The runs of two to four neighbouring code pieces, with a digit among them, joined ("wh1000xm4"). */
function codeRuns(terms: readonly string[]): string[] {
  const runs: string[] = [];
  for (let start = 0; start < terms.length; start += 1) {
    for (let end = start + 2; end <= Math.min(terms.length, start + MAX_CODE_PIECES); end += 1) {
      const run = terms.slice(start, end);
      if (!run.every((term) => CODE_PIECE.test(term))) break;
      if (run.some(isModelTerm)) runs.push(run.join(''));
    }
  }
  return runs;
}

/**
 * When no listing has every term: the terms again, with each two neighbours that make one catalogue word joined
 * ("smart watch" → "smartwatch"), a model code written in pieces joined ("wh 1000 xm4" → "wh1000xm4", as the
 * catalogue also indexes "WH-1000XM4"), and a code the catalogue has only with a suffix completed ("af400" →
 * "af400uk"); undefined when the terms match together or nothing joins.
 */
async function joinedWhenApart(terms: readonly string[], index: TermIndex): Promise<string[] | undefined> {
  if (await index.matches(terms.map(termExpression).join(' AND '))) return undefined;
  const pairs = terms.slice(1).map((next, position) => `${terms[position]}${next}`);
  const runs = codeRuns(terms);
  const codes = [...runs, ...terms.filter(isModelTerm).map((term) => wordsOf(foldText(term)).join(''))];
  const vocabulary = await index.vocabulary({
    exact: [...pairs, ...codes],
    near: codes.filter((code) => code.length >= 5),
  });
  const withCodes: string[] = [];
  for (let position = 0; position < terms.length; position += 1) {
    let joinedCode: { code: string; pieces: number } | undefined;
    for (let end = Math.min(terms.length, position + MAX_CODE_PIECES); end >= position + 2 && !joinedCode; end -= 1) {
      const run = terms.slice(position, end);
      if (!run.every((term) => CODE_PIECE.test(term)) || !run.some(isModelTerm)) continue;
      const code = run.join('');
      const known = vocabulary.has(code) ? code : vocabulary.completeCode(code);
      if (known !== undefined) joinedCode = { code: known, pieces: run.length };
    }
    if (joinedCode !== undefined) {
      withCodes.push(joinedCode.code);
      position += joinedCode.pieces - 1;
      continue;
    }
    const term = terms[position] ?? '';
    const code = wordsOf(foldText(term)).join('');
    const completed =
      isModelTerm(term) && !(await index.matches(termExpression(term)))
        ? (vocabulary.completeCode(code) ?? vocabulary.codeEnding(code))
        : undefined;
    withCodes.push(completed ?? term);
  }
  const joined = joinPairs(withCodes, vocabulary);
  return joined.length === terms.length && joined.every((term, position) => term === terms[position])
    ? undefined
    : joined;
}

function joinPairs(terms: readonly string[], vocabulary: Vocabulary): string[] {
  const joined: string[] = [];
  for (let position = 0; position < terms.length; position += 1) {
    const term = terms[position] ?? '';
    const next = terms[position + 1];
    const pair = next === undefined ? '' : `${term}${next}`;
    if (next !== undefined && /^\p{L}+$/u.test(pair) && vocabulary.has(pair)) {
      joined.push(pair);
      position += 1;
    } else {
      joined.push(term);
    }
  }
  return joined;
}

/**
 * Understands the terms and builds the strict and relaxed expressions. A word the catalogue does not know may be
 * dropped by the relaxed expression only when it has no Latin letter or digit ("黑色"): any other could be the
 * product line or model asked for ("lego technic bugatti" must not find the Lamborghini; issue 38).
 */
export async function planMatch(raw: readonly string[], catalogueIndex: TermIndex): Promise<MatchPlan> {
  const index = rememberingMatches(catalogueIndex);
  return planOf(await understandTerms(raw, index), index, true);
}

function planOf(terms: readonly string[], index: TermIndex, mayJoin: boolean): MatchPlan {
  // The strict expression does not depend on which words are unknown; only the relaxed one does.
  const [strict] = buildMatchExpressions(terms);
  return {
    terms,
    strict,
    async joined() {
      if (!mayJoin || strict === undefined) return undefined;
      const joined = await joinedWhenApart(terms, index);
      return joined === undefined ? undefined : planOf(joined, index, false);
    },
    async relaxed() {
      const unknown = new Set<string>();
      for (const term of terms) {
        const expression = termExpression(term);
        if (expression !== '' && !(await index.matches(expression))) unknown.add(term);
      }
      // A word the catalogue lacks that could be a name ("bugatti" of "lego technic bugatti") is never dropped:
      // the answer would be another model (issue 38). Only words with no Latin letter or digit ("黑色") go.
      const droppable = (term: string): boolean => unknown.has(term) && !/[\p{Script=Latin}\p{N}]/u.test(term);
      return buildMatchExpressions(terms, droppable)[1];
    },
  };
}

/**
 * The index with `matches` answered once per expression: understanding a query asks about each of its terms
 * more than once (is it known? then, is it droppable?), and each answer is a catalogue query (on PostgreSQL a
 * round trip). Lives for one query's planning only, so a catalogue change is never missed.
 */
function rememberingMatches(index: TermIndex): TermIndex {
  const answers = new Map<string, boolean | Promise<boolean>>();
  return {
    matches(expression) {
      let answer = answers.get(expression);
      if (answer === undefined) {
        answer = index.matches(expression);
        answers.set(expression, answer);
      }
      return answer;
    },
    vocabulary: (request) => index.vocabulary(request),
  };
}

/**
 * The same expression as a PostgreSQL tsquery: phrases become `<->` chains, AND `&`, OR `|`. Phrases hold only
 * letters, digits and spaces (see search-text.ts), so the translation is token by token. `weights` ("AB")
 * restricts every lexeme to those parts of the document (the title and its aliases).
 */
export function toTsQuery(expression: string, weights = ''): string {
  const label = weights === '' ? '' : `:${weights}`;
  return expression.replace(/"([^"]*)"|\bAND\b|\bOR\b/g, (token, phrase: string | undefined) => {
    if (token === 'AND') return '&';
    if (token === 'OR') return '|';
    const words = (phrase ?? '').split(' ').filter((word) => word !== '');
    return words.length === 1 ? `'${words[0]}'${label}` : `(${words.map((word) => `'${word}'${label}`).join(' <-> ')})`;
  });
}
