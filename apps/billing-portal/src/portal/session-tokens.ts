/**
 * @module
 * What the portal checks of a customer portal session token itself, before it asks the service
 * (ADR 1443). A token is `base64url(payload).base64url(signature)`: the payload is the session's
 * claims, one per line after `drawdown-portal-session-v1` (session, account, environment,
 * customer, subscriptions, issued and expiry instants in milliseconds), the signature Ed25519
 * under the deployment's key, whose public half the service gives any key with
 * `customer_portal_session.read` (`GET /customer-portal-sessions/verification-key`).
 *
 * Refused here, without a call: anything not of that form, a signature that does not verify, a
 * token of another account or environment, and one whose expiry has passed on this machine's
 * clock (an environment's clock is never behind the wall clock: the sandbox's only moves
 * forward, ADR 0006). What is left was signed by the service for this account: the service's
 * verify call then judges the expiry on the environment's clock and that the customer exists.
 * So a visitor with made-up links costs the billing API nothing, and only links the merchant
 * created reach it.
 */
import { createPublicKey, type KeyObject, verify } from 'node:crypto';
import type { PortalSessionVerificationKey } from '@drawdown/sdk';
import type { PortalClient } from './portal-client.js';

const TOKEN_PATTERN = /^([A-Za-z\d_-]{1,2000})\.([A-Za-z\d_-]{86})$/;
const INSTANT = /^[1-9]\d{0,15}$/;
/** How long the verification key is used before it is asked for again. */
const KEY_MAX_AGE_MS = 60 * 60 * 1000;
/** After a failed key request, how long the failure is answered again before another request. */
const KEY_FAILURE_HOLD_MS = 10 * 1000;

/** What the portal can tell of a token alone: `signed` still needs the service's word. */
export type LocalTokenVerdict = 'signed' | 'invalid' | 'expired';

interface VerificationKey {
  readonly accountId: string;
  readonly environment: string;
  readonly key: KeyObject;
  readonly fetchedAt: number;
}

/** The parts of a token a portal may read: null when it is not of the form the service signs. */
function tokenParts(token: string): { payload: Buffer; signature: Buffer; lines: string[] } | null {
  const match = TOKEN_PATTERN.exec(token);
  if (!match) return null;
  const [, encoded = '', signed = ''] = match;
  const payload = Buffer.from(encoded, 'base64url');
  const signature = Buffer.from(signed, 'base64url');
  // Only canonical spellings: re-encoding gives back what was sent.
  if (payload.toString('base64url') !== encoded || signature.toString('base64url') !== signed) return null;
  if (signature.length !== 64) return null;
  const lines = payload.toString('utf8').split('\n');
  if (lines.length !== 8 || lines[0] !== 'drawdown-portal-session-v1' || !INSTANT.test(lines[7] ?? '')) return null;
  return { payload, signature, lines };
}

/**
 * Checks portal session tokens with the service's public key, fetched on first need and again
 * every hour; one request at a time, and a failure is held for a few seconds rather than asked
 * again by every visitor.
 */
export class PortalSessionTokens {
  #key: VerificationKey | undefined;
  #pending: Promise<VerificationKey> | undefined;
  #failure: { error: unknown; at: number } | undefined;

  constructor(
    private readonly client: Pick<PortalClient, 'customerPortalSessions'>,
    private readonly now: () => number = Date.now,
  ) {}

  /** What the token is, as far as the portal can tell without the service. */
  async check(token: string): Promise<LocalTokenVerdict> {
    const parts = tokenParts(token);
    if (!parts) return 'invalid';
    const { accountId, environment, key } = await this.#verificationKey();
    if (!verify(null, parts.payload, key, parts.signature)) return 'invalid';
    if (parts.lines[2] !== accountId || parts.lines[3] !== environment) return 'invalid';
    return Number(parts.lines[7]) <= this.now() ? 'expired' : 'signed';
  }

  async #verificationKey(): Promise<VerificationKey> {
    const now = this.now();
    if (this.#key && now - this.#key.fetchedAt < KEY_MAX_AGE_MS) return this.#key;
    if (this.#failure && now - this.#failure.at < KEY_FAILURE_HOLD_MS) throw this.#failure.error;
    this.#pending ??= this.client.customerPortalSessions
      .verificationKey()
      .then((answer) => {
        this.#key = keyOf(answer, this.now());
        this.#failure = undefined;
        return this.#key;
      })
      .catch((error: unknown) => {
        this.#failure = { error, at: this.now() };
        throw error;
      })
      .finally(() => {
        this.#pending = undefined;
      });
    return this.#pending;
  }
}

function keyOf(answer: PortalSessionVerificationKey, fetchedAt: number): VerificationKey {
  if (answer.algorithm !== 'Ed25519') throw new Error(`Unknown portal session key algorithm ${answer.algorithm}.`);
  return {
    accountId: answer.accountId,
    environment: answer.environment,
    key: createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: answer.publicKey }, format: 'jwk' }),
    fetchedAt,
  };
}
