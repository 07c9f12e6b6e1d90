/**
 * @module
 * The small vocabulary routes are written in: a permission guard and path-id reading.
 */
import { BillingError, type IdPrefix, isIdOf, type Permission, permits } from '@drawdown/billing-core';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from './app-env.js';

/** Refuses the request with `forbidden` unless the key holds `permission` (or its write). */
export function need(permission: Permission): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!permits(c.get('apiKey').permissions, permission)) {
      throw new BillingError('forbidden', `The API key lacks the ${permission} permission this operation needs.`);
    }
    await next();
  };
}

/** The path parameter `name`, which must be an id with `prefix`. */
export function pathId(c: Context<AppEnv>, prefix: IdPrefix, name = 'id'): string {
  const value = c.req.param(name) ?? '';
  if (!isIdOf(prefix, value))
    throw new BillingError('bad_request', `Invalid ${prefix}_ id in the path: ${JSON.stringify(value.slice(0, 64))}.`);
  return value;
}
