/**
 * @module
 * Customer portal sessions (ADR 1440) and the business of a customer.
 */
import type { CustomData } from './shared.js';

export interface CustomerPortalSession {
  /** `cpls_…`. */
  readonly id: string;
  readonly customerId: string;
  readonly urls: {
    readonly general: { readonly overview: string };
    readonly subscriptions: readonly {
      readonly id: string;
      readonly cancelSubscription: string;
      readonly updateSubscriptionPaymentMethod: string;
    }[];
  };
  readonly createdAt: string;
}

/** What `customerPortalSessions.verify` answers for a valid, unexpired token of this key's account and environment. */
export interface VerifiedPortalSession {
  readonly id: string;
  readonly customerId: string;
  readonly subscriptionIds: readonly string[];
  /** RFC 3339, on the environment's clock. */
  readonly expiresAt: string;
}

/** What portal session tokens are checked with (ADR 1443). */
export interface PortalSessionVerificationKey {
  /** The account of the API key that asked: a token of another account is not this portal's. */
  readonly accountId: string;
  readonly environment: 'live' | 'sandbox';
  readonly algorithm: 'Ed25519';
  /** The raw 32-byte public key, base64url (a JWK's `x`). */
  readonly publicKey: string;
}

export interface Business {
  readonly id: string;
  readonly customerId: string;
  readonly name: string;
  readonly companyNumber: string | null;
  readonly taxIdentifier: string | null;
  readonly status: 'active' | 'archived';
  readonly contacts: readonly { readonly name: string; readonly email: string }[];
  readonly customData: CustomData | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface CreateBusinessInput {
  readonly name: string;
  readonly companyNumber?: string | null;
  readonly taxIdentifier?: string | null;
}

export interface UpdateBusinessInput {
  readonly name?: string;
  readonly companyNumber?: string | null;
  readonly taxIdentifier?: string | null;
  readonly status?: 'active' | 'archived';
}
