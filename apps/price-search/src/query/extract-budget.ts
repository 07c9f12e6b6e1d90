/**
 * @module
 * The budget grammar. A cue word before or after an amount decides what the amount means ("under £50" is a
 * ceiling, "£100+" a floor, "£300-£500" a range). Bare numbers are money only after an unambiguous cue
 * ("under 50"); a number with no cue must carry £, "pounds", "quid" or "gbp" ("kettle £30"), so that
 * "iphone 13", "t480" and "rtx 4090" stay product names.
 */
import { type Pence, scalePence } from '../money/pence.js';
import type { QueryToken } from './query-tokens.js';
import { type Amount, readAmount } from './read-amount.js';

/** A price window in pence; either bound may be absent. */
export interface Budget {
  readonly minPence: Pence | undefined;
  readonly maxPence: Pence | undefined;
}

/** The budget of a query and the tokens the grammar used up. */
export interface BudgetExtraction {
  readonly budget: Budget;
  /** consumed[i] is true when token i was part of a budget phrase. */
  readonly consumed: readonly boolean[];
}

interface Cue {
  readonly words: readonly string[];
  /** Whether a bare number (no £ or currency word) is accepted with this cue. */
  readonly plain: boolean;
}

const cue = (phrase: string, plain: boolean): Cue => ({ words: phrase.split(' '), plain });

// "max" and "budget" appear in product names ("iphone 15 pro max 256"), so they need an explicit amount.
const MAX_BEFORE: readonly Cue[] = [
  cue('no more than', true),
  cue('not more than', true),
  cue('no more then', true),
  cue('less than', true),
  cue('less then', true),
  cue('lower than', true),
  cue('cheaper than', true),
  cue('not over', true),
  cue('not above', true),
  cue('at most', true),
  cue('up to', true),
  cue('upto', true),
  cue('under', true),
  cue('below', true),
  cue('beneath', true),
  cue('<=', true),
  cue('<', true),
  cue('budget of', true),
  cue('budget is', true),
  cue('budget', false),
  cue('maximum of', false),
  cue('maximum', false),
  cue('max of', false),
  cue('max', false),
  cue('within', false),
  cue('sub', false),
  cue('tops', false),
];

const MIN_BEFORE: readonly Cue[] = [
  cue('more than', true),
  cue('greater than', true),
  cue('upwards of', true),
  cue('at least', true),
  cue('over', true),
  cue('above', true),
  cue('>=', true),
  cue('>', true),
  cue('starting at', false),
  cue('starting from', false),
  cue('minimum of', false),
  cue('minimum', false),
  cue('min', false),
  cue('from', false),
];

const MAX_AFTER: readonly Cue[] = [
  cue('or less', true),
  cue('or lower', true),
  cue('or under', true),
  cue('or below', true),
  cue('or cheaper', true),
  cue('and under', true),
  cue('and below', true),
  cue('at most', true),
  cue('maximum', false),
  cue('max', false),
  cue('tops', false),
  cue('limit', false),
  cue('budget', false),
];

const MIN_AFTER: readonly Cue[] = [
  cue('or more', true),
  cue('and above', true),
  cue('and over', true),
  cue('and up', false),
  cue('or above', true),
  cue('+', false),
  cue('plus', false),
  cue('upwards', false),
  cue('minimum', false),
  cue('min', false),
];

const APPROXIMATE: readonly Cue[] = [
  cue('around', false),
  cue('about', false),
  cue('roughly', false),
  cue('approximately', false),
  cue('approx', false),
  cue('circa', false),
  cue('~', false),
];

const RANGE_OPENERS: readonly Cue[] = [cue('between', true), cue('from', true)];

// Tokens that name a model rather than introduce a budget when they precede "max": "iphone 15 pro max £800".
const MAX_AS_MODEL_AFTER = new Set(['pro', 'ultra', 'air']);

interface Found {
  readonly start: number;
  readonly end: number;
  readonly minPence: Pence | undefined;
  readonly maxPence: Pence | undefined;
}

/**
 * Finds every budget phrase in the tokens. Several ceilings keep the lowest, several floors the highest;
 * a floor above the ceiling is dropped.
 */
export function extractBudget(tokens: readonly QueryToken[]): BudgetExtraction {
  const consumed = tokens.map(() => false);
  const ceilings: Pence[] = [];
  const floors: Pence[] = [];
  let index = 0;
  while (index < tokens.length) {
    const found =
      findRange(tokens, index) ??
      findCueBefore(tokens, index) ??
      findApproximate(tokens, index) ??
      findAmountFirst(tokens, index);
    if (found === undefined) {
      index += 1;
      continue;
    }
    for (let position = found.start; position < found.end; position += 1) consumed[position] = true;
    if (found.maxPence !== undefined) ceilings.push(found.maxPence);
    if (found.minPence !== undefined) floors.push(found.minPence);
    index = found.end;
  }
  const maxPence = ceilings.length > 0 ? (Math.min(...ceilings) as Pence) : undefined;
  let minPence = floors.length > 0 ? (Math.max(...floors) as Pence) : undefined;
  if (minPence !== undefined && maxPence !== undefined && minPence > maxPence) minPence = undefined;
  return { budget: { minPence, maxPence }, consumed };
}

function matchCue(tokens: readonly QueryToken[], index: number, cues: readonly Cue[]): Cue | undefined {
  return cues.find((candidate) => candidate.words.every((word, offset) => tokens[index + offset]?.text === word));
}

function accepted(amount: Amount | undefined, plain: boolean): amount is Amount {
  return amount !== undefined && (amount.explicit || plain);
}

function findRange(tokens: readonly QueryToken[], index: number): Found | undefined {
  const opener = matchCue(tokens, index, RANGE_OPENERS);
  const lowStart = opener ? index + opener.words.length : index;
  const low = readAmount(tokens, lowStart);
  if (low === undefined) return undefined;
  const separator = tokens[low.end]?.text;
  const separators = opener?.words[0] === 'between' ? ['and', 'to', '-'] : ['to', '-'];
  if (separator === undefined || !separators.includes(separator)) return undefined;
  const high = readAmount(tokens, low.end + 1);
  if (high === undefined) return undefined;
  if (!opener && !low.explicit && !high.explicit) return undefined;
  const [minPence, maxPence] = low.pence <= high.pence ? [low.pence, high.pence] : [high.pence, low.pence];
  return { start: index, end: high.end, minPence, maxPence };
}

function findCueBefore(tokens: readonly QueryToken[], index: number): Found | undefined {
  const ceiling = matchCue(tokens, index, MAX_BEFORE);
  if (ceiling && !(ceiling.words[0]?.startsWith('max') && MAX_AS_MODEL_AFTER.has(tokens[index - 1]?.text ?? ''))) {
    const amount = readAmount(tokens, index + ceiling.words.length);
    if (accepted(amount, ceiling.plain)) {
      return { start: index, end: amount.end, minPence: undefined, maxPence: amount.pence };
    }
  }
  const floor = matchCue(tokens, index, MIN_BEFORE);
  if (floor) {
    const amount = readAmount(tokens, index + floor.words.length);
    if (accepted(amount, floor.plain)) {
      return { start: index, end: amount.end, minPence: amount.pence, maxPence: undefined };
    }
  }
  return undefined;
}

// "around £50" is read as 90%-110% of the amount: near the figure, neither a hard ceiling nor a floor at it.
function findApproximate(tokens: readonly QueryToken[], index: number): Found | undefined {
  const approximate = matchCue(tokens, index, APPROXIMATE);
  if (!approximate) return undefined;
  const amount = readAmount(tokens, index + approximate.words.length);
  if (!accepted(amount, approximate.plain)) return undefined;
  return {
    start: index,
    end: amount.end,
    minPence: scalePence(amount.pence, 9, 10),
    maxPence: scalePence(amount.pence, 11, 10),
  };
}

function findAmountFirst(tokens: readonly QueryToken[], index: number): Found | undefined {
  const amount = readAmount(tokens, index);
  if (amount === undefined) return undefined;
  const ceiling = matchCue(tokens, amount.end, MAX_AFTER);
  if (ceiling && accepted(amount, ceiling.plain)) {
    return { start: index, end: amount.end + ceiling.words.length, minPence: undefined, maxPence: amount.pence };
  }
  const floor = matchCue(tokens, amount.end, MIN_AFTER);
  if (floor && accepted(amount, floor.plain)) {
    return { start: index, end: amount.end + floor.words.length, minPence: amount.pence, maxPence: undefined };
  }
  // A stated price with no cue ("kettle £30", "50 quid headphones") is taken as the most the user will pay.
  if (amount.explicit) return { start: index, end: amount.end, minPence: undefined, maxPence: amount.pence };
  return undefined;
}
