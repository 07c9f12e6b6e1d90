/**
 * @module
 * The answer to a handler that threw: a `BillingError` is the client's answer through the one
 * error mapping; anything else is reported (with the request's id, environment and account,
 * never secrets or bodies) and answered 500 `internal_error`.
 */
import { BillingError, type Environment } from '@drawdown/billing-core';
import type { ErrorHandler } from 'hono';
import type { AppEnv } from './app-env.js';
import { respondError, unexpectedFailure } from './envelope.js';
import { routeOf } from './request-observer.js';

export type ErrorReporter = (message: string, error: unknown, fields?: Record<string, unknown>) => void;

export function answerErrors(logError: ErrorReporter, environment: Environment): ErrorHandler<AppEnv> {
  return (error, c) => {
    // A full document queue (ADR 1491) drains in about a second.
    if (error instanceof BillingError && error.code === 'documents_busy') {
      return respondError(c, error, { 'Retry-After': '1' });
    }
    if (error instanceof BillingError) return respondError(c, error);
    logError(`${c.req.method} ${routeOf(c)} failed`, error, {
      requestId: c.get('requestId'),
      environment,
      accountId: c.get('caller')?.scope.accountId,
    });
    return respondError(c, unexpectedFailure());
  };
}
