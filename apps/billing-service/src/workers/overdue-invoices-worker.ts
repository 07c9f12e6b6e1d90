/**
 * @module
 * Marks manual invoices past due once they are unpaid 24 hours after their due date, for every
 * account and both environments (sandbox accounts on their own clocks, so moving sandbox time
 * forward makes invoices overdue). Safe with several processes: each change re-checks the
 * invoice under a row lock.
 */
import {
  type Clock,
  type Environment,
  type IdGenerator,
  markOverdueInvoices,
  type Store,
  toTimestamp,
} from '@drawdown/billing-core';
import { createPollingWorker, type Worker } from './polling-worker.js';

export function createOverdueInvoicesWorker(
  dependencies: { store: Store; ids: IdGenerator; clock: Clock },
  options: { pollMs: number; onError: (message: string, error: unknown) => void },
): Worker {
  const { store, ids, clock } = dependencies;

  async function runAccount(accountId: string, environment: Environment, offsetMs: number): Promise<number> {
    const account = await store.accounts.findById(accountId);
    if (!account) return 0;
    const accountClock: Clock = { now: () => clock.now() + offsetMs };
    return markOverdueInvoices({ store, ids, clock: accountClock, account, scope: { accountId, environment } });
  }

  return createPollingWorker({
    name: 'overdue-invoices',
    idleMs: options.pollMs,
    onError: options.onError,
    runBatch: async () => {
      let marked = 0;
      for (const accountId of await store.transactions.findOverdueAccounts('live', toTimestamp(clock.now()))) {
        marked += await runAccount(accountId, 'live', 0);
      }
      const offsets = new Map((await store.sandboxClocks.listOffsets()).map((row) => [row.accountId, row.offsetMs]));
      const furthest = Math.max(0, ...offsets.values());
      for (const accountId of await store.transactions.findOverdueAccounts(
        'sandbox',
        toTimestamp(clock.now() + furthest),
      )) {
        marked += await runAccount(accountId, 'sandbox', offsets.get(accountId) ?? 0);
      }
      return marked > 0;
    },
  });
}
