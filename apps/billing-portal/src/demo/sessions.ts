/**
 * @module
 * Server-side sessions for the demo: the cookie holds only a random 256-bit id; the session
 * (user, CSRF token, expiry) lives in memory. Every visitor gets one, so the sign-in form has a
 * CSRF token too; signing in replaces the id (no session fixation). Sessions expire after 30
 * minutes idle and 12 hours in all (ADR 0804).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';

export const SESSION_IDLE_MS = 30 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;
const MAX_SESSIONS = 10_000;

export interface Session {
  readonly id: string;
  readonly csrfToken: string;
  /** The signed-in user's email; null before sign-in. */
  readonly email: string | null;
  readonly createdAt: number;
  lastSeenAt: number;
}

function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** In-memory session store. */
export class SessionStore {
  readonly #sessions = new Map<string, Session>();

  constructor(private readonly now: () => number = Date.now) {}

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

  /** A new session (anonymous, or signed in as `email`), with its own id and CSRF token. */
  create(email: string | null): Session {
    this.#evict();
    const now = this.now();
    const session: Session = { id: randomToken(), csrfToken: randomToken(), email, createdAt: now, lastSeenAt: now };
    this.#sessions.set(session.id, session);
    return session;
  }

  destroy(id: string): void {
    this.#sessions.delete(id);
  }

  #evict(): void {
    if (this.#sessions.size < MAX_SESSIONS) return;
    const now = this.now();
    for (const [id, session] of this.#sessions) {
      if (now - session.lastSeenAt > SESSION_IDLE_MS || now - session.createdAt > SESSION_ABSOLUTE_MS) {
        this.#sessions.delete(id);
      }
    }
    // Still full: drop the oldest (Map keeps insertion order).
    while (this.#sessions.size >= MAX_SESSIONS) {
      const oldest = this.#sessions.keys().next().value;
      if (oldest === undefined) break;
      this.#sessions.delete(oldest);
    }
  }
}

/** Constant-time comparison of two tokens. */
export function tokensEqual(expected: string, actual: string | null | undefined): boolean {
  if (typeof actual !== 'string') return false;
  const left = Buffer.from(expected);
  const right = Buffer.from(actual);
  return left.length === right.length && timingSafeEqual(left, right);
}
