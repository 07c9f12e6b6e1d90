/**
 * @module
 * The wire envelopes: `{data, meta: {request_id}}` for success, `{error, meta}` for failure,
 * and `meta.pagination` on lists with an absolute `next` link on the advertised base URL.
 */
import { BillingError, type ErrorCode, type FieldError, type Page } from '@drawdown/billing-core';
import type { Context } from 'hono';
import type { AppEnv } from './app-env.js';
import { documentationUrl, errorType, STATUS_BY_CODE } from './error-mapping.js';
import { toSnakeCase } from './wire-case.js';

export function respond(c: Context<AppEnv>, data: unknown, status: 200 | 201 | 202 = 200): Response {
  return c.json({ data: toSnakeCase(data), meta: { request_id: c.get('requestId') } }, status);
}

/** A list page. `next` repeats the request's query with `after` set to the page's last id. */
export function respondPage<Entity extends { readonly id: string }>(
  c: Context<AppEnv>,
  page: Page<Entity>,
  perPage: number,
  present: (entity: Entity) => unknown = (entity) => entity,
): Response {
  const url = new URL(c.req.url);
  const last = page.items.at(-1);
  if (last) url.searchParams.set('after', last.id);
  const next = `${c.get('publicBaseUrl')}${url.pathname}${url.search}`;
  return c.json({
    data: page.items.map((item) => toSnakeCase(present(item))),
    meta: {
      request_id: c.get('requestId'),
      pagination: { per_page: perPage, next, has_more: page.hasMore, estimated_total: page.estimatedTotal },
    },
  });
}

export function errorBody(requestId: string, code: ErrorCode, detail: string, fieldErrors: readonly FieldError[]) {
  return {
    error: {
      type: errorType(code),
      code,
      detail,
      documentation_url: documentationUrl(code),
      // The reference sends `errors[]` only on validation errors; other codes name the field in `detail`.
      ...(code === 'invalid_field' && fieldErrors.length > 0 ? { errors: fieldErrors } : {}),
    },
    meta: { request_id: requestId },
  };
}

export function respondError(c: Context<AppEnv>, error: BillingError, headers: Record<string, string> = {}): Response {
  const status = STATUS_BY_CODE[error.code];
  // A refusal that passes with time (the simulation budget, ADR 1486) says when, as 429s do.
  const retryAfter = (error as { retryAfterSeconds?: unknown }).retryAfterSeconds;
  if (typeof retryAfter === 'number' && headers['Retry-After'] === undefined)
    c.header('Retry-After', String(retryAfter));
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
  return c.json(errorBody(c.get('requestId'), error.code, error.detail, error.fieldErrors), status);
}

/** What a client is told of a failure that is not a `BillingError` (logged apart, with the request's id). */
export function unexpectedFailure(): BillingError {
  return new BillingError('internal_error', 'The service failed unexpectedly; the request is safe to retry.');
}
