/**
 * @module
 * The API key of every request to a route registered after it: the key and its account become
 * the request's `apiKey` and `caller`; a missing, malformed or refused key is the use case's
 * error (401 or 403 through the error mapping).
 *
 * A request's key is checked once: the rate limit, which counts an authenticated request against
 * its key (ADR 1480), asks first through `authenticationOf`, and this middleware takes the same
 * answer (the key and account, or the same refusal).
 */
import type { Environment, UseCases } from '@drawdown/billing-core';
import { requestHeader } from '@drawdown/http-kit';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv, Authentication } from './app-env.js';

/** Checks the request's key once per request; later calls get the first answer. */
export async function authenticationOf(
  c: Context<AppEnv>,
  useCases: Pick<UseCases, 'authenticate'>,
  environment: Environment,
): Promise<Authentication> {
  const known = c.get('authentication');
  if (known) return known;
  let found: Authentication;
  try {
    const { key, account } = await useCases.authenticate(requestHeader(c, 'authorization'), environment);
    found = { ok: true, key, account };
  } catch (refusal) {
    found = { ok: false, refusal };
  }
  c.set('authentication', found);
  return found;
}

export function authenticateRequests(
  useCases: Pick<UseCases, 'authenticate'>,
  environment: Environment,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const found = await authenticationOf(c, useCases, environment);
    if (!found.ok) throw found.refusal;
    c.set('apiKey', found.key);
    c.set('caller', { account: found.account, scope: { accountId: found.account.id, environment } });
    await next();
  };
}
