import type { Environment } from '../shared/scope.js';
import type { Permission } from './permissions.js';

/** A tenant of the service. Both environments of an account share its settings, not its data. */
export interface Account {
  readonly id: string;
  readonly name: string;
  readonly earlyAccess: boolean;
  readonly createdAt: string;
}

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
