/**
 * @module
 * The one reading of RFC 3339 timestamps and their two canonical spellings (ADR 0151):
 * entity timestamps are `toTimestamp` text (UTC, milliseconds, what stored columns hold and
 * compare as text); a usage event's `occurred_at` keeps its own precision, trailing zeros
 * trimmed, so that two spellings of one instant name one event.
 */

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;
/** RFC 3339 also allows lower-case `t` and `z`; usage events keep the upper-case spelling only (ADR 0151). */
const RFC3339_ANY_CASE = new RegExp(RFC3339.source, 'i');

export interface ParsedTimestamp {
  /** The instant, in whole milliseconds since the epoch (further digits are kept in `fraction`). */
  readonly epochMs: number;
  /** The fractional seconds as written, up to nine digits, trailing zeros trimmed. */
  readonly fraction: string;
}

/**
 * Reads an RFC 3339 date-time; null when it is malformed or names no real instant (30 February,
 * hour 24, leap second 60). `utcOnly` refuses offsets other than `Z` and `+00:00`.
 */
export function parseTimestamp(text: string, options: { readonly utcOnly: boolean }): ParsedTimestamp | null {
  return parseMatched(text, options)?.parsed ?? null;
}

function parseMatched(
  text: string,
  options: { readonly utcOnly: boolean },
): { readonly parsed: ParsedTimestamp; readonly match: RegExpExecArray } | null {
  const match = (options.utcOnly ? RFC3339 : RFC3339_ANY_CASE).exec(text);
  if (!match) return null;
  const [, year, month, day, hour, minute, second, fraction = '', zone = 'Z'] = match;
  const offset =
    zone.toUpperCase() === 'Z'
      ? 0
      : (zone.startsWith('-') ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  // UTC is `Z` or `+00:00`; RFC 3339 gives `-00:00` the meaning "offset unknown", so it is not UTC.
  if (options.utcOnly && zone !== 'Z' && zone !== '+00:00') return null;
  // Leap seconds (:60) are refused too: one instant must have one spelling.
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59 || Math.abs(offset) >= 24 * 60) return null;
  const check = new Date(0);
  // setUTCFullYear, unlike Date.UTC, keeps years 0-99 as they are.
  check.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
  check.setUTCHours(Number(hour), Number(minute), Number(second), 0);
  // Dates roll 31 February over into March; a real date round-trips.
  if (check.getUTCDate() !== Number(day) || check.getUTCMonth() !== Number(month) - 1) return null;
  const milliseconds = Number(fraction.slice(0, 3).padEnd(3, '0'));
  return {
    parsed: { epochMs: check.getTime() - offset * 60_000 + milliseconds, fraction: fraction.replace(/0+$/, '') },
    match,
  };
}

/** A usage event's `occurred_at`: RFC 3339 in UTC, in its canonical spelling (`Z`, no trailing zeros). */
export function canonicalTimestamp(text: string): { readonly canonical: string; readonly epochMs: number } | null {
  // An event's timestamp is read when it is validated and again, in its canonical spelling, for
  // its window: the second read is free (the canonical spelling is its own canonical spelling).
  if (text === lastCanonical.text || text === lastCanonical.result?.canonical) return lastCanonical.result;
  const found = parseMatched(text, { utcOnly: true });
  let result: { readonly canonical: string; readonly epochMs: number } | null = null;
  if (found) {
    const { parsed, match } = found;
    // UTC only (`Z` or `+00:00`), so the date and time as written are the UTC ones `toTimestamp`
    // would spell: four-digit year, two-digit fields.
    const seconds = `${match[1]}-${match[2]}-${match[3]}T${match[4]}:${match[5]}:${match[6]}`;
    result = { canonical: `${seconds}${parsed.fraction ? `.${parsed.fraction}` : ''}Z`, epochMs: parsed.epochMs };
  }
  lastCanonical = { text, result };
  return result;
}

let lastCanonical: {
  readonly text: string | undefined;
  readonly result: { readonly canonical: string; readonly epochMs: number } | null;
} = { text: undefined, result: null };
