/**
 * @module
 * Time-driven work runs on each account's clock: live accounts on the wall clock, each sandbox
 * account on its own sandbox clock (ADR 0006), so a jump of the sandbox clock makes its work due.
 */
import type { Clock } from '../shared/clock.js';
import { toTimestamp } from '../shared/clock.js';
import type { Context } from '../shared/context.js';
import type { Environment } from '../shared/scope.js';
import type { DueWorkKind, UseCaseBase } from '../shared/use-case-base.js';
import type { SubscriptionRepositories } from './repositories.js';

/** Runs one kind of due work for every account it is due for: how many items it handled. */
export async function runDueWork<C extends Context<Pick<SubscriptionRepositories, 'sandboxClocks'>>>(
  base: UseCaseBase<C>,
  work: DueWorkKind<C>,
): Promise<number> {
  const { wallClock } = base;
  const runAccount = async (accountId: string, environment: Environment, offsetMs: number) => {
    const clock: Clock = { now: () => wallClock.now() + offsetMs };
    const context = await base.contextAt({ accountId, environment }, clock);
    return context ? work.run(context) : 0;
  };
  let done = 0;
  for (const accountId of await work.findDueAccounts('live', toTimestamp(wallClock.now()))) {
    done += await runAccount(accountId, 'live', 0);
  }
  const offsets = new Map((await base.store.sandboxClocks.listOffsets()).map((row) => [row.accountId, row.offsetMs]));
  // One query for every sandbox account, up to the clock that runs furthest ahead; each account
  // then runs only what is due on its own clock.
  const furthest = Math.max(0, ...offsets.values());
  for (const accountId of await work.findDueAccounts('sandbox', toTimestamp(wallClock.now() + furthest))) {
    done += await runAccount(accountId, 'sandbox', offsets.get(accountId) ?? 0);
  }
  return done;
}
