/**
 * @module
 * The use cases of access, bound once: accounts and keys (operator actions and every request's
 * authentication), client-side tokens and customer auth tokens (ADRs 1431, 1432).
 */
import { BillingError } from '../shared/billing-error.js';
import { toTimestamp } from '../shared/clock.js';
import type { Context } from '../shared/context.js';
import type { Account, Environment, Scope } from '../shared/scope.js';
import type { DueWorkKind, UseCaseBase } from '../shared/use-case-base.js';
import {
  API_KEY_EXPIRING_NOTICE_MS,
  authenticate,
  type CreateApiKeyInput,
  createAccount,
  createApiKey,
  type KeySecrets,
  noticeApiKeyExpiries,
  revokeApiKey,
} from './api-keys.js';
import type { AuthenticatedKeyCache } from './authenticated-key-cache.js';
import {
  authenticateClientToken,
  type CreateClientTokenInput,
  createClientToken,
  getClientToken,
  listClientTokens,
  type TokenContext,
  updateClientToken,
} from './client-tokens.js';
import { generateCustomerAuthToken, verifyCustomerAuthToken } from './customer-auth-tokens.js';
import { createDemoAccount, type DemoAccountRequest } from './demo-account.js';
import type { AccessSlice } from './repositories.js';

/** What access needs from the outside world. */
export interface AccessPorts {
  /** Randomness and hashing for API keys and tokens. */
  readonly secrets: KeySecrets;
  /** Keys that authenticated in this process within the last second (ADR 0710). */
  readonly authenticatedKeys: AuthenticatedKeyCache;
}

export function accessUseCases(base: UseCaseBase<Context<AccessSlice>>, ports: AccessPorts) {
  const { store } = base;
  const access = {
    store,
    ids: base.ids,
    clock: base.wallClock,
    secrets: ports.secrets,
    authenticatedKeys: ports.authenticatedKeys,
  };
  const tokenContext = (context: Context<AccessSlice>): TokenContext => ({ ...context, secrets: ports.secrets });

  async function requireAccount(accountId: string): Promise<Account> {
    const account = await store.accounts.findById(accountId);
    if (!account) throw new BillingError('account_not_found', `Account ${accountId} not found.`);
    return account;
  }

  return {
    createAccount: (input: { readonly name: string; readonly earlyAccess: boolean }) => createAccount(access, input),
    listAccounts: () => store.accounts.list(),
    requireAccount,
    createApiKey: (input: CreateApiKeyInput) => createApiKey(access, input),
    createDemoAccount: (request: DemoAccountRequest) => createDemoAccount(access, request),
    revokeApiKey: (keyId: string) => revokeApiKey(access, keyId),
    listApiKeys: async (accountId: string, environment?: Environment) => {
      await requireAccount(accountId);
      return store.apiKeys.listByAccount(accountId, environment);
    },
    authenticate: (authorization: string | undefined, environment: Environment) =>
      authenticate(access, authorization, environment),

    createClientToken: base.bind((context, input: CreateClientTokenInput) =>
      createClientToken(tokenContext(context), input),
    ),
    getClientToken: base.bind(getClientToken),
    listClientTokens: base.bind(listClientTokens),
    updateClientToken: base.bind(updateClientToken),
    generateCustomerAuthToken: base.bind((context, customerId: string) =>
      generateCustomerAuthToken(tokenContext(context), customerId),
    ),
    /** For pages a browser opens with a client-side token (the hosted checkout): its account environment. */
    authenticateClientToken: (environment: Environment, token: string) =>
      authenticateClientToken(store, ports.secrets, environment, token),
    /**
     * For pages that act for one customer: the customer a customer auth token was issued for in
     * `scope` (and for `customerId`, when given), refused once expired on that environment's clock.
     */
    verifyCustomerAuthToken: async (scope: Scope, token: string, customerId?: string) => {
      const context = await base.contextOf(scope);
      if (!context) {
        throw new BillingError('invalid_customer_auth_token', 'Invalid or expired customer authentication token.');
      }
      return verifyCustomerAuthToken(tokenContext(context), token, customerId);
    },
  };
}

/** Expiry notices of API keys (`api_key.expiring`, `api_key.expired`) as due work. */
export function apiKeyExpiryWork(store: Pick<AccessSlice, 'apiKeys'>): DueWorkKind<Context<AccessSlice>> {
  return {
    findDueAccounts: (environment, until) =>
      store.apiKeys.findExpiryNoticeAccounts(
        environment,
        until,
        toTimestamp(Date.parse(until) + API_KEY_EXPIRING_NOTICE_MS),
      ),
    run: noticeApiKeyExpiries,
  };
}
