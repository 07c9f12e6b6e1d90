/**
 * @module
 * Accounts and their API keys. A key is shown once, as a token
 * `pdl_<live|sdbx>_apikey_<26 characters>_<secret>` (the reference API's format, so tools that
 * recognise it keep working); only a hash of the secret is stored.
 */
import { BillingError } from '../shared/billing-error.js';
import type { Clock } from '../shared/clock.js';
import { toTimestamp } from '../shared/clock.js';
import type { IdGenerator } from '../shared/ids.js';
import type { Store } from '../shared/repository.js';
import type { Environment } from '../shared/scope.js';
import type { Account, ApiKey } from './account.js';
import type { AuthenticatedKey, AuthenticatedKeyCache } from './authenticated-key-cache.js';
import { grantablePermissions, isPermission, type Permission, requiresEarlyAccess } from './permissions.js';

/** Randomness and hashing for key secrets; the service implements it with node:crypto. */
export interface KeySecrets {
  generateSecret(): string;
  hash(secret: string): string;
  /** Compares two hashes in constant time. */
  matches(hash: string, candidate: string): boolean;
}

export interface AccessDependencies {
  readonly store: Store;
  readonly ids: IdGenerator;
  readonly clock: Clock;
  readonly secrets: KeySecrets;
}

const TOKEN_PATTERN = /^pdl_(live|sdbx)_apikey_([a-z\d]{26})_([A-Za-z\d]{32,64})$/;
const ENVIRONMENT_TAG = { live: 'live', sandbox: 'sdbx' } as const satisfies Record<Environment, string>;

export async function createAccount(
  dependencies: AccessDependencies,
  input: { readonly name: string; readonly earlyAccess: boolean },
): Promise<Account> {
  const account: Account = {
    id: dependencies.ids.newId('acc'),
    name: input.name,
    earlyAccess: input.earlyAccess,
    createdAt: toTimestamp(dependencies.clock.now()),
  };
  await dependencies.store.accounts.insert(account);
  return account;
}

export interface CreateApiKeyInput {
  readonly accountId: string;
  readonly environment: Environment;
  readonly name: string;
  /** Permission names; `all` grants every permission the account may hold. */
  readonly permissions: readonly string[];
  readonly expiresAt?: string | null | undefined;
}

export async function createApiKey(
  dependencies: AccessDependencies,
  input: CreateApiKeyInput,
): Promise<{ readonly key: ApiKey; readonly token: string }> {
  const account = await dependencies.store.accounts.findById(input.accountId);
  if (!account) throw new BillingError('account_not_found', `Account ${input.accountId} not found.`);
  const permissions = resolvePermissions(account, input.permissions);
  const now = dependencies.clock.now();
  if (input.expiresAt != null && !(Date.parse(input.expiresAt) > now)) {
    throw BillingError.invalidField('expires_at', 'must be an RFC 3339 timestamp in the future');
  }
  const id = dependencies.ids.newId('apikey');
  const secret = dependencies.secrets.generateSecret();
  const key: ApiKey = {
    id,
    accountId: account.id,
    environment: input.environment,
    name: input.name,
    permissions,
    secretHash: dependencies.secrets.hash(secret),
    createdAt: toTimestamp(now),
    expiresAt: input.expiresAt == null ? null : toTimestamp(Date.parse(input.expiresAt)),
    revokedAt: null,
  };
  await dependencies.store.apiKeys.insert(key);
  const token = `pdl_${ENVIRONMENT_TAG[input.environment]}_apikey_${id.slice('apikey_'.length)}_${secret}`;
  return { key, token };
}

function resolvePermissions(account: Account, requested: readonly string[]): Permission[] {
  const grantable = grantablePermissions(account.earlyAccess);
  if (requested.includes('all')) return [...grantable];
  if (requested.length === 0) throw BillingError.invalidField('permissions', 'must name at least one permission');
  const permissions: Permission[] = [];
  for (const name of requested) {
    if (!isPermission(name)) throw BillingError.invalidField('permissions', `has an unknown permission ${name}`);
    if (requiresEarlyAccess(name) && !account.earlyAccess) {
      throw new BillingError(
        'permission_requires_early_access',
        `Permission ${name} is offered only to accounts in early access.`,
      );
    }
    if (!permissions.includes(name)) permissions.push(name);
  }
  return permissions;
}

/** What authenticating and revoking need besides the store: the cache of recently authenticated keys. */
export interface KeyAuthenticationDependencies extends AccessDependencies {
  readonly authenticatedKeys: AuthenticatedKeyCache;
}

/** Revokes a key: refused at once by this process, and within a second by every other (ADR 0710). */
export async function revokeApiKey(dependencies: KeyAuthenticationDependencies, keyId: string): Promise<void> {
  const revoked = await dependencies.store.apiKeys.revoke(keyId, toTimestamp(dependencies.clock.now()));
  dependencies.authenticatedKeys.forget(keyId);
  if (!revoked) throw new BillingError('api_key_not_found', `API key ${keyId} not found.`);
}

/**
 * Checks an Authorization header for a request to `environment` and returns the key and its
 * account. Each failure has its own code; a key of the other environment is `invalid_token`.
 */
export async function authenticate(
  dependencies: KeyAuthenticationDependencies,
  authorization: string | undefined,
  environment: Environment,
): Promise<{ readonly key: ApiKey; readonly account: Account }> {
  if (authorization === undefined || authorization.trim() === '') {
    throw new BillingError('authentication_missing', 'Send an Authorization header with the value Bearer <API key>.');
  }
  const [scheme, token, ...rest] = authorization.trim().split(/\s+/);
  const parsed = token === undefined ? null : TOKEN_PATTERN.exec(token);
  if (scheme?.toLowerCase() !== 'bearer' || rest.length > 0 || !parsed) {
    throw new BillingError(
      'authentication_malformed',
      'The Authorization header must be Bearer followed by an API key.',
    );
  }
  const [, tag, body, secret] = parsed as unknown as [string, string, string, string];
  // Made only when refusing: an error captures a stack trace, a real cost on every request.
  const invalid = () => new BillingError('invalid_token', 'The API key is not valid for this environment.');
  if (tag !== ENVIRONMENT_TAG[environment]) throw invalid();
  // The whole token is the cache key: only the exact secret that authenticated finds the entry.
  const tokenHash = dependencies.secrets.hash(token as string);
  const cached = dependencies.authenticatedKeys.find(tokenHash);
  const found = cached ?? (await readKey(dependencies, tokenHash, body, secret, environment, invalid));
  // Checked on every request, cached or not: a key may expire within the cache's second.
  if (cached) refuseIfExpired(cached.key, dependencies.clock.now());
  return found;
}

function refuseIfExpired(key: ApiKey, now: number): void {
  if (key.expiresAt !== null && Date.parse(key.expiresAt) <= now) {
    throw new BillingError('expired_token', 'The API key has expired.');
  }
}

/** Reads a key and its account, checks secret, environment and revocation, and caches a success. */
async function readKey(
  dependencies: KeyAuthenticationDependencies,
  tokenHash: string,
  body: string,
  secret: string,
  environment: Environment,
  invalid: () => BillingError,
): Promise<AuthenticatedKey> {
  const ticket = dependencies.authenticatedKeys.beginRead();
  const found = await dependencies.store.apiKeys.findWithAccount(`apikey_${body}`);
  const key = found?.key;
  if (!key || key.environment !== environment || !dependencies.secrets.matches(key.secretHash, secret)) throw invalid();
  if (key.revokedAt !== null) throw invalid();
  refuseIfExpired(key, dependencies.clock.now());
  const account = found?.account;
  if (!account) throw invalid();
  const authenticated = { key, account };
  dependencies.authenticatedKeys.remember(tokenHash, authenticated, ticket);
  return authenticated;
}
