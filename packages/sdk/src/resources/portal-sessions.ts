/**
 * @module
 * Customer portal sessions and customers' businesses.
 */
import type { Collection } from '../core/collection.js';
import type { RequestOptions } from '../core/http-client.js';
import type {
  Business,
  CreateBusinessInput,
  CustomerPortalSession,
  PortalSessionVerificationKey,
  UpdateBusinessInput,
  VerifiedPortalSession,
} from '../types/portal-sessions.js';
import type { PageParams } from '../types/shared.js';
import { Resource, segment } from './resource.js';

export class CustomerPortalSessionsResource extends Resource {
  /** Signed, expiring links into the billing portal for one customer, with deep links per subscription. */
  create(
    customerId: string,
    input: { readonly subscriptionIds?: readonly string[] } = {},
    options?: RequestOptions,
  ): Promise<CustomerPortalSession> {
    return this.data({
      method: 'POST',
      path: `/customers/${segment(customerId)}/portal-sessions`,
      body: input,
      ...options,
    });
  }

  /**
   * The Ed25519 public key that signs session tokens, with this key's account and environment:
   * what a portal checks a token with before it calls `verify` (ADR 1443).
   */
  verificationKey(options?: RequestOptions): Promise<PortalSessionVerificationKey> {
    return this.data({ method: 'GET', path: '/customer-portal-sessions/verification-key', ...options });
  }

  /**
   * Checks a session URL's token: signed by this service, for this key's account and environment,
   * not expired. Refused with `portal_session_invalid` (404) or `portal_session_expired` (410).
   */
  verify(token: string, options?: RequestOptions): Promise<VerifiedPortalSession> {
    return this.data({ method: 'POST', path: '/customer-portal-sessions/verify', body: { token }, ...options });
  }
}

/** A customer's businesses, at `/customers/{customerId}/businesses`. */
export class BusinessesResource extends Resource {
  #path(customerId: string, id?: string): string {
    const base = `/customers/${segment(customerId)}/businesses`;
    return id === undefined ? base : `${base}/${segment(id)}`;
  }

  list(
    customerId: string,
    params?: PageParams & { readonly status?: readonly ('active' | 'archived')[] },
    options?: RequestOptions,
  ): Collection<Business> {
    return this.collection<Business>(this.#path(customerId), params, options);
  }

  create(customerId: string, input: CreateBusinessInput, options?: RequestOptions): Promise<Business> {
    return this.data({ method: 'POST', path: this.#path(customerId), body: input, ...options });
  }

  get(customerId: string, id: string, options?: RequestOptions): Promise<Business> {
    return this.data({ method: 'GET', path: this.#path(customerId, id), ...options });
  }

  update(customerId: string, id: string, input: UpdateBusinessInput, options?: RequestOptions): Promise<Business> {
    return this.data({ method: 'PATCH', path: this.#path(customerId, id), body: input, ...options });
  }
}
