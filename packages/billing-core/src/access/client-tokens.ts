/**
 * @module
 * Client-side tokens (ADR 1431): the public tokens a browser page (the hosted checkout, as the
 * public API's browser library does) authenticates with. `live_` or `test_` by environment and
 * random after that. It is public by design (it sits in a web page's source), so reads, lists and
 * events show it whole, as the public API does (issue 36); it is looked up by its hash. Tokens
 * made before that change were stored masked and read masked. A revoked token stays revoked, and
 * a token authenticates only in its own account and environment.
 */

import { recordEvent } from '../events/record-event.js';
import { BillingError } from '../shared/billing-error.js';
import { type Context, nowTimestamp } from '../shared/context.js';
import type { ListQuery, Page } from '../shared/pagination.js';
import type { Environment, Scope } from '../shared/scope.js';
import type { ClientToken, ClientTokenStatus } from './account.js';
import type { KeySecrets } from './api-keys.js';
import type { AccessSlice, ClientTokenColumn } from './repositories.js';

/** What the token use cases need beyond an operation: randomness and hashing. */
export interface TokenContext extends Context<AccessSlice> {
  readonly secrets: Pick<KeySecrets, 'generateSecret' | 'hash'>;
}

const TOKEN_TAG = { live: 'live', sandbox: 'test' } as const satisfies Record<Environment, string>;
const CLIENT_TOKEN_PATTERN = /^(live|test)_[a-z\d]{32}$/;

/** 32 lowercase letters and digits from the secret source (about 165 bits). */
function tokenBody(secrets: TokenContext['secrets']): string {
  let body = '';
  while (body.length < 32)
    body += secrets
      .generateSecret()
      .toLowerCase()
      .replace(/[^a-z\d]/g, '');
  return body.slice(0, 32);
}

export interface CreateClientTokenInput {
  readonly name: string;
  readonly description?: string | null | undefined;
}

/** Creates an active token. */
export async function createClientToken(context: TokenContext, input: CreateClientTokenInput): Promise<ClientToken> {
  const whole = `${TOKEN_TAG[context.scope.environment]}_${tokenBody(context.secrets)}`;
  const now = nowTimestamp(context);
  const token: ClientToken = {
    id: context.ids.newId('ctkn'),
    token: whole,
    name: input.name,
    description: input.description ?? null,
    status: 'active',
    createdAt: now,
    updatedAt: now,
    revokedAt: null,
  };
  await context.store.transaction(async (tx) => {
    await tx.clientTokens.insert(context.scope, { token, tokenHash: context.secrets.hash(whole) });
    await recordEvent(context, tx, 'client_token.created', 'client_token', token);
  });
  return token;
}

export async function getClientToken(context: Context<AccessSlice>, id: string): Promise<ClientToken> {
  const token = await context.store.clientTokens.findById(context.scope, id);
  if (!token) throw BillingError.notFound('Client token', id);
  return token;
}

export function listClientTokens(
  context: Context<AccessSlice>,
  query: ListQuery<ClientTokenColumn>,
): Promise<Page<ClientToken>> {
  return context.store.clientTokens.list(context.scope, query);
}

export interface UpdateClientTokenInput {
  readonly status?: ClientTokenStatus | undefined;
}

/**
 * Revokes a token (`status: revoked`); asking for the status it has changes nothing.
 * @throws BillingError `client_token_revoked` when asked to make a revoked token active.
 */
export async function updateClientToken(
  context: Context<AccessSlice>,
  id: string,
  input: UpdateClientTokenInput,
): Promise<ClientToken> {
  return context.store.transaction(async (tx) => {
    const current = await tx.clientTokens.findByIdForUpdate(context.scope, id);
    if (!current) throw BillingError.notFound('Client token', id);
    if (input.status === undefined || input.status === current.status) return current;
    if (current.status === 'revoked') {
      throw new BillingError('client_token_revoked', `Client token ${id} is revoked and cannot be made active again.`, [
        { field: 'status', message: 'a revoked client token stays revoked' },
      ]);
    }
    const now = nowTimestamp(context);
    const next: ClientToken = { ...current, status: 'revoked', revokedAt: now, updatedAt: now };
    await tx.clientTokens.update(context.scope, next);
    // As the public API does for status changes: the entity was updated, and revoked.
    await recordEvent(context, tx, 'client_token.updated', 'client_token', next);
    await recordEvent(context, tx, 'client_token.revoked', 'client_token', next);
    return next;
  });
}

/**
 * The account environment an active client token belongs to, for pages that authenticate with
 * one (the hosted checkout). Refused when the token is malformed, unknown, revoked, or of the
 * other environment than the one it is presented to.
 * @throws BillingError `invalid_client_token`.
 */
export async function authenticateClientToken(
  store: Context<AccessSlice>['store'],
  secrets: Pick<KeySecrets, 'hash'>,
  environment: Environment,
  presented: string,
): Promise<{ readonly scope: Scope; readonly token: ClientToken }> {
  const refuse = () => new BillingError('invalid_client_token', 'Invalid, revoked or expired client-side token.');
  const match = CLIENT_TOKEN_PATTERN.exec(presented);
  if (!match || match[1] !== TOKEN_TAG[environment]) throw refuse();
  const found = await store.clientTokens.findByHash(secrets.hash(presented));
  if (!found || found.scope.environment !== environment || found.token.status !== 'active') throw refuse();
  return found;
}
