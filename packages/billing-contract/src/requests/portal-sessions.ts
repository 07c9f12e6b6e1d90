/**
 * @module
 * Request bodies of customer portal sessions (ADR 1440).
 */
import { z } from 'zod';
import { idOf } from './common.js';

/** `POST /customers/{id}/portal-sessions`: the body is optional; each id gets its deep links. */
export const CreatePortalSessionBody = z.strictObject({
  subscription_ids: z.array(idOf('sub')).max(25).optional(),
});

/** `POST /customer-portal-sessions/verify` (a Drawdown extension): the token from a session URL. */
export const VerifyPortalSessionBody = z.strictObject({
  token: z.string().min(1).max(2_048),
});
