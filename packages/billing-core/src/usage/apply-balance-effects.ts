/**
 * @module
 * Writes the ledger entries of a subscription change to the customer's balances, creating a
 * balance the first time a subscription grants its unit. Runs inside the caller's transaction,
 * so the subscription change and its balance effects commit together.
 */
import type { IdGenerator } from '../shared/ids.js';
import type { Scope } from '../shared/scope.js';
import type { BalanceEffect } from './balance-effects.js';
import { applyEntry, EMPTY_BALANCE } from './balance-ledger.js';
import type { UsageSlice } from './repositories.js';
import type { UsageBalance } from './usage-balance.js';

export async function applyBalanceEffects(
  tx: UsageSlice,
  dependencies: { readonly ids: IdGenerator; readonly scope: Scope },
  customerId: string,
  effects: readonly BalanceEffect[],
  at: string,
): Promise<void> {
  // Units in sorted order: every writer locks balances in the same order, so none deadlock.
  const ordered = [...effects].sort((left, right) => (left.usageBalanceUnitId < right.usageBalanceUnitId ? -1 : 1));
  for (const effect of ordered) {
    if (effect.entries.length === 0) continue;
    const grants = effect.entries.some((entry) => entry.kind === 'grant');
    const fresh: UsageBalance = {
      id: dependencies.ids.newId('ubl'),
      customerId,
      usageBalanceUnitId: effect.usageBalanceUnitId,
      state: EMPTY_BALANCE,
      createdAt: at,
      updatedAt: at,
    };
    const balance = await tx.usageBalances.lock(
      dependencies.scope,
      customerId,
      effect.usageBalanceUnitId,
      grants ? fresh : undefined,
    );
    // An expiry for a unit the customer holds no balance of has nothing to expire.
    if (!balance) continue;
    const state = effect.entries.reduce((current, entry) => applyEntry(current, entry).state, balance.state);
    await tx.usageBalances.save(dependencies.scope, { ...balance, state, updatedAt: at }, effect.entries);
  }
}
