/**
 * @module
 * eBay application tokens (OAuth client credentials). A token lives 7,200 s and eBay allows far fewer token
 * grants than searches per day, so the token is cached until shortly before it expires, and concurrent
 * lookups share one grant request.
 */
import { z } from 'zod';
import type { Clock } from '../shared/clock.js';
import { EbayApiError, ebayErrorDetail } from './ebay-error.js';

/** Scope of the Browse API for application tokens. */
export const EBAY_PUBLIC_SCOPE = 'https://api.ebay.com/oauth/api_scope';

// Refresh a minute early so a token never expires between the check and eBay receiving it.
const EXPIRY_MARGIN_MS = 60_000;

const TokenResponse = z.object({
  access_token: z.string().min(1),
  expires_in: z.number().positive(),
  token_type: z.string().optional(),
});

/** Options of the token provider. */
export interface EbayTokenProviderOptions {
  readonly baseUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly clock: Clock;
  readonly fetch?: typeof fetch;
}

/** Fetches and caches eBay application tokens. */
export class EbayTokenProvider {
  #cached: { token: string; expiresAt: number } | undefined;
  #pending: Promise<string> | undefined;

  constructor(private readonly options: EbayTokenProviderOptions) {}

  /** A valid token, from the cache when possible. */
  async token(signal: AbortSignal): Promise<string> {
    const now = this.options.clock.now().getTime();
    if (this.#cached !== undefined && now < this.#cached.expiresAt) return this.#cached.token;
    this.#pending ??= this.#grant(signal).finally(() => {
      this.#pending = undefined;
    });
    return this.#pending;
  }

  /** Forgets the cached token (after eBay answered 401 with it). */
  invalidate(): void {
    this.#cached = undefined;
  }

  async #grant(signal: AbortSignal): Promise<string> {
    const { baseUrl, clientId, clientSecret, clock } = this.options;
    const doFetch = this.options.fetch ?? fetch;
    const response = await doFetch(new URL('/identity/v1/oauth2/token', baseUrl), {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: EBAY_PUBLIC_SCOPE }).toString(),
      signal,
    });
    if (!response.ok) throw new EbayApiError('token', response.status, await ebayErrorDetail(response));
    const parsed = TokenResponse.safeParse(await response.json());
    if (!parsed.success) throw new EbayApiError('token', response.status, 'unexpected token response');
    const grantedAt = clock.now().getTime();
    this.#cached = {
      token: parsed.data.access_token,
      expiresAt: grantedAt + parsed.data.expires_in * 1000 - EXPIRY_MARGIN_MS,
    };
    return parsed.data.access_token;
  }
}
