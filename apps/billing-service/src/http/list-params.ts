/**
 * @module
 * The one parser of list query parameters: `per_page` (clamped to the endpoint's maximum),
 * `after` (an id cursor), `order_by` (`field[ASC]` or `field[DESC]` over the endpoint's documented
 * fields, ties broken by id), `include`, and the endpoint's filters, timestamp ranges included (`created_at`,
 * `created_at[LT]`, `[LTE]`, `[GT]`, `[GTE]`). Array filters are comma-joined. A malformed value
 * is `invalid_field`, never ignored.
 */
import {
  BillingError,
  type FilterCondition,
  holdsUnstorableText,
  type IdPrefix,
  isIdOf,
  type ListQuery,
  parseTimestamp,
  toTimestamp,
  UNSTORABLE_TEXT_REASON,
} from '@drawdown/billing-core';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from './app-env.js';

export type FilterSpec<Column extends string> =
  | { readonly kind: 'ids'; readonly column: Column; readonly prefix: IdPrefix; readonly max?: number }
  | { readonly kind: 'enum'; readonly column: Column; readonly values: readonly string[] }
  | { readonly kind: 'text'; readonly column: Column; readonly maxLength?: number; readonly max?: number }
  /** Exact values matched case-insensitively against a lower-cased column. */
  | { readonly kind: 'lowercase'; readonly column: Column }
  /** An instant: the exact parameter, and its `[LT]`, `[LTE]`, `[GT]` and `[GTE]` forms. */
  | { readonly kind: 'timestamp'; readonly column: Column }
  | { readonly kind: 'boolean'; readonly column: Column }
  | { readonly kind: 'contains'; readonly column: Column };

export interface ListSpec<Column extends string> {
  readonly idPrefix: IdPrefix;
  readonly defaultPerPage: number;
  readonly maxPerPage: number;
  readonly filters: Readonly<Record<string, FilterSpec<Column>>>;
  /** Filters applied when the request does not set them (for example `status=active`). */
  readonly defaults?: Readonly<Record<string, string>>;
  /**
   * Fields `order_by` may name; `id` when absent. The first is the default, descending. `id` and
   * `created_at` read in id order (ids are time-ordered); any other is passed on as `ListQuery.sort`.
   */
  readonly orderBy?: readonly string[];
  /** Values `include` may name; absent means the endpoint takes no `include`. */
  readonly includes?: readonly string[];
  /** Parameters the route reads itself; any other parameter the spec does not name is refused (ADR 1101). */
  readonly handledElsewhere?: readonly string[];
}

const RANGE_OPERATORS = { LT: 'lt', LTE: 'lte', GT: 'gt', GTE: 'gte' } as const;
const PAGING_PARAMETERS = ['per_page', 'after', 'order_by', 'include'];
/** `order_by` fields that read in id order: ids are time-ordered, so creation order is id order. */
const ID_ORDERED = ['id', 'created_at'];

/** Every parameter name the spec takes: paging, `include`, filters and their range forms. */
function knownParameter<Column extends string>(spec: ListSpec<Column>, name: string): boolean {
  if (PAGING_PARAMETERS.includes(name) || spec.handledElsewhere?.includes(name)) return true;
  if (name in spec.filters) return true;
  const ranged = /^([a-z_]+)\[(LT|LTE|GT|GTE)\]$/.exec(name);
  return ranged !== null && spec.filters[ranged[1] ?? '']?.kind === 'timestamp';
}

function invalid(parameter: string, message: string): BillingError {
  return BillingError.invalidField(parameter, message);
}

function splitList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

function condition<Column extends string>(parameter: string, spec: FilterSpec<Column>, raw: string): FilterCondition {
  switch (spec.kind) {
    case 'ids': {
      const values = splitList(raw);
      const bad = values.find((value) => !isIdOf(spec.prefix, value));
      const max = spec.max ?? Number.POSITIVE_INFINITY;
      if (bad !== undefined || values.length === 0 || values.length > max) {
        const count = Number.isFinite(max) ? `up to ${max} ` : '';
        throw invalid(parameter, `must be a comma-separated list of ${count}${spec.prefix}_ ids`);
      }
      return { op: 'in', values };
    }
    case 'enum': {
      const values = splitList(raw);
      const bad = values.find((value) => !spec.values.includes(value));
      if (bad !== undefined || values.length === 0) {
        throw invalid(parameter, `must be a comma-separated list of ${spec.values.join(', ')}`);
      }
      return { op: 'in', values };
    }
    case 'lowercase': {
      const values = splitList(raw);
      if (values.length === 0 || values.some((value) => value.length > 320)) throw invalid(parameter, 'is not valid');
      return { op: 'in', values: values.map((value) => value.toLowerCase()) };
    }
    case 'text': {
      const values = splitList(raw);
      const maxLength = spec.maxLength ?? 320;
      const max = spec.max ?? Number.POSITIVE_INFINITY;
      if (values.length === 0 || values.length > max || values.some((value) => value.length > maxLength)) {
        const count = Number.isFinite(max) ? `up to ${max} ` : '';
        throw invalid(parameter, `must be a comma-separated list of ${count}values of at most ${maxLength} characters`);
      }
      return { op: 'in', values };
    }
    case 'timestamp': {
      const parsed = parseTimestamp(raw, { utcOnly: false });
      if (!parsed) throw invalid(parameter, 'must be an RFC 3339 date-time such as 2026-01-31T00:00:00Z');
      // Stored timestamps are canonical UTC text, so canonical bounds compare correctly as text.
      return { op: 'eq', value: toTimestamp(parsed.epochMs) };
    }
    case 'boolean':
      if (raw !== 'true' && raw !== 'false') throw invalid(parameter, 'must be true or false');
      return { op: 'eq', value: raw };
    case 'contains':
      if (raw.length === 0 || raw.length > 200) throw invalid(parameter, 'must be 1 to 200 characters');
      return { op: 'contains', value: raw.toLowerCase() };
  }
}

export interface ParsedList<Column extends string> {
  readonly query: ListQuery<Column>;
  readonly perPage: number;
  /** The field `order_by` named (lower case), or the endpoint's default. */
  readonly orderBy: string;
  /** The `include` values asked for. */
  readonly includes: ReadonlySet<string>;
}

export function parseListParams<Column extends string>(c: Context<AppEnv>, spec: ListSpec<Column>): ParsedList<Column> {
  const params = new URL(c.req.url).searchParams;
  for (const name of params.keys()) {
    if (!knownParameter(spec, name)) throw invalid(name, 'is not a query parameter of this endpoint');
  }
  let perPage = spec.defaultPerPage;
  const perPageText = params.get('per_page');
  if (perPageText !== null) {
    if (!/^\d{1,9}$/.test(perPageText) || Number(perPageText) < 1)
      throw invalid('per_page', 'must be a positive integer');
    perPage = Math.min(Number(perPageText), spec.maxPerPage);
  }
  const after = params.get('after') ?? undefined;
  if (after !== undefined && !isIdOf(spec.idPrefix, after)) {
    throw invalid('after', `must be a ${spec.idPrefix}_ id taken from a previous page`);
  }
  const fields = spec.orderBy ?? ['id'];
  const order = /^([a-z_.]+)\[(ASC|DESC)\]$/i.exec(params.get('order_by') ?? `${fields[0]}[DESC]`);
  const field = order?.[1]?.toLowerCase();
  if (!order || field === undefined || !fields.includes(field)) {
    throw invalid('order_by', `must be ${fields.join(', ')} followed by [ASC] or [DESC]`);
  }
  const includes = new Set<string>();
  const include = params.get('include');
  if (include !== null) {
    const allowed = spec.includes ?? [];
    const values = splitList(include);
    if (allowed.length === 0) throw invalid('include', 'is not supported on this endpoint');
    if (values.length === 0 || values.some((value) => !allowed.includes(value))) {
      throw invalid('include', `must be a comma-separated list of ${allowed.join(', ')}`);
    }
    for (const value of values) includes.add(value);
  }
  const filter: Partial<Record<Column, FilterCondition[]>> = {};
  const add = (column: Column, added: FilterCondition) => {
    const conditions = filter[column] ?? [];
    conditions.push(added);
    filter[column] = conditions;
  };
  for (const [parameter, filterSpec] of Object.entries(spec.filters)) {
    const raw = params.get(parameter) ?? spec.defaults?.[parameter];
    if (raw !== undefined) add(filterSpec.column, condition(parameter, filterSpec, raw));
    if (filterSpec.kind !== 'timestamp') continue;
    for (const [suffix, op] of Object.entries(RANGE_OPERATORS)) {
      const ranged = `${parameter}[${suffix}]`;
      const bound = params.get(ranged);
      if (bound === null) continue;
      const exact = condition(ranged, filterSpec, bound);
      if (exact.op === 'eq' && typeof exact.value === 'string') add(filterSpec.column, { op, value: exact.value });
    }
  }
  const direction = order[2]?.toUpperCase() === 'ASC' ? 'asc' : 'desc';
  const sort = ID_ORDERED.includes(field) ? undefined : field;
  return { query: { filter, after, perPage, direction, sort }, perPage, orderBy: field, includes };
}

/**
 * Refuses a request whose query holds text no engine can store (NUL; an unpaired surrogate
 * cannot arrive percent-encoded, but is checked the same), in any parameter's name or value,
 * before a route reads it: `invalid_characters` (ADR 0901).
 */
export const refuseUnstorableQuery: MiddlewareHandler<AppEnv> = (c, next) => {
  const url = c.req.url;
  const query = url.indexOf('?');
  // Most requests (every POST of usage events) carry no query: nothing to check, no extra frame.
  if (query === -1 || query === url.length - 1) return next();
  for (const [name, value] of new URLSearchParams(url.slice(query + 1))) {
    if (holdsUnstorableText(name) || holdsUnstorableText(value)) {
      throw new BillingError(
        'invalid_characters',
        `Query parameter ${JSON.stringify(name)} ${UNSTORABLE_TEXT_REASON}.`,
      );
    }
  }
  return next();
};
