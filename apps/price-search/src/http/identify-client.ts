/**
 * @module
 * Who is calling: a Bearer API key names a paid plan; no Authorization header means the free plan, counted
 * by client address. A header that is present but wrong is refused rather than silently downgraded to free,
 * so a typo in a key is noticed at once.
 */
import { looksLikeApiKey } from '../keys/api-key.js';
import type { ClientIdentity } from '../metering/lookup-meter.js';
import { ApiError } from './api-error.js';
import type { KeyLookup } from './http-dependencies.js';

/** Resolves the client of a request. */
export function identifyClient(
  authorization: string | undefined,
  address: string | undefined,
  keys: KeyLookup,
): ClientIdentity {
  if (authorization === undefined || authorization.trim() === '') {
    // Without an address (never the case behind a real socket) all such clients share one free allowance.
    return { kind: 'anonymous', plan: 'free', address: address ?? 'unknown' };
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match?.[1]) {
    throw new ApiError('invalid_api_key', 'The Authorization header must be "Bearer <API key>".');
  }
  const rawKey = match[1];
  const stored = looksLikeApiKey(rawKey) ? keys.findByKey(rawKey) : undefined;
  if (stored === undefined) throw new ApiError('invalid_api_key', 'The API key is not valid.');
  if (stored.revokedAt !== undefined) throw new ApiError('invalid_api_key', 'The API key has been revoked.');
  return { kind: 'api_key', plan: stored.plan, keyId: stored.id };
}
