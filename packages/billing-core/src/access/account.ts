import type { Environment } from '../shared/scope.js';
import type { Permission } from './permissions.js';

/** The tenant, which every operation runs for, is shared by all features. */
export type { Account } from '../shared/scope.js';

/**
 * An API key as stored: the secret is kept only as a hash. A key works on one environment,
 * until it is revoked or its expiry passes.
 */
export interface ApiKey {
  readonly id: string;
  readonly accountId: string;
  readonly environment: Environment;
  readonly name: string;
  readonly permissions: readonly Permission[];
  readonly secretHash: string;
  readonly createdAt: string;
  readonly expiresAt: string | null;
  readonly revokedAt: string | null;
}

export const CLIENT_TOKEN_STATUSES = ['active', 'revoked'] as const;

export type ClientTokenStatus = (typeof CLIENT_TOKEN_STATUSES)[number];

export interface ClientToken {
  readonly id: string;
  /** `live_…` / `test_…`, whole (public by design); tokens stored before issue 36 are masked (`test_…a1b2`). */
  readonly token: string;
  readonly name: string;
  readonly description: string | null;
  readonly status: ClientTokenStatus;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly revokedAt: string | null;
}
