/**
 * @module
 * The `include` query parameter: a comma-separated list of related entities to embed. Each
 * endpoint names the values it honours; any other value is `invalid_field`, never ignored.
 */
import { BillingError } from '@drawdown/billing-core';
import type { Context } from 'hono';
import type { AppEnv } from './app-env.js';

export function parseIncludes<Name extends string>(c: Context<AppEnv>, allowed: readonly Name[]): ReadonlySet<Name> {
  const raw = new URL(c.req.url).searchParams.get('include');
  if (raw === null) return new Set();
  const values = raw
    .split(',')
    .map((value) => value.trim())
    .filter((value) => value !== '');
  const unknown = values.filter((value) => !(allowed as readonly string[]).includes(value));
  if (unknown.length > 0 || values.length === 0) {
    throw BillingError.invalidField(
      'include',
      allowed.length === 0
        ? 'is not offered on this endpoint'
        : `must be a comma-separated list of ${allowed.join(', ')}`,
    );
  }
  return new Set(values as Name[]);
}
