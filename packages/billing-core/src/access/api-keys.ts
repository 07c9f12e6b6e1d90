/**
 * @module
 * Accounts and their API keys. A key is shown once, as a token
 * `pdl_<live|sdbx>_apikey_<26 characters>_<secret>` (the reference API's format, so tools that
 * recognise it keep working); only a hash of the secret is stored.
 */

import { BillingError } from '../shared/billing-error.js';
import type { Clock } from '../shared/clock.js';
import { toTimestamp } from '../shared/clock.js';
import type { Context, StoreOf } from '../shared/context.js';
import type { IdGenerator } from '../shared/ids.js';
import type { Environment } from '../shared/scope.js';
import type { Account, ApiKey } from './account.js';
import type { AuthenticatedKey, AuthenticatedKeyCache } from './authenticated-key-cache.js';
import { grantablePermissions, isPermission, type Permission, requiresEarlyAccess } from './permissions.js';
import type { AccessSlice } from './repositories.js';

/** Randomness and hashing for key secrets; the service implements it with node:crypto. */
export interface KeySecrets {
  generateSecret(): string;
  hash(secret: string): string;
  /** Compares two hashes in constant time. */
  matches(hash: string, candidate: string): boolean;
}

export interface AccessDependencies {
  readonly store: StoreOf<AccessSlice>;
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
  await dependencies.store.transaction(async (tx) => {
    await tx.apiKeys.insert(key);
    await recordApiKeyEvent(dependencies, tx, 'api_key.created', key, key.createdAt);
  });
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

/**
 * Revokes a key and records `api_key.revoked` (revoking a revoked key changes nothing): refused
 * at once by this process, and within a second by every other (ADR 0710).
 */
export async function revokeApiKey(dependencies: KeyAuthenticationDependencies, keyId: string): Promise<void> {
  const at = toTimestamp(dependencies.clock.now());
  try {
    await dependencies.store.transaction(async (tx) => {
      const key = await tx.apiKeys.findById(keyId);
      if (!key) throw new BillingError('api_key_not_found', `API key ${keyId} not found.`);
      if (key.revokedAt !== null) return;
      await tx.apiKeys.revoke(keyId, at);
      await recordApiKeyEvent(dependencies, tx, 'api_key.revoked', { ...key, revokedAt: at }, at);
    });
  } finally {
    dependencies.authenticatedKeys.forget(keyId);
  }
}

/** How long before its expiry a key's `api_key.expiring` is sent. */
export const API_KEY_EXPIRING_NOTICE_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Records `api_key.expiring` and `api_key.expired` for the scope's keys that are owed them on
 * the scope's clock. A key that expired before any notice gets only `api_key.expired`.
 */
export async function noticeApiKeyExpiries(context: Context<AccessSlice>): Promise<number> {
  const nowMs = context.clock.now();
  const now = toTimestamp(nowMs);
  const horizon = toTimestamp(nowMs + API_KEY_EXPIRING_NOTICE_MS);
  return context.store.transaction(async (tx) => {
    const due = await tx.apiKeys.claimExpiryNotices(context.scope, now, horizon);
    for (const { key } of due) {
      const expired = key.expiresAt !== null && key.expiresAt <= now;
      await tx.apiKeys.setExpiryNotice(key.id, expired ? 'expired' : 'expiring');
      await recordApiKeyEvent(context, tx, expired ? 'api_key.expired' : 'api_key.expiring', key, now);
    }
    return due.length;
  });
}

/** The status the reference gives a key: revoked wins over expired. */
export function apiKeyStatus(key: ApiKey, now: number): 'active' | 'expired' | 'revoked' {
  if (key.revokedAt !== null) return 'revoked';
  if (key.expiresAt !== null && Date.parse(key.expiresAt) <= now) return 'expired';
  return 'active';
}

/**
 * An API key as its events carry it: never the secret or its hash. `key` is masked as the
 * reference shows keys after creation (`pdl_live_apikey_01jkdpbhaz****`).
 */
export interface ApiKeyEventEntity {
  readonly id: string;
  readonly name: string;
  readonly description: null;
  readonly key: string;
  readonly status: 'active' | 'expired' | 'revoked';
  readonly permissions: readonly Permission[];
  readonly expiresAt: string | null;
  readonly lastUsedAt: null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export function apiKeyEventEntity(key: ApiKey, at: string): ApiKeyEventEntity {
  return {
    id: key.id,
    name: key.name,
    description: null,
    // As the public API masks keys: the prefix and the first ten characters of the id, then four stars.
    key: `pdl_${ENVIRONMENT_TAG[key.environment]}_apikey_${key.id.slice('apikey_'.length, 'apikey_'.length + 10)}****`,
    status: apiKeyStatus(key, Date.parse(at)),
    permissions: key.permissions,
    expiresAt: key.expiresAt,
    lastUsedAt: null,
    createdAt: key.createdAt,
    updatedAt: at,
  };
}

/** Writes an `api_key.*` event in the key's own account and environment. */
export async function recordApiKeyEvent(
  dependencies: { readonly ids: IdGenerator },
  tx: AccessSlice,
  eventType: 'api_key.created' | 'api_key.revoked' | 'api_key.expiring' | 'api_key.expired',
  key: ApiKey,
  at: string,
): Promise<void> {
  await tx.events.append(
    { accountId: key.accountId, environment: key.environment },
    {
      id: dependencies.ids.newId('evt'),
      eventType,
      occurredAt: at,
      entityKind: 'api_key',
      entity: apiKeyEventEntity(key, at),
    },
  );
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
