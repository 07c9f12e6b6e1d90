/**
 * @module
 * Request bodies of the client-side token endpoints (`POST /client-tokens`, `PATCH
 * /client-tokens/{id}`). `POST /customers/{id}/auth-token` takes no body.
 */
import { z } from 'zod';
import { description } from './common.js';

export const CreateClientTokenBody = z.strictObject({
  name: z.string().trim().min(1).max(150),
  description: description.nullable().optional(),
});

/** Only `status` changes, and only to `revoked` for good (a revoked token is refused `active`). */
export const UpdateClientTokenBody = z.strictObject({
  status: z.enum(['active', 'revoked']),
});
