/**
 * @module
 * The clock of an account's environment (ADR 0006): live runs on the wall clock; sandbox runs
 * ahead of it by the account's offset, which this process keeps for one second (ADR 0729), as it
 * keeps authenticated keys (ADR 0710). Every sandbox request asked for the clock, so every usage
 * event on the sandbox read the offset from the database before this cache.
 *
 * - A move made by this process (`setOffset` through the store `forgetClockOnMove` returns, in or
 *   out of a transaction) forgets the account's entry once the write has committed, and a read
 *   that was in flight when an entry was forgotten is not kept: the next request here reads the
 *   moved clock.
 * - A move made by another process (a second `serve` on the same PostgreSQL database, the
 *   `drawdown clock` command) is read here within one second of its commit: an entry lives one
 *   second counted from before the read that filled it, on a monotonic clock.
 */
import type { Clock, Repositories, SandboxClockRepository, Scope, Store } from '@drawdown/billing-core';
import { forwarding } from './forwarding.js';

export const CLOCK_OFFSET_TTL_MS = 1000;

export interface EnvironmentClocks {
  /** The clock of one account's environment. */
  clockFor(scope: Scope): Promise<Clock>;
  /** The account's sandbox clock moved (committed): its next reading comes from the store. */
  forget(accountId: string): void;
}

export interface ClockCacheOptions {
  readonly ttlMs?: number;
  readonly maxEntries?: number;
  /** A monotonic clock in milliseconds; `performance.now` unless a test steps its own. */
  readonly now?: () => number;
}

interface Entry {
  readonly offsetMs: number;
  readonly expiresAt: number;
}

export function createEnvironmentClocks(
  sandboxClocks: Pick<SandboxClockRepository, 'offsetOf'>,
  wallClock: Clock,
  options: ClockCacheOptions = {},
): EnvironmentClocks {
  const ttlMs = options.ttlMs ?? CLOCK_OFFSET_TTL_MS;
  const maxEntries = options.maxEntries ?? 10_000;
  const monotonic = options.now ?? (() => performance.now());
  const entries = new Map<string, Entry>();
  // The clock objects handed out, one per offset in use: no allocation per request.
  const clocks = new Map<number, Clock>();
  let forgotten = 0;

  const clockAt = (offsetMs: number): Clock => {
    if (offsetMs === 0) return wallClock;
    let clock = clocks.get(offsetMs);
    if (clock === undefined) {
      if (clocks.size >= maxEntries) clocks.clear();
      clock = { now: () => wallClock.now() + offsetMs };
      clocks.set(offsetMs, clock);
    }
    return clock;
  };

  return {
    async clockFor(scope) {
      if (scope.environment === 'live') return wallClock;
      const startedAt = monotonic();
      const entry = entries.get(scope.accountId);
      if (entry !== undefined) {
        if (startedAt < entry.expiresAt) return clockAt(entry.offsetMs);
        entries.delete(scope.accountId);
      }
      const ticket = forgotten;
      const offsetMs = await sandboxClocks.offsetOf(scope.accountId);
      if (ticket === forgotten) {
        // Map order is insertion order: the first entry is the oldest.
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
        entries.set(scope.accountId, { offsetMs, expiresAt: startedAt + ttlMs });
      }
      return clockAt(offsetMs);
    },
    forget(accountId) {
      forgotten += 1;
      entries.delete(accountId);
    },
  };
}

/**
 * The same store, whose sandbox clock writes make `clocks` forget the account once they have
 * committed: at once outside a transaction, after the commit inside one (and after a rollback
 * too, which costs one read).
 */
export function forgetClockOnMove(store: Store, clocks: Pick<EnvironmentClocks, 'forget'>): Store {
  const forgetting = (repository: SandboxClockRepository, moved: (accountId: string) => void) =>
    forwarding<SandboxClockRepository>(repository, {
      setOffset: async (accountId, offsetMs) => {
        try {
          await repository.setOffset(accountId, offsetMs);
        } finally {
          moved(accountId);
        }
      },
    });
  const transaction: Store['transaction'] = async (work) => {
    const moved = new Set<string>();
    try {
      return await store.transaction((tx) =>
        work(
          forwarding<Repositories>(tx, {
            sandboxClocks: forgetting(tx.sandboxClocks, (accountId) => moved.add(accountId)),
          }),
        ),
      );
    } finally {
      for (const accountId of moved) clocks.forget(accountId);
    }
  };
  return forwarding(store, {
    transaction,
    sandboxClocks: forgetting(store.sandboxClocks, (accountId) => clocks.forget(accountId)),
  });
}
