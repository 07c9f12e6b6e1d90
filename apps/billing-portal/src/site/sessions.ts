/**
 * @module
 * Server-side sessions for the demo: the cookie holds only a random 256-bit id; the session
 * (user, CSRF token, expiry) lives in memory. Only a sign-in creates one, so anonymous traffic
 * can neither fill the store nor evict anyone (ADR 0904); the sign-in form's CSRF token is
 * stateless instead (`SignInTokens`). Signing in issues a new id (no session fixation).
 * Sessions expire after 30 minutes idle and 12 hours in all (ADR 0804). The store is bounded per
 * owner (a signed-in user, or the customer of portal session links): past the bound that owner's
 * own oldest session goes, so one customer's reusable link opened ten thousand times signs out
 * nobody else (ADR 1445). A global bound stays as a memory backstop, and it too takes from the
 * owner holding the most sessions.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SESSION_IDLE_MS = 30 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;
export const MAX_SESSIONS = 10_000;
export const MAX_SESSIONS_PER_OWNER = 20;

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

export interface SessionBounds {
  /** Sessions kept in all, a memory backstop; past it the expired go, then the oldest of the largest owner. */
  readonly maxSessions?: number | undefined;
  /** Sessions kept per owner (user or customer); past it the expired go, then that owner's oldest. */
  readonly maxSessionsPerOwner?: number | undefined;
}

/** Who a session belongs to, for the bounds: the customer of a portal link, else the signed-in email. */
function ownerOf(session: Session): string {
  return session.customerId === undefined ? `user:${session.email}` : `customer:${session.customerId}`;
}

/** In-memory session store. */
export class SessionStore {
  readonly #sessions = new Map<string, Session>();
  /** Each owner's session ids, oldest first. */
  readonly #owners = new Map<string, Set<string>>();
  private readonly maxSessions: number;
  private readonly maxSessionsPerOwner: number;

  constructor(
    private readonly now: () => number = Date.now,
    bounds: SessionBounds = {},
  ) {
    this.maxSessions = Math.max(1, bounds.maxSessions ?? MAX_SESSIONS);
    this.maxSessionsPerOwner = Math.max(1, bounds.maxSessionsPerOwner ?? MAX_SESSIONS_PER_OWNER);
  }

  /** How many sessions are kept (expired ones included until they are found or evicted). */
  get size(): number {
    return this.#sessions.size;
  }

  /** The live session with this id, touched; undefined when unknown or expired. */
  find(id: string | undefined): Session | undefined {
    if (id === undefined || !/^[A-Za-z0-9_-]{43}$/.test(id)) return undefined;
    const session = this.#sessions.get(id);
    if (!session) return undefined;
    const now = this.now();
    if (this.#expired(session, now)) {
      this.destroy(id);
      return undefined;
    }
    session.lastSeenAt = now;
    return session;
  }

  /** A new signed-in session for `email` (or a portal session's customer), with its own id and CSRF token. */
  create(email: string, customerId?: string): Session {
    const now = this.now();
    const session: Session = {
      id: randomToken(),
      csrfToken: randomToken(),
      email,
      ...(customerId === undefined ? {} : { customerId }),
      createdAt: now,
      lastSeenAt: now,
    };
    const owner = ownerOf(session);
    this.#makeRoom(owner, now);
    this.#sessions.set(session.id, session);
    const ids = this.#owners.get(owner) ?? new Set<string>();
    ids.add(session.id);
    this.#owners.set(owner, ids);
    return session;
  }

  destroy(id: string): void {
    const session = this.#sessions.get(id);
    if (!session) return;
    this.#sessions.delete(id);
    const owner = ownerOf(session);
    const ids = this.#owners.get(owner);
    ids?.delete(id);
    if (ids?.size === 0) this.#owners.delete(owner);
  }

  /** How many sessions `owner`'s bound counts: by customer id, or by email for a signed-in user. */
  countOf(owner: { readonly customerId: string } | { readonly email: string }): number {
    const key = 'customerId' in owner ? `customer:${owner.customerId}` : `user:${owner.email}`;
    return this.#owners.get(key)?.size ?? 0;
  }

  #expired(session: Session, now: number): boolean {
    return now - session.lastSeenAt > SESSION_IDLE_MS || now - session.createdAt > SESSION_ABSOLUTE_MS;
  }

  /** Room for one more of `owner`'s sessions: its own bound first, then the store's. */
  #makeRoom(owner: string, now: number): void {
    const own = this.#owners.get(owner);
    if (own && own.size >= this.maxSessionsPerOwner) {
      for (const id of own) {
        const session = this.#sessions.get(id);
        if (!session || this.#expired(session, now)) this.destroy(id);
      }
      // Still at the bound: the owner's oldest goes (a Set keeps insertion order).
      for (const id of own) {
        if (own.size < this.maxSessionsPerOwner) break;
        this.destroy(id);
      }
    }
    if (this.#sessions.size < this.maxSessions) return;
    for (const [id, session] of this.#sessions) if (this.#expired(session, now)) this.destroy(id);
    while (this.#sessions.size >= this.maxSessions) {
      let largest: Set<string> | undefined;
      for (const ids of this.#owners.values()) if (!largest || ids.size > largest.size) largest = ids;
      const oldest = largest?.values().next().value;
      if (oldest === undefined) break;
      this.destroy(oldest);
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
