/**
 * @module
 * Who is calling: an API key, sent as `Authorization: Bearer <key>` or as `X-API-Key: <key>` (what the real
 * product's SDKs send), names a paid plan; neither header means the free plan, counted by client address. A header that is present but wrong is refused rather than silently downgraded to free,
 * so a typo in a key is noticed at once.
 */
import { looksLikeApiKey } from '../keys/api-key.js';
import type { ClientIdentity } from '../metering/lookup-meter.js';
import { ApiError } from './api-error.js';
import type { KeyLookup } from './http-dependencies.js';

/** Resolves the client of a request. */
export function identifyClient(
  headers: { readonly authorization: string | undefined; readonly apiKey: string | undefined },
  address: string | undefined,
  keys: KeyLookup,
): ClientIdentity {
  const bearer = bearerKey(headers.authorization);
  const header = headers.apiKey?.trim() || undefined;
  if (bearer !== undefined && header !== undefined && bearer !== header) {
    throw new ApiError('invalid_api_key', 'Authorization and X-API-Key name different keys; send one key.');
  }
  const rawKey = bearer ?? header;
  if (rawKey === undefined) {
    // Without an address (never the case behind a real socket) all such clients share one free allowance.
    return { kind: 'anonymous', plan: 'free', address: address ?? 'unknown' };
  }
  const stored = looksLikeApiKey(rawKey) ? keys.findByKey(rawKey) : undefined;
  if (stored === undefined) throw new ApiError('invalid_api_key', 'The API key is not valid.');
  if (stored.revokedAt !== undefined) throw new ApiError('invalid_api_key', 'The API key has been revoked.');
  return { kind: 'api_key', plan: stored.plan, keyId: stored.id };
}

function bearerKey(authorization: string | undefined): string | undefined {
  if (authorization === undefined || authorization.trim() === '') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match?.[1]) {
    throw new ApiError('invalid_api_key', 'The Authorization header must be "Bearer <API key>".');
  }
  return match[1];
}
