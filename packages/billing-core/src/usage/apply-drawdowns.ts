/**
 * @module
 * The drawdown worker's use case: takes accepted events not yet drawn down, applies each
 * event's drawdowns to the customer's balances, and marks the events applied, all in one
 * transaction, so each event counts exactly once. A drawdown that takes remaining from above
 * zero to zero writes `usage_balance.depleted` to the outbox in the same transaction.
 */
import { toTimestamp } from '../shared/clock.js';
import type { IdGenerator } from '../shared/ids.js';
import type { PendingUsageEvent, Repositories, Store } from '../shared/repository.js';
import type { Scope } from '../shared/scope.js';
import { applyEntry, type LedgerEntry } from './balance-ledger.js';

export interface DrawdownDependencies {
  readonly store: Store;
  readonly ids: IdGenerator;
  /** Wall-clock now, for the `applied_at` stamp. */
  now(): number;
}

interface Drawdown {
  readonly pending: PendingUsageEvent;
  readonly amount: string;
}

function balanceKey(scope: Scope, customerId: string, unitId: string): string {
  return `${scope.accountId}\u0000${scope.environment}\u0000${customerId}\u0000${unitId}`;
}

async function drawDownBalance(
  tx: Repositories,
  dependencies: DrawdownDependencies,
  scope: Scope,
  customerId: string,
  unitId: string,
  drawdowns: readonly Drawdown[],
): Promise<void> {
  const balance = await tx.usageBalances.lock(scope, customerId, unitId);
  // No subscription ever granted this unit to the customer: the usage stays recorded on the
  // event and draws from nothing (ADR 0010).
  if (!balance) return;
  let state = balance.state;
  const entries: LedgerEntry[] = [];
  for (const { pending, amount } of drawdowns) {
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
      await tx.events.append(scope, {
        id: dependencies.ids.newId('evt'),
        eventType: 'usage_balance.depleted',
        occurredAt: pending.event.acceptedAt,
        entityKind: 'usage_balance',
        entity: { ...balance, state, updatedAt: pending.event.acceptedAt },
      });
    }
  }
  const last = drawdowns.at(-1)?.pending.event.acceptedAt ?? balance.updatedAt;
  await tx.usageBalances.save(scope, { ...balance, state, updatedAt: last }, entries);
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
    const pending = await tx.usageEvents.claimPending(options.limit, options.scope);
    if (pending.length === 0) return 0;
    const groups = new Map<string, { scope: Scope; customerId: string; unitId: string; drawdowns: Drawdown[] }>();
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
    for (const key of [...groups.keys()].sort()) {
      const group = groups.get(key);
      if (group) await drawDownBalance(tx, dependencies, group.scope, group.customerId, group.unitId, group.drawdowns);
    }
    await tx.usageEvents.markApplied(pending, toTimestamp(dependencies.now()));
    return pending.length;
  });
}
