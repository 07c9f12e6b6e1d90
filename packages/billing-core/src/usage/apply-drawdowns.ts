/**
 * @module
 * The drawdown worker's use case: takes accepted events not yet drawn down, applies each
 * event's drawdowns to the customer's balances, and takes the events off the pending list, all in one
 * transaction, so each event counts exactly once. A drawdown that takes remaining from above
 * zero to zero writes `usage_balance.depleted` to the outbox in the same transaction.
 */

import type { StoreOf } from '../shared/context.js';
import type { IdGenerator } from '../shared/ids.js';
import type { Scope } from '../shared/scope.js';
import { applyEntry, type LedgerEntry } from './balance-ledger.js';
import type { BalanceChange, BalanceKey, PendingUsageEvent, UsageSlice } from './repositories.js';
import type { UsageBalance } from './usage-balance.js';

export interface DrawdownDependencies {
  readonly store: StoreOf<UsageSlice>;
  readonly ids: IdGenerator;
}

interface Drawdown {
  readonly pending: PendingUsageEvent;
  readonly amount: string;
}

function balanceKey(scope: Scope, customerId: string, unitId: string): string {
  return `${scope.accountId}\u0000${scope.environment}\u0000${customerId}\u0000${unitId}`;
}

interface BalanceGroup extends BalanceKey {
  readonly drawdowns: Drawdown[];
}

/**
 * Folds a batch's drawdowns of one balance into its state, appending `usage_balance.depleted`
 * for each drawdown that empties it, and returns the change to save.
 */
async function drawDownBalance(
  tx: UsageSlice,
  dependencies: DrawdownDependencies,
  balance: UsageBalance,
  group: BalanceGroup,
): Promise<BalanceChange> {
  let state = balance.state;
  const entries: LedgerEntry[] = [];
  for (const { pending, amount } of group.drawdowns) {
    const entry: LedgerEntry = {
      kind: 'drawdown',
      at: pending.event.acceptedAt,
      usageEventId: pending.event.id,
      amount,
    };
    const outcome = applyEntry(state, entry);
    state = outcome.state;
    entries.push(entry);
    if (outcome.depleted) {
      await tx.events.append(group.scope, {
        id: dependencies.ids.newId('evt'),
        eventType: 'usage_balance.depleted',
        occurredAt: pending.event.acceptedAt,
        entityKind: 'usage_balance',
        entity: { ...balance, state, updatedAt: pending.event.acceptedAt },
      });
    }
  }
  const last = group.drawdowns.at(-1)?.pending.event.acceptedAt ?? balance.updatedAt;
  return { scope: group.scope, balance: { ...balance, state, updatedAt: last }, entries };
}

/**
 * Applies up to `limit` pending events (of one scope, when given). Resolves to how many were
 * applied, so the worker knows whether to look again at once.
 */
export async function applyPendingDrawdowns(
  dependencies: DrawdownDependencies,
  options: { readonly limit: number; readonly scope?: Scope },
): Promise<number> {
  return dependencies.store.transaction(async (tx) => {
    const pending = await tx.usageEvents.takePending(options.limit, options.scope);
    if (pending.length === 0) return 0;
    const groups = new Map<string, BalanceGroup>();
    for (const item of pending) {
      for (const drawdown of item.event.drawdowns) {
        const key = balanceKey(item.scope, item.event.customerId, drawdown.usageBalanceUnitId);
        let group = groups.get(key);
        if (!group) {
          group = {
            scope: item.scope,
            customerId: item.event.customerId,
            unitId: drawdown.usageBalanceUnitId,
            drawdowns: [],
          };
          groups.set(key, group);
        }
        group.drawdowns.push({ pending: item, amount: drawdown.amount });
      }
    }
    // Every locker takes balances in this order, so two batches never wait on each other crosswise.
    const ordered = [...groups.keys()].sort().map((key) => groups.get(key) as BalanceGroup);
    const balances = await tx.usageBalances.lockMany(ordered);
    const changes: BalanceChange[] = [];
    for (const [index, group] of ordered.entries()) {
      const balance = balances[index];
      // No subscription ever granted this unit to the customer: the usage stays recorded on the
      // event and draws from nothing (ADR 0010).
      if (balance) changes.push(await drawDownBalance(tx, dependencies, balance, group));
    }
    await tx.usageBalances.saveMany(changes);
    return pending.length;
  });
}
