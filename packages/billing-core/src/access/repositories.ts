/**
 * @module
 * Storage ports of access: accounts, API keys, client-side tokens and customer auth tokens.
 */
import type { CatalogueRepositories } from '../catalogue/repositories.js';
import type { EventRepositories } from '../events/repositories.js';

import type { ListQuery, Page } from '../shared/pagination.js';
import type { Environment, Scope } from '../shared/scope.js';
import type { Account, ApiKey, ClientToken } from './account.js';

export interface AccountRepository {
  insert(account: Account): Promise<void>;
  findById(id: string): Promise<Account | undefined>;
  list(): Promise<readonly Account[]>;
  /**
   * Records `accountId` as the installation's one demo account, unless one is recorded already
   * (by this process or another): true when this call recorded it. Run it in the transaction
   * that creates the account, so two first starts make one demo account between them.
   */
  claimDemoAccount(accountId: string, createdAt: string): Promise<boolean>;
  /** The demo account's id, when `drawdown init` (or `serve --demo`) made one. */
  demoAccountId(): Promise<string | undefined>;
}

export interface ApiKeyRepository {
  insert(key: ApiKey): Promise<void>;
  findById(id: string): Promise<ApiKey | undefined>;
  /** The key and its account in one read: authentication runs it on every request. */
  findWithAccount(id: string): Promise<{ readonly key: ApiKey; readonly account: Account | undefined } | undefined>;
  /** Marks the key revoked at `revokedAt`; false when no such key exists. */
  revoke(id: string, revokedAt: string): Promise<boolean>;
  listByAccount(accountId: string, environment?: Environment): Promise<readonly ApiKey[]>;
  /**
   * Accounts of `environment` with an unrevoked key owed an expiry notice: `api_key.expiring`
   * once it expires at or before `expiringUntil`, `api_key.expired` once at or before `now`.
   */
  findExpiryNoticeAccounts(environment: Environment, now: string, expiringUntil: string): Promise<readonly string[]>;
  /** The keys of one account environment owed a notice, held until commit; `notice` is the one already sent. */
  claimExpiryNotices(
    scope: Scope,
    now: string,
    expiringUntil: string,
  ): Promise<readonly { readonly key: ApiKey; readonly notice: ApiKeyExpiryNotice | null }[]>;
  setExpiryNotice(id: string, notice: ApiKeyExpiryNotice): Promise<void>;
}

export type ApiKeyExpiryNotice = 'expiring' | 'expired';

/** A client token as stored: the entity and the SHA-256 of the whole token (what a presented token is found by). */
export interface StoredClientToken {
  readonly token: ClientToken;
  readonly tokenHash: string;
}

export type ClientTokenColumn = 'id' | 'status';

export interface ClientTokenRepository {
  insert(scope: Scope, stored: StoredClientToken): Promise<void>;
  update(scope: Scope, token: ClientToken): Promise<void>;
  findById(scope: Scope, id: string): Promise<ClientToken | undefined>;
  findByIdForUpdate(scope: Scope, id: string): Promise<ClientToken | undefined>;
  list(scope: Scope, query: ListQuery<ClientTokenColumn>): Promise<Page<ClientToken>>;
  /** The token whose whole text hashes to `tokenHash`, in any account, with its scope. */
  findByHash(tokenHash: string): Promise<{ readonly scope: Scope; readonly token: ClientToken } | undefined>;
}

export interface StoredCustomerAuthToken {
  readonly id: string;
  readonly customerId: string;
  readonly tokenHash: string;
  readonly createdAt: string;
  readonly expiresAt: string;
}

export interface CustomerAuthTokenRepository {
  insert(scope: Scope, token: StoredCustomerAuthToken): Promise<void>;
  /** The token whose whole text hashes to `tokenHash`, in any account, with its scope. */
  findByHash(
    tokenHash: string,
  ): Promise<{ readonly scope: Scope; readonly token: StoredCustomerAuthToken } | undefined>;
  /** Deletes the scope's tokens that expired before `before`. */
  deleteExpired(scope: Scope, before: string): Promise<void>;
}

/** The repositories access owns. */
export interface AccessRepositories {
  readonly accounts: AccountRepository;
  readonly apiKeys: ApiKeyRepository;
  readonly clientTokens: ClientTokenRepository;
  readonly customerAuthTokens: CustomerAuthTokenRepository;
}

/** What access uses: its repositories, customers (customer auth tokens) and the event log. */
export interface AccessSlice extends AccessRepositories, Pick<CatalogueRepositories, 'customers'>, EventRepositories {}
