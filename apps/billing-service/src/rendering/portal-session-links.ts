/**
 * @module
 * Customer portal session tokens and URLs (ADR 1440). A token is the session's claims as text,
 * base64url, a dot, and the HMAC-SHA256 of that text under the deployment's link-signing key
 * (the invoice links' key: the payload's first line, `drawdown-portal-session-v1`, keeps the
 * kinds apart). The portal never holds the key: it sends the token back to
 * `POST /customer-portal-sessions/verify`, where the signature, the account and environment and
 * the expiry (on the environment's clock) are checked.
 */
import { type PortalSessionClaims, parsePortalSessionPayload, portalSessionPayload } from '@drawdown/billing-core';
import type { InvoiceLinkSigner } from './invoice-links.js';

type PayloadSigner = Pick<InvoiceLinkSigner, 'signPayload' | 'matchesPayload'>;

const TOKEN_PATTERN = /^([A-Za-z\d_-]{1,2000})\.([A-Za-z\d_-]{43})$/;

/** The token of a session: its payload and signature, both base64url, URL-safe as is. */
export async function portalSessionToken(signer: PayloadSigner, claims: PortalSessionClaims): Promise<string> {
  const payload = portalSessionPayload(claims);
  return `${Buffer.from(payload, 'utf8').toString('base64url')}.${await signer.signPayload(payload)}`;
}

/** The claims of a token signed here, else null (malformed, altered, or another deployment's). Expiry is not checked. */
export async function readPortalSessionToken(
  signer: PayloadSigner,
  token: string,
): Promise<PortalSessionClaims | null> {
  const match = TOKEN_PATTERN.exec(token);
  if (!match) return null;
  const [, encoded = '', signature = ''] = match;
  const payload = Buffer.from(encoded, 'base64url').toString('utf8');
  // Only the canonical spelling: re-encoding must give back the text that was sent.
  if (Buffer.from(payload, 'utf8').toString('base64url') !== encoded) return null;
  if (!(await signer.matchesPayload(payload, signature))) return null;
  return parsePortalSessionPayload(payload);
}

/** A session's URLs on the portal's public address (no trailing slash). */
export function portalSessionUrls(
  portalUrl: string,
  token: string,
  subscriptionIds: readonly string[],
): {
  general: { overview: string };
  subscriptions: { id: string; cancelSubscription: string; updateSubscriptionPaymentMethod: string }[];
} {
  const link = (action: string, subscriptionId?: string) => {
    const query = new URLSearchParams({
      action,
      ...(subscriptionId ? { subscription_id: subscriptionId } : {}),
      token,
    });
    return `${portalUrl}/session?${query.toString()}`;
  };
  return {
    general: { overview: link('overview') },
    subscriptions: subscriptionIds.map((id) => ({
      id,
      cancelSubscription: link('cancel_subscription', id),
      updateSubscriptionPaymentMethod: link('update_subscription_payment_method', id),
    })),
  };
}

/**
 * A subscription's `management_urls`: pages of the portal behind its own sign-in (no token, so
 * they can be stored and sent in webhooks). Manually collected subscriptions have no payment
 * method to update (null, as in the public API).
 */
export function managementUrls(
  portalUrl: string,
  subscription: { readonly id: string; readonly collectionMode: string },
): { updatePaymentMethod: string | null; cancel: string } {
  const base = `${portalUrl}/subscriptions/${subscription.id}`;
  return {
    updatePaymentMethod: subscription.collectionMode === 'automatic' ? `${base}/payment-method` : null,
    cancel: `${base}/cancel`,
  };
}
