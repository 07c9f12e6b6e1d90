/**
 * @module
 * Client-side tokens and customer authentication tokens (the service's ADRs 1431 and 1432).
 */

export type ClientTokenStatus = 'active' | 'revoked';

export interface ClientToken {
  readonly id: string;
  /** `live_…` or `test_…`, whole: client-side tokens are public (tokens made before issue 36 read masked). */
  readonly token: string;
  readonly name: string;
  readonly description: string | null;
  readonly status: ClientTokenStatus;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly revokedAt: string | null;
}

export interface CreateClientTokenInput {
  readonly name: string;
  readonly description?: string | null;
}

export interface ListClientTokensParams {
  readonly after?: string;
  readonly perPage?: number;
  readonly orderBy?: 'id[ASC]' | 'id[DESC]';
  /** Defaults to `['active']`. */
  readonly status?: readonly ClientTokenStatus[];
}

export interface CustomerAuthToken {
  /** Pass to the hosted checkout to show the customer's saved payment methods; valid 30 minutes. */
  readonly customerAuthToken: string;
  readonly expiresAt: string;
}
