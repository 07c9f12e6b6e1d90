/**
 * @module
 * The rate limit of every request (ADR 0007), taken before its body is read: past the limit it
 * is answered 429 `too_many_requests` with `Retry-After`. A request the usage-events fast path
 * handed over was counted there and carries its decision (ADR 0719).
 */
import { BillingError } from '@drawdown/billing-core';
import { clientAddress } from '@drawdown/http-kit';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './app-env.js';
import { respondError } from './envelope.js';
import type { RateLimiter } from './rate-limiter.js';
import { rateDecisionTakenAhead } from './usage-events-fast-path.js';

export function limitRequestRate(rateLimiter: RateLimiter | null, trustProxy: boolean): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (rateLimiter) {
      const decision =
        rateDecisionTakenAhead(c) ??
        (await rateLimiter.hit(clientAddress(c, trustProxy ? 1 : 0) ?? 'in-process', Date.now()));
      if (!decision.allowed) {
        const error = new BillingError(
          'too_many_requests',
          `Too many requests from this address; retry after ${decision.retryAfterSeconds} seconds.`,
        );
        return respondError(c, error, { 'Retry-After': String(decision.retryAfterSeconds) });
      }
    }
    await next();
  };
}
