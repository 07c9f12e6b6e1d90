/**
 * @module
 * Reads one amount of money at a token position: "£1,299.99", "50 pounds", "50quid", "£1.5k", "2 grand",
 * "fifty quid", "a tenner". Says whether the amount is explicitly money (a £ sign, a currency word) so the
 * grammar can refuse bare numbers unless a budget cue stands before them.
 */
import { type Pence, penceFromDecimal, scalePence } from '../money/pence.js';
import { readWordNumber } from './number-words.js';
import type { QueryToken } from './query-tokens.js';

/** An amount found in the query. */
export interface Amount {
  readonly pence: Pence;
  /** True when a £ sign, "pounds", "quid", "gbp" or "grand" marks it as money. */
  readonly explicit: boolean;
  /** Index of the first token of the amount. */
  readonly start: number;
  /** Index just past the last token of the amount. */
  readonly end: number;
}

const NUMBER = /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?(k|grand|quid|pounds?|gbp)?$/;
const CURRENCY_WORDS = new Set(['pound', 'pounds', 'quid', 'gbp', 'sterling', 'squid']);
const SLANG = new Map([
  ['tenner', 1_000],
  ['fiver', 500],
]);

// A number followed by one of these is a size, a capacity or a count, never a price: "under 13 inch",
// "over 65\"", "rtx 4090 24 gb".
const MEASUREMENTS = new Set([
  '"',
  'inch',
  'inches',
  'cm',
  'mm',
  'm',
  'metre',
  'metres',
  'meter',
  'meters',
  'ft',
  'feet',
  'gb',
  'tb',
  'mb',
  'hz',
  'khz',
  'ghz',
  'mhz',
  'w',
  'watt',
  'watts',
  'kw',
  'mah',
  'mp',
  'megapixel',
  'megapixels',
  'l',
  'litre',
  'litres',
  'liter',
  'liters',
  'ml',
  'v',
  'volt',
  'volts',
  'kg',
  'g',
  'gram',
  'grams',
  'lb',
  'lbs',
  'oz',
  'year',
  'years',
  'yr',
  'yrs',
  'month',
  'months',
  'pack',
  'pcs',
  'pieces',
  'piece',
  'x',
  'fps',
  'core',
  'cores',
  'gen',
  'generation',
  'series',
  'rpm',
  'bar',
  'seater',
  'speed',
  'port',
  'ports',
  'channel',
  'ch',
  'pin',
  'tog',
  'cup',
  'cups',
  'people',
  'person',
  'percent',
]);

/**
 * Reads an amount starting at token `index`, or returns undefined when there is none or when the number is
 * followed by a measurement unit.
 */
export function readAmount(tokens: readonly QueryToken[], index: number): Amount | undefined {
  let position = index;
  let explicit = false;
  if (tokens[position]?.text === '£') {
    explicit = true;
    position += 1;
  }
  if (
    (tokens[position]?.text === 'a' || tokens[position]?.text === 'an') &&
    SLANG.has(tokens[position + 1]?.text ?? '')
  ) {
    position += 1;
  }
  const first = tokens[position];
  if (first === undefined || first.kind !== 'word') return undefined;

  let pence: Pence | undefined;
  const slang = SLANG.get(first.text);
  const numeric = NUMBER.exec(first.text);
  if (slang !== undefined) {
    pence = slang as Pence;
    explicit = true;
    position += 1;
  } else if (numeric) {
    const whole = (numeric[1] ?? '').replace(/,/g, '');
    pence = penceFromDecimal(numeric[2] === undefined ? whole : `${whole}.${numeric[2]}`);
    const suffix = numeric[3];
    if (pence !== undefined && (suffix === 'k' || suffix === 'grand')) pence = scalePence(pence, 1000, 1);
    if (suffix !== undefined && suffix !== 'k') explicit = true;
    position += 1;
    if (suffix === undefined && (tokens[position]?.text === 'k' || tokens[position]?.text === 'grand')) {
      if (pence !== undefined) pence = scalePence(pence, 1000, 1);
      if (tokens[position]?.text === 'grand') explicit = true;
      position += 1;
    }
  } else {
    const words = tokens.map((token) => token.text);
    const written = readWordNumber(words, position);
    if (written === undefined) return undefined;
    if (words.slice(position, written.end).includes('grand')) explicit = true;
    pence = penceFromDecimal(String(written.value));
    position = written.end;
  }
  if (pence === undefined || pence === 0) return undefined;

  const next = tokens[position];
  if (next !== undefined && CURRENCY_WORDS.has(next.text)) {
    explicit = true;
    position += 1;
  } else if (next !== undefined && MEASUREMENTS.has(next.text)) {
    return undefined;
  }
  return { pence, explicit, start: index, end: position };
}
