import type { Account, ApiKey, Caller, UseCases } from '@drawdown/billing-core';

/** What checking a request's key gave: the key and its account, or the refusal to throw. */
export type Authentication =
  | { readonly ok: true; readonly key: ApiKey; readonly account: Account }
  | { readonly ok: false; readonly refusal: unknown };

/** What each request carries through the middleware chain. */
export interface AppEnv {
  Variables: {
    requestId: string;
    /** The base URL this environment advertises, without a trailing slash. */
    publicBaseUrl: string;
    /**
     * Where this environment's customers reach the billing portal, without a trailing slash (ADR
     * 1440); with none configured, the environment's own `/portal`, which refuses (ADR 1472).
     */
    portalUrl: string;
    /** Whether the operator configured a portal for this environment (ADR 1472). */
    portalConfigured: boolean;
    /** Every use case, bound once by the composition root. */
    useCases: UseCases;
    apiKey: ApiKey;
    /** The authenticated account and environment the request acts for. */
    caller: Caller;
    /** The request's key as checked once (by the rate limit or the authentication middleware). */
    authentication: Authentication;
  };
}
