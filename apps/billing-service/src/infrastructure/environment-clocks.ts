import type { Clock, SandboxClockRepository, Scope } from '@drawdown/billing-core';

/**
 * The clock of an account's environment: live runs on the wall clock; sandbox runs ahead of it
 * by the account's offset, read from the store on each call so every process agrees.
 */
export function createEnvironmentClocks(
  sandboxClocks: SandboxClockRepository,
  wallClock: Clock,
): (scope: Scope) => Promise<Clock> {
  return async (scope) => {
    if (scope.environment === 'live') return wallClock;
    const offsetMs = await sandboxClocks.offsetOf(scope.accountId);
    return offsetMs === 0 ? wallClock : { now: () => wallClock.now() + offsetMs };
  };
}
