/**
 * @module
 * The use cases of usage, bound once: accepting events, reading balances and periods, and the
 * drawdown worker's batch.
 */
import type { Context } from '../shared/context.js';
import type { UseCaseBase } from '../shared/use-case-base.js';
import { applyPendingDrawdowns } from './apply-drawdowns.js';
import { getUsageBalance, listUsageBalances } from './read-usage-balances.js';
import { recordUsageEvents } from './record-usage-events.js';
import type { IngestPorts, UsageSlice } from './repositories.js';
import type { UsageEventInput } from './usage-event.js';
import { listUsagePeriods } from './usage-periods.js';

/** What usage needs from the outside world. */
export interface UsagePorts {
  /** Where failures that do not fail the request are reported (a usage event's storage failure). */
  reportError(message: string, error: unknown): void;
}

export function usageUseCases(base: UseCaseBase<Context<UsageSlice> & IngestPorts>, ports: UsagePorts) {
  const { bind } = base;
  return {
    recordUsageEvents: bind((context, events: readonly UsageEventInput[]) =>
      recordUsageEvents(context, events, (error) => ports.reportError('storing a usage event', error)),
    ),
    listUsageBalances: bind(listUsageBalances),
    getUsageBalance: bind(getUsageBalance),
    /** The drawdown worker's batch: applies up to `limit` accepted events, of every account. */
    applyPendingDrawdowns: (limit: number) => applyPendingDrawdowns({ store: base.store, ids: base.ids }, { limit }),
    listUsagePeriods: bind(listUsagePeriods),
  };
}
