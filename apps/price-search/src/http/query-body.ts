/**
 * @module
 * The request body of `POST /api/query`, validated with zod, and the translation of zod's issues into the
 * API's error codes. Only the first problem is reported, in a fixed order: unknown fields, then the fields
 * in the order of the contract.
 */
import { type ZodError, z } from 'zod';
import { NETWORKS, type NetworkId } from '../listing/networks.js';
import { MAX_PENCE, type Pence, penceFromPounds } from '../money/pence.js';
import { ApiError } from './api-error.js';

/** Longest accepted query, in characters (after trimming). */
export const MAX_QUERY_LENGTH = 200;
/** Bounds and default of max_results. */
export const MAX_RESULTS = { min: 1, max: 20, default: 5 } as const;

const QueryBody = z.strictObject({
  query: z.string().trim().min(1).max(MAX_QUERY_LENGTH),
  max_results: z.int().min(MAX_RESULTS.min).max(MAX_RESULTS.max).default(MAX_RESULTS.default),
  max_price: z
    .number()
    .positive()
    .max(MAX_PENCE / 100)
    .optional(),
  min_price: z
    .number()
    .nonnegative()
    .max(MAX_PENCE / 100)
    .optional(),
  currency: z.string().optional(),
  networks: z
    .array(z.enum(NETWORKS))
    .min(1)
    .max(NETWORKS.length * 4)
    .optional(),
});

/** A valid query request. */
export interface QueryRequest {
  readonly query: string;
  readonly maxResults: number;
  readonly maxPence: Pence | undefined;
  /** Floor in pence from `min_price`; undefined when absent or 0. */
  readonly minPence: Pence | undefined;
  /** Requested networks without duplicates; every known network when the request names none. */
  readonly networks: readonly NetworkId[];
}

const FIELD_ORDER = ['query', 'max_results', 'max_price', 'min_price', 'currency', 'networks'];

/** The only currency listings are in; clients of the real product send it explicitly. */
export const CURRENCY = 'GBP';

/** Validates a parsed JSON body; throws ApiError with the first problem. */
export function parseQueryBody(body: unknown): QueryRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError('invalid_body', 'The request body must be a JSON object.');
  }
  const result = QueryBody.safeParse(body);
  if (!result.success) throw toApiError(result.error, body as Record<string, unknown>);
  const { query, max_results, max_price, min_price, currency, networks } = result.data;
  const maxPence = pricePence(max_price, 'max_price');
  const minPence = pricePence(min_price, 'min_price');
  if (minPence !== undefined && maxPence !== undefined && minPence > maxPence) {
    throw new ApiError('out_of_range', 'min_price must not be above max_price.', { field: 'min_price' });
  }
  if (currency !== undefined && currency.trim().toUpperCase() !== CURRENCY) {
    throw new ApiError(
      'unsupported_currency',
      `Listings are priced in ${CURRENCY} only; send currency "${CURRENCY}" or leave it out.`,
      { field: 'currency' },
    );
  }
  return {
    query,
    maxResults: max_results,
    maxPence,
    minPence: minPence === 0 ? undefined : minPence,
    networks: networks ? [...new Set(networks)] : [...NETWORKS],
  };
}

function pricePence(pounds: number | undefined, field: 'max_price' | 'min_price'): Pence | undefined {
  if (pounds === undefined) return undefined;
  const pence = penceFromPounds(pounds);
  if (pence === undefined) {
    throw new ApiError('invalid_precision', `${field} must have at most 2 decimal places (pounds and pence).`, {
      field,
    });
  }
  return pence;
}

function toApiError(error: ZodError, body: Record<string, unknown>): ApiError {
  const unknownKeys = error.issues.find((issue) => issue.code === 'unrecognized_keys');
  if (unknownKeys) {
    const field = unknownKeys.keys[0] ?? '';
    return new ApiError(
      'unknown_field',
      `Unknown field "${field}"; accepted fields are query, max_results, max_price, min_price, currency and networks.`,
      { field },
    );
  }
  const issues = [...error.issues].sort(
    (a, b) => FIELD_ORDER.indexOf(String(a.path[0])) - FIELD_ORDER.indexOf(String(b.path[0])),
  );
  const issue = issues[0];
  const field = String(issue?.path[0] ?? '');
  const at = { field };
  if (issue === undefined) return new ApiError('invalid_body', 'The request body is not valid.');
  if (issue.code === 'invalid_type' && body[field] === undefined) {
    return new ApiError('missing_field', `Field "${field}" is required.`, at);
  }
  switch (field) {
    case 'query':
      if (issue.code === 'too_small') return new ApiError('query_empty', 'query must not be blank.', at);
      if (issue.code === 'too_big') {
        return new ApiError('query_too_long', `query must be at most ${MAX_QUERY_LENGTH} characters.`, at);
      }
      return new ApiError('invalid_type', 'query must be a string.', at);
    case 'max_results':
      if (issue.code === 'too_small' || issue.code === 'too_big') {
        return new ApiError(
          'out_of_range',
          `max_results must be between ${MAX_RESULTS.min} and ${MAX_RESULTS.max} (default ${MAX_RESULTS.default}).`,
          at,
        );
      }
      return new ApiError('invalid_type', 'max_results must be an integer.', at);
    case 'max_price':
      if (issue.code === 'too_small' || issue.code === 'too_big') {
        return new ApiError('out_of_range', `max_price must be above 0 and at most ${MAX_PENCE / 100} pounds.`, at);
      }
      return new ApiError('invalid_type', 'max_price must be a finite number of pounds, e.g. 49.99.', at);
    case 'min_price':
      if (issue.code === 'too_small' || issue.code === 'too_big') {
        return new ApiError('out_of_range', `min_price must be at least 0 and at most ${MAX_PENCE / 100} pounds.`, at);
      }
      return new ApiError('invalid_type', 'min_price must be a finite number of pounds, e.g. 49.99.', at);
    case 'currency':
      return new ApiError('invalid_type', 'currency must be a string, "GBP".', at);
    case 'networks':
      if (issue.code === 'invalid_value') {
        const index = Number(issue.path[1]);
        const value = Array.isArray(body.networks) ? body.networks[index] : undefined;
        return new ApiError(
          'unknown_network',
          `Unknown network ${JSON.stringify(value)}; known networks are ${NETWORKS.join(', ')}.`,
          at,
        );
      }
      if (issue.code === 'too_small') return new ApiError('out_of_range', 'networks must not be empty.', at);
      if (issue.code === 'too_big') return new ApiError('out_of_range', 'networks lists too many entries.', at);
      return new ApiError('invalid_type', 'networks must be an array of network identifiers.', at);
    default:
      return new ApiError('invalid_body', issue.message, at);
  }
}
