/**
 * @module
 * The rate limit of every request, taken before its body is read (ADR 0007, ADR 1480): a request
 * that carries an API key which authenticates is counted against that key, any other (no key, a
 * key refused) against its client address, each with its own limit. Past the limit it is
 * answered 429 `too_many_requests` with `Retry-After`. A request the usage-events fast path
 * handed over was counted there and carries its decision (ADR 0719).
 */
import { BillingError, type Environment, type UseCases } from '@drawdown/billing-core';
import { clientAddress, type ProxyTrust, proxyHops, requestHeader } from '@drawdown/http-kit';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from './app-env.js';
import { authenticationOf } from './authentication.js';
import { respondError } from './envelope.js';
import { type RateSubject, type RequestRateLimits, rateRefusalDetail } from './rate-limiter.js';
import { rateDecisionTakenAhead } from './usage-events-fast-path.js';

export interface RateLimitOptions {
  readonly limits: RequestRateLimits | null | undefined;
  readonly trustProxy: boolean | ProxyTrust;
  readonly useCases: Pick<UseCases, 'authenticate'>;
  readonly environment: Environment;
}

/** The client address a request is counted against when it has no key that authenticates. */
export function addressSubject(c: Context<AppEnv>, trustProxy: boolean | ProxyTrust): RateSubject {
  return { kind: 'address', address: clientAddress(c, proxyHops(trustProxy)) ?? 'in-process' };
}

async function subjectOf(c: Context<AppEnv>, options: RateLimitOptions): Promise<RateSubject> {
  // Without an Authorization header there is no key to check: the address, with no read at all.
  if (requestHeader(c, 'authorization') === undefined) return addressSubject(c, options.trustProxy);
  const found = await authenticationOf(c, options.useCases, options.environment);
  return found.ok ? { kind: 'key', keyId: found.key.id } : addressSubject(c, options.trustProxy);
}

export function limitRequestRate(options: RateLimitOptions): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { limits } = options;
    if (limits) {
      let verdict = rateDecisionTakenAhead(c);
      if (!verdict) {
        const subject = await subjectOf(c, options);
        verdict = { subject, decision: await limits.hit(subject, Date.now()) };
      }
      const { decision, subject } = verdict;
      if (!decision.allowed) {
        const error = new BillingError('too_many_requests', rateRefusalDetail(subject, decision.retryAfterSeconds));
        return respondError(c, error, { 'Retry-After': String(decision.retryAfterSeconds) });
      }
    }
    await next();
  };
}
