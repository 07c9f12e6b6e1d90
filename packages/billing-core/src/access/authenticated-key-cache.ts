/**
 * @module
 * The port through which `authenticate` remembers keys that authenticated recently, so that a
 * busy client's requests do not each read their key (ADR 0710). The service holds entries for
 * at most a second; a revocation made in a process forgets its key there at once.
 */
import type { Account, ApiKey } from './account.js';

/** A key and its account, as a successful authentication found them. */
export interface AuthenticatedKey {
  readonly key: ApiKey;
  readonly account: Account;
}

/** Taken before a key is read, so the entry's lifetime starts before the read. */
export interface KeyReadTicket {
  /** When the read started, on the cache's own clock. */
  readonly startedAt: number;
  /** How many keys had been forgotten when it started: a read overtaken by a revocation is not kept. */
  readonly forgotten: number;
}

export interface AuthenticatedKeyCache {
  /** What the token with this hash authenticated as, while the entry is fresh. */
  find(tokenHash: string): AuthenticatedKey | undefined;
  beginRead(): KeyReadTicket;
  /** Keeps a successful authentication, unless a key was forgotten since `ticket` was taken. */
  remember(tokenHash: string, found: AuthenticatedKey, ticket: KeyReadTicket): void;
  /** Drops every entry of this key at once (its revocation in this process). */
  forget(keyId: string): void;
}
