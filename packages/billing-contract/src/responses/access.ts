/**
 * @module
 * Response schemas of the tokens a browser or a customer uses: client-side tokens and customer
 * authentication tokens.
 */
import { z } from 'zod';
import { entity, id, nullableTimestamp, timestamp } from './common.js';

export const ClientToken = entity(
  'ClientToken',
  'A client-side token; `token` is public by design and shown whole (tokens made before issue 36 read masked).',
  z.strictObject({
    id: id('ctkn'),
    token: z.string().regex(/^(live|test)_/),
    name: z.string(),
    description: z.string().nullable(),
    status: z.enum(['active', 'revoked']),
    created_at: timestamp,
    updated_at: timestamp,
    revoked_at: nullableTimestamp,
  }),
);

export const CustomerAuthToken = entity(
  'CustomerAuthToken',
  'A short-lived token that lets one customer act for themselves.',
  z.strictObject({
    customer_auth_token: z.string().regex(/^pca_[a-z\d]{26}_[a-z\d]{26}_[A-Za-z\d]{32,64}$/),
    expires_at: timestamp,
  }),
);

/**
 * An API key as `api_key.*` events carry it (the public API's API key notification): never the
 * secret; `key` is the token's public part with the secret masked. Drawdown keys have no
 * description and do not record their last use, so both are null.
 */
export const ApiKeyEventData = entity(
  'ApiKeyEventData',
  'An API key as its events carry it: `key` is masked, never the secret.',
  z.strictObject({
    id: id('apikey'),
    name: z.string(),
    description: z.string().nullable(),
    key: z.string().regex(/^pdl_(live|sdbx)_apikey_[a-z\d_]*\*{4}$/),
    status: z.enum(['active', 'expired', 'revoked']),
    permissions: z.array(z.string().regex(/^[a-z_]+\.(read|write)$/)),
    expires_at: nullableTimestamp,
    last_used_at: nullableTimestamp,
    created_at: timestamp,
    updated_at: timestamp,
  }),
);
