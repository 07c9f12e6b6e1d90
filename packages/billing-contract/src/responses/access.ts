/**
 * @module
 * Response schemas of the tokens a browser or a customer uses: client-side tokens and customer
 * authentication tokens.
 */
import { z } from 'zod';
import { entity, id, nullableTimestamp, timestamp } from './common.js';

export const ClientToken = entity(
  'ClientToken',
  'A client-side token; `token` is whole only in the create answer, masked to its last four characters after.',
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
