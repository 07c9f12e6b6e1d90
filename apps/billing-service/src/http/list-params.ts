/**
 * @module
 * Query parameters of list endpoints: `per_page` (clamped to the endpoint's maximum),
 * `after` (an id cursor), `order_by` (`id[ASC]` or `id[DESC]`), and the endpoint's filters.
 * Array filters are comma-joined. A malformed value is `invalid_field`, never ignored.
 */
import { BillingError, type FilterCondition, type IdPrefix, isIdOf, type ListQuery } from '@drawdown/billing-core';
import type { Context } from 'hono';
import type { AppEnv } from './app-env.js';

export type FilterSpec<Column extends string> =
  | { readonly kind: 'ids'; readonly column: Column; readonly prefix: IdPrefix }
  | { readonly kind: 'enum'; readonly column: Column; readonly values: readonly string[] }
  | { readonly kind: 'text'; readonly column: Column }
  /** Exact values matched case-insensitively against a lower-cased column. */
  | { readonly kind: 'lowercase'; readonly column: Column }
  | { readonly kind: 'boolean'; readonly column: Column }
  | { readonly kind: 'contains'; readonly column: Column };

export interface ListSpec<Column extends string> {
  readonly idPrefix: IdPrefix;
  readonly defaultPerPage: number;
  readonly maxPerPage: number;
  readonly filters: Readonly<Record<string, FilterSpec<Column>>>;
  /** Filters applied when the request does not set them (for example `status=active`). */
  readonly defaults?: Readonly<Record<string, string>>;
  /** Parameters the route reads itself (such as `include`); any other unknown parameter is refused. */
  readonly handledElsewhere?: readonly string[];
}

const PAGING_PARAMETERS = ['per_page', 'after', 'order_by'];

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
      if (bad !== undefined || values.length === 0)
        throw invalid(parameter, `must be a comma-separated list of ${spec.prefix}_ ids`);
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
      if (values.length === 0 || values.some((value) => value.length > 320)) throw invalid(parameter, 'is not valid');
      return { op: 'in', values };
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
}

export function parseListParams<Column extends string>(c: Context<AppEnv>, spec: ListSpec<Column>): ParsedList<Column> {
  const params = new URL(c.req.url).searchParams;
  for (const name of params.keys()) {
    if (!(name in spec.filters) && !PAGING_PARAMETERS.includes(name) && !spec.handledElsewhere?.includes(name)) {
      throw invalid(name, 'is not a query parameter of this endpoint');
    }
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
  const orderBy = params.get('order_by') ?? 'id[DESC]';
  // Ids are time-ordered, so `created_at` orders exactly as `id` does; other fields are refused.
  const order = /^(?:id|created_at)\[(ASC|DESC)\]$/i.exec(orderBy);
  if (!order) throw invalid('order_by', 'must be id or created_at followed by [ASC] or [DESC]');
  const filter: Partial<Record<Column, FilterCondition[]>> = {};
  for (const [parameter, filterSpec] of Object.entries(spec.filters)) {
    const raw = params.get(parameter) ?? spec.defaults?.[parameter];
    if (raw === undefined) continue;
    const conditions = filter[filterSpec.column] ?? [];
    conditions.push(condition(parameter, filterSpec, raw));
    filter[filterSpec.column] = conditions;
  }
  const direction = order[1]?.toUpperCase() === 'ASC' ? 'asc' : 'desc';
  return { query: { filter, after, perPage, direction }, perPage };
}
