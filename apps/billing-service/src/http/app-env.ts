import type { ApiKey, OperationContext } from '@drawdown/billing-core';

/** What each request carries through the middleware chain. */
export interface AppEnv {
  Variables: {
    requestId: string;
    /** The base URL this environment advertises, without a trailing slash. */
    publicBaseUrl: string;
    apiKey: ApiKey;
    context: OperationContext;
  };
}
