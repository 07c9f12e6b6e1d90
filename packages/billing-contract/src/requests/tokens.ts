/**
 * @module
 * Request bodies of the client-side token endpoints (`POST /client-tokens`, `PATCH
 * /client-tokens/{id}`), and `POST /customers/{id}/auth-token`, which takes no fields.
 */
import { z } from 'zod';

export const CreateClientTokenBody = z.strictObject({
  name: z.string().trim().min(1).max(150),
  /** 1–500 characters, as the public API documents. */
  description: z.string().min(1).max(500).nullable().optional(),
});

/** `POST /customers/{id}/auth-token`: empty (the SDK sends no body); any field is refused, not ignored. */
export const GenerateCustomerAuthTokenBody = z.strictObject({});

/** Only `status` changes, and only to `revoked` for good (a revoked token is refused `active`). */
export const UpdateClientTokenBody = z.strictObject({
  status: z.enum(['active', 'revoked']),
});
