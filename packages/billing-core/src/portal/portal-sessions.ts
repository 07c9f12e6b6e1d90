/**
 * @module
 * Customer portal sessions (ADR 1440). A session is a signed, expiring grant that lets one
 * customer into the billing portal without signing in there: the core checks the customer and
 * the subscriptions it deep-links to, and decides the claims; the service signs them into a
 * token and builds the URLs; the portal hands the token back to the service to verify it. Nothing
 * is stored: a session is its token, valid for one hour of the account environment's clock (so a
 * sandbox clock moved forward expires it as live time would).
 */
import { BillingError } from '../shared/billing-error.js';
import { toTimestamp } from '../shared/clock.js';
import type { Context } from '../shared/context.js';
import { isIdOf } from '../shared/ids.js';
import type { Scope } from '../shared/scope.js';
import type { PortalSlice } from './repositories.js';

export const PORTAL_SESSION_LIFETIME_MS = 60 * 60 * 1000;
/** The public API's limit on deep-linked subscriptions per session. */
export const MAX_PORTAL_SESSION_SUBSCRIPTIONS = 25;

/** What a portal session token carries. */
export interface PortalSessionClaims {
  /** `cpls_…`: names the session in the response; never stored. */
  readonly sessionId: string;
  readonly accountId: string;
  readonly environment: Scope['environment'];
  readonly customerId: string;
  /** The subscriptions the session deep-links to (each the customer's). */
  readonly subscriptionIds: readonly string[];
  /** Milliseconds since the epoch, on the account environment's clock. */
  readonly issuedAt: number;
  readonly expiresAt: number;
}

/** The exact text a token's signature covers: every claim, in a fixed order, newline-separated. */
export function portalSessionPayload(claims: PortalSessionClaims): string {
  return [
    'drawdown-portal-session-v1',
    claims.sessionId,
    claims.accountId,
    claims.environment,
    claims.customerId,
    claims.subscriptionIds.join(','),
    String(claims.issuedAt),
    String(claims.expiresAt),
  ].join('\n');
}

/** Reads the claims back from a payload text; null when it is not one `portalSessionPayload` wrote. */
export function parsePortalSessionPayload(text: string): PortalSessionClaims | null {
  const parts = text.split('\n');
  if (parts.length !== 8 || parts[0] !== 'drawdown-portal-session-v1') return null;
  const [
    ,
    sessionId = '',
    accountId = '',
    environment = '',
    customerId = '',
    subscriptions = '',
    issued = '',
    expires = '',
  ] = parts;
  const subscriptionIds = subscriptions === '' ? [] : subscriptions.split(',');
  if (
    !isIdOf('cpls', sessionId) ||
    !isIdOf('acc', accountId) ||
    (environment !== 'live' && environment !== 'sandbox') ||
    !isIdOf('ctm', customerId) ||
    subscriptionIds.length > MAX_PORTAL_SESSION_SUBSCRIPTIONS ||
    !subscriptionIds.every((id) => isIdOf('sub', id)) ||
    !/^[1-9]\d{0,15}$/.test(issued) ||
    !/^[1-9]\d{0,15}$/.test(expires)
  ) {
    return null;
  }
  return {
    sessionId,
    accountId,
    environment,
    customerId,
    subscriptionIds,
    issuedAt: Number(issued),
    expiresAt: Number(expires),
  };
}

/**
 * Decides a new session for the customer: the customer must exist in the caller's scope
 * (`not_found`), and each subscription id must name one of that customer's subscriptions there
 * (`subscription_not_found`, the same answer for another customer's, another account's or an
 * unknown one). Repeated ids are kept once, in the order first given.
 */
export async function createPortalSession(
  context: Context<PortalSlice>,
  customerId: string,
  subscriptionIds: readonly string[],
): Promise<PortalSessionClaims> {
  const customer = await context.store.customers.findById(context.scope, customerId);
  if (!customer) throw BillingError.notFound('Customer', customerId);
  const unique = [...new Set(subscriptionIds)];
  for (const id of unique) {
    const subscription = isIdOf('sub', id) ? await context.store.subscriptions.findById(context.scope, id) : undefined;
    if (!subscription || subscription.customerId !== customerId) {
      throw new BillingError(
        'subscription_not_found',
        `Subscription ${id} is not a subscription of customer ${customerId}.`,
      );
    }
  }
  const now = context.clock.now();
  return {
    sessionId: context.ids.newId('cpls'),
    accountId: context.scope.accountId,
    environment: context.scope.environment,
    customerId,
    subscriptionIds: unique,
    issuedAt: now,
    expiresAt: now + PORTAL_SESSION_LIFETIME_MS,
  };
}

/** A verified session as the portal sees it. */
export interface PortalSessionGrant {
  readonly sessionId: string;
  readonly customerId: string;
  readonly subscriptionIds: readonly string[];
  /** RFC 3339. */
  readonly expiresAt: string;
}

/**
 * Accepts claims whose signature the service already checked: they must be the caller's account
 * and environment (a portal key of another account learns nothing) and unexpired on the
 * environment's clock, and the customer must still exist.
 *
 * @throws BillingError `portal_session_invalid` for another scope, `portal_session_expired` past the expiry.
 */
export async function acceptPortalSession(
  context: Context<PortalSlice>,
  claims: PortalSessionClaims | null,
): Promise<PortalSessionGrant> {
  if (!claims || claims.accountId !== context.scope.accountId || claims.environment !== context.scope.environment) {
    throw new BillingError(
      'portal_session_invalid',
      'The portal session token is malformed or its signature does not match: it was altered or not issued here.',
    );
  }
  if (context.clock.now() >= claims.expiresAt) {
    throw new BillingError('portal_session_expired', 'The portal session has expired; create a new one.');
  }
  const customer = await context.store.customers.findById(context.scope, claims.customerId);
  if (!customer) throw new BillingError('portal_session_invalid', 'The portal session’s customer no longer exists.');
  return {
    sessionId: claims.sessionId,
    customerId: claims.customerId,
    subscriptionIds: claims.subscriptionIds,
    expiresAt: toTimestamp(claims.expiresAt),
  };
}
