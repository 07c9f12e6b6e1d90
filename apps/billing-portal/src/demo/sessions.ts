/**
 * @module
 * Server-side sessions for the demo: the cookie holds only a random 256-bit id; the session
 * (user, CSRF token, expiry) lives in memory. Only a sign-in creates one, so anonymous traffic
 * can neither fill the store nor evict anyone (ADR 0904); the sign-in form's CSRF token is
 * stateless instead (`SignInTokens`). Signing in issues a new id (no session fixation).
 * Sessions expire after 30 minutes idle and 12 hours in all (ADR 0804).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SESSION_IDLE_MS = 30 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;
export const MAX_SESSIONS = 10_000;

export interface Session {
  readonly id: string;
  readonly csrfToken: string;
  /** The signed-in user's email; empty for a customer who came through a portal session link. */
  readonly email: string;
  /** The customer of a portal session link (ADR 1440); undefined for a signed-in demo user. */
  readonly customerId?: string;
  readonly createdAt: number;
  lastSeenAt: number;
}

function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** In-memory session store. */
export class SessionStore {
  readonly #sessions = new Map<string, Session>();

  constructor(
    private readonly now: () => number = Date.now,
    /** Signed-in sessions kept; past it the expired go first, then the oldest. */
    private readonly maxSessions: number = MAX_SESSIONS,
  ) {}

  /** The live session with this id, touched; undefined when unknown or expired. */
  find(id: string | undefined): Session | undefined {
    if (id === undefined || !/^[A-Za-z0-9_-]{43}$/.test(id)) return undefined;
    const session = this.#sessions.get(id);
    if (!session) return undefined;
    const now = this.now();
    if (now - session.lastSeenAt > SESSION_IDLE_MS || now - session.createdAt > SESSION_ABSOLUTE_MS) {
      this.#sessions.delete(id);
      return undefined;
    }
    session.lastSeenAt = now;
    return session;
  }

  /** A new signed-in session for `email` (or a portal session's customer), with its own id and CSRF token. */
  create(email: string, customerId?: string): Session {
    this.#evict();
    const now = this.now();
    const session: Session = {
      id: randomToken(),
      csrfToken: randomToken(),
      email,
      ...(customerId === undefined ? {} : { customerId }),
      createdAt: now,
      lastSeenAt: now,
    };
    this.#sessions.set(session.id, session);
    return session;
  }

  destroy(id: string): void {
    this.#sessions.delete(id);
  }

  #evict(): void {
    if (this.#sessions.size < this.maxSessions) return;
    const now = this.now();
    for (const [id, session] of this.#sessions) {
      if (now - session.lastSeenAt > SESSION_IDLE_MS || now - session.createdAt > SESSION_ABSOLUTE_MS) {
        this.#sessions.delete(id);
      }
    }
    // Still full: drop the oldest (Map keeps insertion order).
    while (this.#sessions.size >= this.maxSessions) {
      const oldest = this.#sessions.keys().next().value;
      if (oldest === undefined) break;
      this.#sessions.delete(oldest);
    }
  }
}

/**
 * CSRF tokens for the sign-in form without server state: a visitor's cookie holds a random
 * nonce, and the form's token is the nonce's HMAC under a key of this process. A token is
 * valid only with the nonce it was made from, which another site cannot read or set.
 */
export class SignInTokens {
  readonly #key = randomBytes(32);

  /** A fresh nonce for a visitor's cookie. */
  newNonce(): string {
    return randomToken();
  }

  /** Whether `nonce` is of the form `newNonce` makes. */
  isNonce(nonce: string | undefined): nonce is string {
    return nonce !== undefined && /^[A-Za-z0-9_-]{43}$/.test(nonce);
  }

  /** The form's CSRF token for the visitor holding `nonce`. */
  tokenFor(nonce: string): string {
    return createHmac('sha256', this.#key).update(nonce).digest('base64url');
  }

  /** Whether `token` is the CSRF token of `nonce`. */
  verify(nonce: string | undefined, token: string | null | undefined): boolean {
    return this.isNonce(nonce) && tokensEqual(this.tokenFor(nonce), token);
  }
}

/** Constant-time comparison of two tokens. */
export function tokensEqual(expected: string, actual: string | null | undefined): boolean {
  if (typeof actual !== 'string') return false;
  const left = Buffer.from(expected);
  const right = Buffer.from(actual);
  return left.length === right.length && timingSafeEqual(left, right);
}
