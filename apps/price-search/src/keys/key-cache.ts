/**
 * @module
 * Keys that authenticated recently, kept in process for at most a second so that a busy client's requests do
 * not each read the state database (ADR 0217, the billing service's rule of ADR 0710). Keyed by the SHA-256 of
 * the raw key, so only the exact secret finds an entry; only successes are kept; an entry lives one second from
 * before the read that found it, on a monotonic clock; a revocation in this process forgets its key at once and
 * a read in flight when a key was forgotten is not kept. A revocation by another process (the CLI) is honoured
 * within the second.
 */
/** How long an authenticated key is trusted without reading it again. */
export const KEY_CACHE_TTL_MS = 1_000;
/** Entries kept at most; the oldest is dropped first. */
export const KEY_CACHE_ENTRIES = 10_000;

/** Taken before a key is read, so the entry's lifetime starts before the read. */
export interface KeyReadTicket {
  readonly startedAt: number;
  readonly forgotten: number;
}

/** What the cache needs of a stored key. */
export interface CachedKey {
  readonly id: string;
  readonly revokedAt: string | undefined;
}

interface Entry<K extends CachedKey> {
  readonly key: K;
  readonly expiresAt: number;
}

/** The cache; `now` is a monotonic clock in milliseconds (tests move it). */
export class AuthenticatedKeyCache<K extends CachedKey = CachedKey> {
  readonly #entries = new Map<string, Entry<K>>();
  #forgotten = 0;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** The key stored under this hash while its entry is fresh. */
  find(keyHash: string): K | undefined {
    const entry = this.#entries.get(keyHash);
    if (entry === undefined) return undefined;
    if (this.now() >= entry.expiresAt) {
      this.#entries.delete(keyHash);
      return undefined;
    }
    return entry.key;
  }

  beginRead(): KeyReadTicket {
    return { startedAt: this.now(), forgotten: this.#forgotten };
  }

  /** Keeps an active key found by a read, unless a key was forgotten since `ticket` was taken. */
  remember(keyHash: string, key: K, ticket: KeyReadTicket): void {
    if (key.revokedAt !== undefined || ticket.forgotten !== this.#forgotten) return;
    this.#entries.delete(keyHash);
    this.#entries.set(keyHash, { key, expiresAt: ticket.startedAt + KEY_CACHE_TTL_MS });
    if (this.#entries.size > KEY_CACHE_ENTRIES) this.#entries.delete(this.#entries.keys().next().value ?? '');
  }

  /** Drops every entry of the key with this id (its revocation in this process). */
  forget(keyId: string): void {
    this.#forgotten += 1;
    for (const [hash, entry] of this.#entries) {
      if (entry.key.id === keyId) this.#entries.delete(hash);
    }
  }
}
