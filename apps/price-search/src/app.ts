/**
 * @module
 * The HTTP app. Errors of every kind leave through one handler as the JSON envelope of `api-error.ts`; an
 * unexpected exception is logged to stderr and answered 500 `internal_error` without its details.
 */
import { limitBody } from '@drawdown/http-kit';
import type { HttpBindings } from '@hono/node-server';
import { type Context, Hono } from 'hono';
import { registerBillingWebhook } from './billing/billing-webhooks.js';
import { ApiError, STATUS_BY_CODE } from './http/api-error.js';
import type { HttpDependencies } from './http/http-dependencies.js';
import { registerGetHealth } from './http/routes/get-health.js';
import { registerPostQuery } from './http/routes/post-query.js';

/** Largest accepted request body: a maximal valid query is well under 2 KB. */
export const MAX_BODY_BYTES = 16 * 1024;

/** Creates the app. */
export function createApp(deps: HttpDependencies): Hono<{ Bindings: HttpBindings }> {
  const app = new Hono<{ Bindings: HttpBindings }>();

  app.use(
    '/api/*',
    // Counted on the stream: a chunked body is refused as soon as it passes the limit (ADR 0903).
    limitBody(MAX_BODY_BYTES, (c) =>
      respondWithError(c, new ApiError('body_too_large', `The request body must be at most ${MAX_BODY_BYTES} bytes.`)),
    ),
  );

  registerPostQuery(app, deps);
  registerGetHealth(app, deps);
  if (deps.billingWebhook !== undefined) registerBillingWebhook(app, deps.billingWebhook);

  app.all('/api/query', () => {
    throw new ApiError('method_not_allowed', 'Use POST for /api/query.', { allow: 'POST' });
  });
  app.all('/health', () => {
    throw new ApiError('method_not_allowed', 'Use GET for /health.', { allow: 'GET' });
  });
  app.notFound((c) =>
    respondWithError(c, new ApiError('not_found', 'No such endpoint; the API has POST /api/query and GET /health.')),
  );

  app.onError((error, c) => {
    if (error instanceof ApiError) return respondWithError(c, error);
    console.error('price-search: unexpected error', error);
    return respondWithError(c, new ApiError('internal_error', 'The service failed to answer.'));
  });

  return app;
}

function respondWithError(c: Context, error: ApiError): Response {
  if (error.details.retryAfterSeconds !== undefined) c.header('retry-after', String(error.details.retryAfterSeconds));
  if (error.details.allow !== undefined) c.header('allow', error.details.allow);
  return c.json(error.toBody(), STATUS_BY_CODE[error.code]);
}
