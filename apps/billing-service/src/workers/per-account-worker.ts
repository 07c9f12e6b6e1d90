/**
 * @module
 * A background worker for time-driven work that is due per account and environment (renewals,
 * overdue invoices). Live accounts run on the wall clock; each sandbox account runs on its own
 * clock, ahead of the wall clock by its offset, so moving sandbox time forward makes its work due.
 */
import {
  type Clock,
  type Environment,
  type IdGenerator,
  type OperationContext,
  type Store,
  toTimestamp,
} from '@drawdown/billing-core';
import { createPollingWorker, type Worker } from './polling-worker.js';

export interface PerAccountWorkerOptions {
  readonly name: string;
  readonly pollMs: number;
  readonly onError: (message: string, error: unknown) => void;
  /** Accounts with work in `environment` due at or before `until`. */
  findDueAccounts(store: Store, environment: Environment, until: string): Promise<readonly string[]>;
  /** Runs the due work of one account environment; resolves to how much was done. */
  runDue(context: OperationContext): Promise<number>;
}

export function createPerAccountWorker(
  dependencies: { store: Store; ids: IdGenerator; clock: Clock },
  options: PerAccountWorkerOptions,
): Worker {
  const { store, ids, clock } = dependencies;

  async function runAccount(accountId: string, environment: Environment, offsetMs: number): Promise<number> {
    const account = await store.accounts.findById(accountId);
    if (!account) return 0;
    const accountClock: Clock = { now: () => clock.now() + offsetMs };
    return options.runDue({ store, ids, clock: accountClock, account, scope: { accountId, environment } });
  }

  return createPollingWorker({
    name: options.name,
    idleMs: options.pollMs,
    onError: options.onError,
    runBatch: async () => {
      let done = 0;
      for (const accountId of await options.findDueAccounts(store, 'live', toTimestamp(clock.now()))) {
        done += await runAccount(accountId, 'live', 0);
      }
      const offsets = new Map((await store.sandboxClocks.listOffsets()).map((row) => [row.accountId, row.offsetMs]));
      // One query for every sandbox account, up to the clock that runs furthest ahead; each
      // account then runs only what is due on its own clock.
      const furthest = Math.max(0, ...offsets.values());
      for (const accountId of await options.findDueAccounts(store, 'sandbox', toTimestamp(clock.now() + furthest))) {
        done += await runAccount(accountId, 'sandbox', offsets.get(accountId) ?? 0);
      }
      return done > 0;
    },
  });
}
