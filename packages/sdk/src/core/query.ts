/**
 * @module
 * Query strings of list calls: camelCase keys become snake_case, arrays are comma-joined,
 * `undefined`, `null` and `''` are left out, and range filters such as
 * `{ billedAt: { gte: '2026-01-01T00:00:00Z' } }` become `billed_at[GTE]=…`.
 */
import { snakeKey } from './wire-case.js';

/** A timestamp filter: either one exact value or bounds. */
export interface TimestampRange {
  readonly lt?: string;
  readonly lte?: string;
  readonly gt?: string;
  readonly gte?: string;
}

export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[] | TimestampRange;

export type QueryParams = { readonly [key: string]: QueryValue };

function scalar(value: string | number | boolean): string {
  return String(value);
}

/** Builds `?a=1&b=x,y` (or `''` when nothing is set). */
export function buildQuery(params: QueryParams | undefined): string {
  if (!params) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    const name = snakeKey(key);
    if (Array.isArray(value)) {
      if (value.length > 0) search.set(name, value.map(String).join(','));
    } else if (typeof value === 'object') {
      const range = value as TimestampRange;
      for (const bound of ['lt', 'lte', 'gt', 'gte'] as const) {
        const boundValue = range[bound];
        if (boundValue !== undefined && boundValue !== '') search.set(`${name}[${bound.toUpperCase()}]`, boundValue);
      }
    } else {
      search.set(name, scalar(value as string | number | boolean));
    }
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}
