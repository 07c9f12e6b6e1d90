/**
 * @module
 * The start-up warm-up (ADRs 0222, 0229). Before the service listens, the catalogue builds what it would otherwise
 * build on its first lookups (the vocabulary; on PostgreSQL the word table and planner statistics) and opens its
 * connections, then synthetic lookups made from the catalogue's own listings run until a time budget is spent, so
 * that the first clients do not pay for cold code, unread catalogue pages and a lazy vocabulary. `startPriceSearch`
 * sends them as real requests to a stand-in of the service on a loopback port (`ask`; see
 * ../warm-up-over-http.ts), each query twice (computed, then answered from the stand-in's cache), so that the
 * whole request path is compiled before the first client arrives; without `ask` they run through the engine.
 * Nothing is metered and no answer is kept: the service's own result cache is neither read nor filled (the
 * stand-in's is dropped with it), the catalogue's probe answers are forgotten afterwards, and the service's
 * connector health is left as it was. Live marketplaces are never
 * asked.
 */
import type { Catalogue, ListingSample } from '../catalogue/catalogue.js';
import { toWireListing } from '../listing/listing.js';
import type { NetworkId } from '../listing/networks.js';
import { parseQuery } from '../query/parse-query.js';
import type { SearchEngine } from '../search/search-engine.js';

/** The default time budget of the warm-up, in milliseconds (0 disables it). */
export const DEFAULT_WARM_UP_MS = 6_000;
/** At most this many distinct synthetic queries, whatever the budget. */
export const WARM_UP_LOOKUPS = 2_500;
/** Lookups in flight at once (as many as a busy client's connections; on PostgreSQL the pool's connections). */
export const WARM_UP_IN_FLIGHT = 10;
// Queries asked before they are all asked again over HTTP (see `askedTwice`).
const REPEAT_BLOCK = 100;
// Results asked per synthetic lookup (the API's default page).
const RESULTS = 10;

/** What the warm-up did. */
export interface WarmUpReport {
  /** False when the budget was 0. */
  readonly ran: boolean;
  /** True when the lookups were requests to a stand-in of the service (ADR 0229), false when engine calls. */
  readonly overHttp: boolean;
  /** The whole warm-up, in milliseconds. */
  readonly ms: number;
  /** Of which the catalogue's preparation (not bounded by the budget). */
  readonly prepareMs: number;
  /** Lookups made, repeats included. */
  readonly lookups: number;
  /** Lookups that threw or whose catalogue failed; the warm-up goes on regardless. */
  readonly failed: number;
  /** The first failure's message (preparation or lookup), when anything failed. */
  readonly firstError: string | undefined;
  /** True when the time budget ended the lookups before every one planned was made. */
  readonly stoppedByBudget: boolean;
}

/**
 * Asks one synthetic query the way a client would (a request to the stand-in); rejects when the request fails or
 * is not answered 200.
 */
export type WarmUpAsk = (text: string) => Promise<void>;

/** What the warm-up works on. */
export interface WarmUpTarget {
  readonly engine: SearchEngine;
  readonly catalogue: Catalogue;
  /** The networks the catalogue serves (live connectors' networks are left out). */
  readonly networks: readonly NetworkId[];
  /** When given, every lookup is asked through it, and the queries are asked a second time (ADR 0229). */
  readonly ask?: WarmUpAsk | undefined;
}

/**
 * Warms the service up within `budgetMs` (0: does nothing). The catalogue's preparation is not cut short (it is
 * work the first lookups would otherwise do); the lookups stop when the budget is spent. Never throws.
 */
export async function warmUp(
  target: WarmUpTarget,
  budgetMs: number,
  now: () => number = () => performance.now(),
): Promise<WarmUpReport> {
  const overHttp = target.ask !== undefined;
  if (budgetMs <= 0) {
    return {
      ran: false,
      overHttp: false,
      ms: 0,
      prepareMs: 0,
      lookups: 0,
      failed: 0,
      firstError: undefined,
      stoppedByBudget: false,
    };
  }
  const started = now();
  const deadline = started + budgetMs;
  let firstError: string | undefined;
  let failed = 0;
  const fail = (error: unknown): void => {
    failed += 1;
    firstError ??= error instanceof Error ? error.message : String(error);
  };

  let texts: string[] = [];
  try {
    await target.catalogue.prepare();
    if (target.networks.length > 0) {
      const samples = await target.catalogue.sampleListings(WARM_UP_LOOKUPS);
      texts = samples.map(warmUpQueryOf).filter((text) => parseQuery(text).terms.length > 0);
    }
  } catch (error) {
    fail(error);
  }
  // Over HTTP every query is asked again, a block at a time (so that a budget that ends the warm-up early still
  // leaves both paths compiled): the repeats are answered from the stand-in's result cache, the path most
  // requests of a running service take.
  if (overHttp) texts = askedTwice(texts);
  const prepareMs = Math.round(now() - started);

  let next = 0;
  let lookups = 0;
  const worker = async (): Promise<void> => {
    while (next < texts.length && now() < deadline) {
      const text = texts[next] ?? '';
      next += 1;
      lookups += 1;
      try {
        if (target.ask !== undefined) {
          await target.ask(text);
          continue;
        }
        const outcome = await target.engine.search(
          { parsed: parseQuery(text), networks: target.networks, maxResults: RESULTS },
          { synthetic: true },
        );
        const failedRun = outcome.runs.find((run) => !run.ok);
        if (failedRun !== undefined) fail(failedRun.error);
        // The response's own work: every listing converted and serialised as the route does.
        JSON.stringify(outcome.listings.map(toWireListing));
      } catch (error) {
        fail(error);
      }
    }
  };
  await Promise.all(Array.from({ length: WARM_UP_IN_FLIGHT }, worker));
  target.catalogue.forgetAnswers();
  return {
    ran: true,
    overHttp,
    ms: Math.round(now() - started),
    prepareMs,
    lookups,
    failed,
    firstError,
    stoppedByBudget: next < texts.length,
  };
}

/** Every text twice, in blocks of REPEAT_BLOCK: a block, the same block again, the next block... */
export function askedTwice(texts: readonly string[]): string[] {
  const asked: string[] = [];
  for (let start = 0; start < texts.length; start += REPEAT_BLOCK) {
    const block = texts.slice(start, start + REPEAT_BLOCK);
    asked.push(...block, ...block);
  }
  return asked;
}

/**
 * A synthetic query from a listing: the first one to three words of its title, in turn (of every twelve) alone,
 * with a price phrase around its price in each of the budget grammar's shapes ("under £100", "between £50 and
 * £150", "below 100 pounds", "£100 max", "over £50", "<£100"), with two letters swapped in the longest of its
 * first three words (the vocabulary's corrections), with its condition, or asking for the cheapest first. The
 * parser's every kind of answer then reaches the compiled code before a client's does (ADR 0229).
 */
export function warmUpQueryOf(sample: ListingSample, index: number): string {
  const words = sample.title.split(/\s+/).filter((word) => word !== '');
  const base = words.slice(0, 1 + (index % 3)).join(' ');
  const above = Math.ceil(sample.pricePence / 100);
  const below = Math.max(1, Math.floor(sample.pricePence / 200));
  switch (index % 12) {
    case 1:
      return `${base} under £${above}`;
    case 3:
      return withSwappedLetters(words.slice(0, 3).join(' '));
    case 4:
      return `${base} between £${below} and £${above + below}`;
    case 5:
      return sample.condition === 'new' ? `cheapest ${base}` : `${sample.condition} ${base}`;
    case 7:
      return `${base} below ${above} pounds`;
    case 8:
      return `new ${base} £${above} max`;
    case 9:
      return `${base} over £${below}`;
    case 10:
      return `cheapest ${base} <£${above}`;
    case 11:
      return `refurbished ${base}`;
    default:
      return base;
  }
}

/**
 * The text with two different adjacent letters swapped from the middle of its longest word of five letters or
 * more ("kettle" → "ketlte"); unchanged without such a word.
 */
function withSwappedLetters(text: string): string {
  const words = text.split(' ');
  let longest = -1;
  words.forEach((word, position) => {
    if (/^\p{L}{5,}$/u.test(word) && (longest < 0 || word.length > (words[longest] ?? '').length)) longest = position;
  });
  const word = words[longest];
  if (word === undefined) return text;
  for (let at = Math.floor(word.length / 2); at < word.length; at += 1) {
    if (word[at - 1] !== word[at]) {
      words[longest] = `${word.slice(0, at - 1)}${word[at]}${word[at - 1]}${word.slice(at + 1)}`;
      break;
    }
  }
  return words.join(' ');
}
