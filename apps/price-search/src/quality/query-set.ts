/**
 * @module
 * The labelled query set (`quality/uk-shopper-queries.json`) and its scorer. Each query says what a right answer
 * must satisfy: words its top result must (or must not) contain, constraints every result must meet (price,
 * condition, retailer, the exact model asked for), an order, a number of distinct products, or an empty answer.
 * The scorer runs the set through any search function (the HTTP API in process, in the bench and the tests) and
 * reports a pass rate per capability plus the headline figures of issue 17.
 */
import { readFileSync } from 'node:fs';
import type { WireListing } from '../listing/listing.js';

/** Words matched on whole words of the folded title (see `foldTitle`). */
export interface WordRule {
  /** Every phrase must appear. */
  readonly all?: readonly string[];
  /** At least one phrase must appear. */
  readonly any?: readonly string[];
  /** No phrase may appear. */
  readonly none?: readonly string[];
}

/** Constraints every listing of the answer must meet. */
export interface EveryRule {
  readonly maxPrice?: number;
  readonly minPrice?: number;
  readonly condition?: WireListing['condition'];
  readonly networks?: readonly string[];
  /** The exact model asked for: every listing must contain these phrases (no silent substitution). */
  readonly all?: readonly string[];
}

/** One labelled query. */
export interface LabelledQuery {
  readonly id: string;
  readonly capability: string;
  readonly query: string;
  readonly top?: WordRule;
  readonly every?: EveryRule;
  readonly sorted?: 'price_asc';
  /** At least this many distinct products in the answer. */
  readonly distinct?: number;
  /** Each rule must be met by at least one listing of the answer (both products of "A vs B"). */
  readonly some?: readonly WordRule[];
  /** The catalogue has nothing right for this query: the answer must be empty. */
  readonly empty?: boolean;
  /** Whether the catalogue holds a right answer; defaults to true when `top` or `distinct` is given. */
  readonly answerable?: boolean;
}

/** What one search returned: listings, or the error code of a refusal. */
export type SearchAnswer =
  | { readonly ok: true; readonly listings: readonly WireListing[] }
  | { readonly ok: false; readonly code: string };

/** Runs one query (at `maxResults` 5). */
export type SearchFunction = (query: string) => Promise<SearchAnswer>;

/** The checks a query can fail. */
export type Check =
  | 'answered'
  | 'non_empty'
  | 'top'
  | 'filters'
  | 'substitution'
  | 'sorted'
  | 'distinct'
  | 'some'
  | 'empty';

/** One query's outcome. */
export interface QueryOutcome {
  readonly query: LabelledQuery;
  readonly failed: readonly Check[];
  readonly titles: readonly string[];
}

/** Pass rate of one group of queries. */
export interface Rate {
  readonly passed: number;
  readonly total: number;
}

/** The scores of a run. */
export interface QualityScores {
  /** Queries that pass every check. */
  readonly passed: Rate;
  readonly byCapability: Readonly<Record<string, Rate>>;
  /** Answerable queries with a `top` rule whose first result satisfies it. */
  readonly relevantTop: Rate;
  /** Queries with a price, condition or retailer constraint where every result meets it (and one exists). */
  readonly filters: Rate;
  /** Typo queries that pass every check. */
  readonly typos: Rate;
  /** Queries with a result that is not the model asked for. */
  readonly silentSubstitutions: number;
  readonly outcomes: readonly QueryOutcome[];
}

/** Reads the query set bundled with the package. */
export function loadQuerySet(
  path = new URL('../../quality/uk-shopper-queries.json', import.meta.url),
): LabelledQuery[] {
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as { queries: LabelledQuery[] };
  return parsed.queries;
}

/** Lower case, accents folded, punctuation as spaces, padded with spaces for whole-word matching. */
export function foldTitle(text: string): string {
  const folded = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
  return ` ${folded} `;
}

const contains = (title: string, phrase: string): boolean => title.includes(foldTitle(phrase));

function meetsWords(title: string, rule: WordRule): boolean {
  const folded = foldTitle(title);
  if (rule.all?.some((phrase) => !contains(folded, phrase))) return false;
  if (rule.any !== undefined && !rule.any.some((phrase) => contains(folded, phrase))) return false;
  if (rule.none?.some((phrase) => contains(folded, phrase))) return false;
  return true;
}

function meetsFilters(listing: WireListing, rule: EveryRule): boolean {
  if (rule.maxPrice !== undefined && listing.price > rule.maxPrice) return false;
  if (rule.minPrice !== undefined && listing.price < rule.minPrice) return false;
  if (rule.condition !== undefined && listing.condition !== rule.condition) return false;
  if (rule.networks !== undefined && !rule.networks.includes(listing.network)) return false;
  return true;
}

const hasFilters = (rule: EveryRule | undefined): boolean =>
  rule !== undefined &&
  (rule.maxPrice !== undefined ||
    rule.minPrice !== undefined ||
    rule.condition !== undefined ||
    rule.networks !== undefined);

/** The product a listing is an offer of: its title without the seller's condition notes. */
export function productOf(title: string): string {
  return foldTitle(
    title.replace(/\s+-\s+(used|brand new|refurbished|new)\b.*$/i, '').replace(/\((renewed|refurbished)\)/gi, ''),
  ).trim();
}

export function isAnswerable(query: LabelledQuery): boolean {
  return query.answerable ?? (query.top !== undefined || query.distinct !== undefined);
}

/** Scores one answer against its labels. */
export function checkAnswer(query: LabelledQuery, answer: SearchAnswer): Check[] {
  if (!answer.ok) return ['answered'];
  const { listings } = answer;
  const failed: Check[] = [];
  const answerable = isAnswerable(query);
  if (answerable && listings.length === 0) failed.push('non_empty');
  const first = listings[0];
  if (answerable && query.top !== undefined && (first === undefined || !meetsWords(first.product, query.top))) {
    failed.push('top');
  }
  const every = query.every;
  if (every !== undefined && listings.some((listing) => !meetsFilters(listing, every))) failed.push('filters');
  const model = every?.all;
  if (model !== undefined && listings.some((listing) => !meetsWords(listing.product, { all: model }))) {
    failed.push('substitution');
  }
  if (
    query.sorted === 'price_asc' &&
    listings.some((listing, index) => index > 0 && listing.price < (listings[index - 1]?.price ?? 0))
  ) {
    failed.push('sorted');
  }
  if (
    query.distinct !== undefined &&
    new Set(listings.map((listing) => productOf(listing.product))).size < query.distinct
  ) {
    failed.push('distinct');
  }
  if (query.some?.some((rule) => !listings.some((listing) => meetsWords(listing.product, rule)))) {
    failed.push('some');
  }
  if (query.empty === true && listings.length > 0) failed.push('empty');
  return failed;
}

const rate = (outcomes: readonly QueryOutcome[], passes: (outcome: QueryOutcome) => boolean): Rate => ({
  passed: outcomes.filter(passes).length,
  total: outcomes.length,
});

/** Runs every query through `search`, one at a time, and scores the answers. */
export async function scoreQuerySet(queries: readonly LabelledQuery[], search: SearchFunction): Promise<QualityScores> {
  const outcomes: QueryOutcome[] = [];
  for (const query of queries) {
    const answer = await search(query.query);
    outcomes.push({
      query,
      failed: checkAnswer(query, answer),
      titles: answer.ok
        ? answer.listings.map((listing) => `${listing.product} [${listing.network}, £${listing.price}]`)
        : [`refused: ${answer.code}`],
    });
  }
  const capabilities = [...new Set(queries.map((query) => query.capability))];
  const byCapability = Object.fromEntries(
    capabilities.map((capability) => [
      capability,
      rate(
        outcomes.filter((outcome) => outcome.query.capability === capability),
        (outcome) => outcome.failed.length === 0,
      ),
    ]),
  );
  const withTop = outcomes.filter((outcome) => outcome.query.top !== undefined && isAnswerable(outcome.query));
  const withFilters = outcomes.filter((outcome) => hasFilters(outcome.query.every));
  return {
    passed: rate(outcomes, (outcome) => outcome.failed.length === 0),
    byCapability,
    relevantTop: rate(withTop, (outcome) => !outcome.failed.some((check) => check === 'top' || check === 'answered')),
    filters: rate(
      withFilters,
      (outcome) =>
        !outcome.failed.some((check) => check === 'filters' || check === 'answered' || check === 'non_empty'),
    ),
    typos: rate(
      outcomes.filter((outcome) => outcome.query.capability === 'typo'),
      (outcome) => outcome.failed.length === 0,
    ),
    silentSubstitutions: outcomes.filter((outcome) => outcome.failed.includes('substitution')).length,
    outcomes,
  };
}

const percent = ({ passed, total }: Rate): string =>
  `${total === 0 ? '-' : ((passed / total) * 100).toFixed(1)}% (${passed}/${total})`;

/** The scores as printable lines. */
export function formatScores(label: string, scores: QualityScores): string[] {
  const lines = [`query set on ${label}`];
  for (const [capability, value] of Object.entries(scores.byCapability)) {
    lines.push(`  ${capability.padEnd(24)} ${percent(value)}`);
  }
  lines.push(`  ${'every check passed'.padEnd(24)} ${percent(scores.passed)}`);
  lines.push(`  ${'relevant top result'.padEnd(24)} ${percent(scores.relevantTop)}`);
  lines.push(`  ${'filters honoured'.padEnd(24)} ${percent(scores.filters)}`);
  lines.push(`  ${'typo queries'.padEnd(24)} ${percent(scores.typos)}`);
  lines.push(`  ${'silent substitutions'.padEnd(24)} ${scores.silentSubstitutions}`);
  return lines;
}

/** The failed queries as printable lines, for tuning. */
export function formatFailures(scores: QualityScores): string[] {
  return scores.outcomes
    .filter((outcome) => outcome.failed.length > 0)
    .map(
      (outcome) =>
        `  ${outcome.query.id} "${outcome.query.query}" failed ${outcome.failed.join(',')}: ${outcome.titles.slice(0, 3).join(' | ') || '(empty)'}`,
    );
}
