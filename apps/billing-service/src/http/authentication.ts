/**
 * @module
 * The API key of every request to a route registered after it: the key and its account become
 * the request's `apiKey` and `caller`; a missing, malformed or refused key is the use case's
 * error (401 or 403 through the error mapping).
 */
import type { Environment, UseCases } from '@drawdown/billing-core';
import { requestHeader } from '@drawdown/http-kit';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './app-env.js';

export function authenticateRequests(
  useCases: Pick<UseCases, 'authenticate'>,
  environment: Environment,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { key, account } = await useCases.authenticate(requestHeader(c, 'authorization'), environment);
    c.set('apiKey', key);
    c.set('caller', { account, scope: { accountId: account.id, environment } });
    await next();
  };
}
