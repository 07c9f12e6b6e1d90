/**
 * @module
 * Client-side tokens (`/client-tokens`): create, get, list and revoke. A revoked token stays
 * revoked. Customer authentication tokens are issued by `customers.generateAuthToken`.
 */
import type { Collection } from '../core/collection.js';
import type { RequestOptions } from '../core/http-client.js';
import type { ClientToken, CreateClientTokenInput, ListClientTokensParams } from '../types/tokens.js';
import { Resource, segment } from './resource.js';

export class ClientTokensResource extends Resource {
  /** Lists tokens, newest first, lazily paged; active ones unless `status` says otherwise. */
  list(params?: ListClientTokensParams, options?: RequestOptions): Collection<ClientToken> {
    return this.collection<ClientToken>('/client-tokens', params ?? undefined, options);
  }

  /** The answer is the only place the whole token ever appears: keep it. */
  create(input: CreateClientTokenInput, options?: RequestOptions): Promise<ClientToken> {
    return this.data({ method: 'POST', path: '/client-tokens', body: input, ...options });
  }

  get(id: string, options?: RequestOptions): Promise<ClientToken> {
    return this.data({ method: 'GET', path: `/client-tokens/${segment(id)}`, ...options });
  }

  /** Sets `status` to `revoked`, for good. */
  revoke(id: string, options?: RequestOptions): Promise<ClientToken> {
    return this.data({
      method: 'PATCH',
      path: `/client-tokens/${segment(id)}`,
      body: { status: 'revoked' },
      ...options,
    });
  }
}
