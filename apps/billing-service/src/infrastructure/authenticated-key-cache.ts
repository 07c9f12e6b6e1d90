/**
 * @module
 * Keys that authenticated in this process within the last second (ADR 0710), keyed by the
 * SHA-256 of the whole token. An entry's second starts before the read that found it, so a
 * revocation committed by another process is honoured here within a second; a revocation made
 * here forgets its key at once. Only successes are kept, and at most `maxEntries` of them.
 */
import type { AuthenticatedKey, AuthenticatedKeyCache, KeyReadTicket } from '@drawdown/billing-core';

export const KEY_CACHE_TTL_MS = 1000;

interface Entry {
  readonly found: AuthenticatedKey;
  readonly expiresAt: number;
}

export interface KeyCacheOptions {
  readonly ttlMs?: number;
  readonly maxEntries?: number;
  /** A monotonic clock in milliseconds; `performance.now` unless a test steps its own. */
  readonly now?: () => number;
}

export function createAuthenticatedKeyCache(options: KeyCacheOptions = {}): AuthenticatedKeyCache {
  const ttlMs = options.ttlMs ?? KEY_CACHE_TTL_MS;
  const maxEntries = options.maxEntries ?? 10_000;
  const now = options.now ?? (() => performance.now());
  const entries = new Map<string, Entry>();
  let forgotten = 0;

  return {
    find(tokenHash) {
      const entry = entries.get(tokenHash);
      if (entry === undefined) return undefined;
      if (now() < entry.expiresAt) return entry.found;
      entries.delete(tokenHash);
      return undefined;
    },
    beginRead(): KeyReadTicket {
      return { startedAt: now(), forgotten };
    },
    remember(tokenHash, found, ticket) {
      if (ticket.forgotten !== forgotten) return;
      // Map order is insertion order: the first entry is the oldest.
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
      entries.set(tokenHash, { found, expiresAt: ticket.startedAt + ttlMs });
    },
    forget(keyId) {
      forgotten += 1;
      for (const [tokenHash, entry] of entries) if (entry.found.key.id === keyId) entries.delete(tokenHash);
    },
  };
}
