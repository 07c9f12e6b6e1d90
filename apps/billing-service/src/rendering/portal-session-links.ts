/**
 * @module
 * Customer portal session tokens and URLs (ADR 1440, signatures ADR 1443). A token is the
 * session's claims as text, base64url, a dot, and an Ed25519 signature of that text (64 bytes,
 * base64url). The private key is the deployment's: its 32-byte seed is a named secret made on
 * first use and kept in the database (as the invoice links' key is), so every process signs
 * alike. The public key is not a secret: `GET /customer-portal-sessions/verification-key` gives
 * it to the billing portal, which checks a token's signature, account, environment and expiry
 * itself before it calls `POST /customer-portal-sessions/verify`, so that a link nobody signed
 * costs the service nothing.
 */
import { createPrivateKey, createPublicKey, type KeyObject, randomBytes, sign, verify } from 'node:crypto';
import { type PortalSessionClaims, parsePortalSessionPayload, portalSessionPayload } from '@drawdown/billing-core';
import type { ObtainSecret } from './invoice-links.js';

export const PORTAL_SESSION_SECRET_NAME = 'portal_session_signing_seed';

/** base64url of the payload, a dot, base64url of a 64-byte Ed25519 signature (86 characters). */
const TOKEN_PATTERN = /^([A-Za-z\d_-]{1,2000})\.([A-Za-z\d_-]{86})$/;
/** PKCS #8 DER of an Ed25519 private key, up to its 32-byte seed (RFC 8410). */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** Signs portal session payloads and checks signatures; the public key is what the portal verifies with. */
export interface PortalSessionSigner {
  /** The Ed25519 signature of `payload`, base64url. */
  sign(payload: string): Promise<string>;
  /** Whether `signature` (base64url, canonical spelling only) is this deployment's signature of `payload`. */
  matches(payload: string, signature: string): Promise<boolean>;
  /** The raw 32-byte public key, base64url. */
  publicKey(): Promise<string>;
}

export function createPortalSessionSigner(obtainSecret: ObtainSecret): PortalSessionSigner {
  let keys: Promise<{ privateKey: KeyObject; publicKey: KeyObject; raw: string }> | undefined;
  /** The key pair, read (or created) once per process; a failed read is tried again next time. */
  function keyPair() {
    if (!keys) {
      keys = obtainSecret(PORTAL_SESSION_SECRET_NAME, randomBytes(32).toString('base64url')).then((value) => {
        const seed = Buffer.from(value, 'base64url');
        if (seed.length !== 32) throw new Error(`The ${PORTAL_SESSION_SECRET_NAME} secret is not 32 bytes.`);
        const privateKey = createPrivateKey({
          key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]),
          format: 'der',
          type: 'pkcs8',
        });
        const publicKey = createPublicKey(privateKey);
        const raw = String(publicKey.export({ format: 'jwk' }).x);
        return { privateKey, publicKey, raw };
      });
      keys.catch(() => {
        keys = undefined;
      });
    }
    return keys;
  }
  return {
    async sign(payload) {
      return sign(null, Buffer.from(payload, 'utf8'), (await keyPair()).privateKey).toString('base64url');
    },
    async matches(payload, signature) {
      const bytes = Buffer.from(signature, 'base64url');
      // Only the canonical spelling (the last character carries four unused bits).
      if (bytes.length !== 64 || bytes.toString('base64url') !== signature) return false;
      return verify(null, Buffer.from(payload, 'utf8'), (await keyPair()).publicKey, bytes);
    },
    async publicKey() {
      return (await keyPair()).raw;
    },
  };
}

/** The token of a session: its payload and signature, both base64url, URL-safe as is. */
export async function portalSessionToken(signer: PortalSessionSigner, claims: PortalSessionClaims): Promise<string> {
  const payload = portalSessionPayload(claims);
  return `${Buffer.from(payload, 'utf8').toString('base64url')}.${await signer.sign(payload)}`;
}

/** The claims of a token signed here, else null (malformed, altered, or another deployment's). Expiry is not checked. */
export async function readPortalSessionToken(
  signer: PortalSessionSigner,
  token: string,
): Promise<PortalSessionClaims | null> {
  const match = TOKEN_PATTERN.exec(token);
  if (!match) return null;
  const [, encoded = '', signature = ''] = match;
  const payload = Buffer.from(encoded, 'base64url').toString('utf8');
  // Only the canonical spelling: re-encoding must give back the text that was sent.
  if (Buffer.from(payload, 'utf8').toString('base64url') !== encoded) return null;
  if (!(await signer.matches(payload, signature))) return null;
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
