/**
 * @module
 * Runs renewals and scheduled changes when they fall due, for every account and both
 * environments (sandbox accounts on their own clocks). Safe with several processes: each step
 * re-checks under a row lock that it is still due, so none is skipped or run twice.
 */
import {
  type Clock,
  type Environment,
  type IdGenerator,
  runDueSubscriptions,
  type Store,
  toTimestamp,
} from '@drawdown/billing-core';
import { createPollingWorker, type Worker } from './polling-worker.js';

export function createRenewalScheduler(
  dependencies: { store: Store; ids: IdGenerator; clock: Clock },
  options: { pollMs: number; onError: (message: string, error: unknown) => void },
): Worker {
  const { store, ids, clock } = dependencies;

  async function runAccount(accountId: string, environment: Environment, offsetMs: number): Promise<number> {
    const account = await store.accounts.findById(accountId);
    if (!account) return 0;
    const accountClock: Clock = { now: () => clock.now() + offsetMs };
    return runDueSubscriptions({ store, ids, clock: accountClock, account, scope: { accountId, environment } });
  }

  return createPollingWorker({
    name: 'renewals',
    idleMs: options.pollMs,
    onError: options.onError,
    runBatch: async () => {
      let steps = 0;
      for (const accountId of await store.subscriptions.findDueAccounts('live', toTimestamp(clock.now()))) {
        steps += await runAccount(accountId, 'live', 0);
      }
      const offsets = new Map((await store.sandboxClocks.listOffsets()).map((row) => [row.accountId, row.offsetMs]));
      const furthest = Math.max(0, ...offsets.values());
      for (const accountId of await store.subscriptions.findDueAccounts(
        'sandbox',
        toTimestamp(clock.now() + furthest),
      )) {
        steps += await runAccount(accountId, 'sandbox', offsets.get(accountId) ?? 0);
      }
      return steps > 0;
    },
  });
}
