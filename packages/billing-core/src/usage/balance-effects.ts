/**
 * @module
 * How subscription changes move balances (the seed's "Effects of subscription changes on the
 * balance" table), as ledger entries per usage balance unit:
 *
 * | change                         | entries                                              |
 * |--------------------------------|------------------------------------------------------|
 * | starts                         | grant the full allowance                             |
 * | renews / resumes, new period   | expire unused; grant the full allowance; clear overage |
 * | upgrade, downgrade, quantity   | expire the old allowance; grant the new one at once    |
 * |   (only for units whose granting items changed)                                       |
 * | cancellation takes effect      | expire unused                                        |
 * | pause, resume (same period), refund | nothing                                          |
 */

import type { Price } from '../catalogue/entities.js';
import { Decimal } from '../money/decimal.js';
import type { LedgerEntry } from './balance-ledger.js';

/** What the effects table needs of a subscription item: its price's allowances and its quantity. */
export interface AllowanceItem {
  readonly price: Pick<Price, 'id' | 'allowances'>;
  readonly quantity: number;
}

export type SubscriptionChange = 'start' | 'renew' | 'change_items' | 'end';

export interface BalanceEffect {
  readonly usageBalanceUnitId: string;
  readonly entries: readonly LedgerEntry[];
}

/** Allowance per unit for a set of items: each allowance amount times the item quantity. */
export function allowancesByUnit(items: readonly AllowanceItem[]): Map<string, Decimal> {
  const totals = new Map<string, Decimal>();
  for (const item of items) {
    for (const allowance of item.price.allowances) {
      const granted = Decimal.parse(allowance.amount).multiply(Decimal.fromBigInt(BigInt(item.quantity)));
      totals.set(allowance.usageBalanceUnitId, (totals.get(allowance.usageBalanceUnitId) ?? Decimal.zero).add(granted));
    }
  }
  return totals;
}

export interface ChangeInput {
  readonly change: SubscriptionChange;
  readonly subscriptionId: string;
  readonly at: string;
  /** Items before the change (absent on start). */
  readonly before: readonly AllowanceItem[];
  /** Items after the change (absent when the subscription ends). */
  readonly after: readonly AllowanceItem[];
  /** When grants made now expire: the end of the billing period they are for. */
  readonly expiresAt: string | null;
}

/**
 * What grants a unit: each item whose price has an allowance for it, as price and quantity, in
 * a fixed order. Equal before and after an item change means the change left that unit alone.
 */
function grantingItems(items: readonly AllowanceItem[], unitId: string): string {
  return items
    .filter((item) => item.price.allowances.some((allowance) => allowance.usageBalanceUnitId === unitId))
    .map((item) => `${item.price.id}\u0000${item.quantity}`)
    .sort()
    .join('\u0001');
}

export function balanceEffects(input: ChangeInput): BalanceEffect[] {
  const previous = allowancesByUnit(input.before);
  const next = input.change === 'end' ? new Map<string, Decimal>() : allowancesByUnit(input.after);
  const units = [...new Set([...previous.keys(), ...next.keys()])].sort();
  return units.map((usageBalanceUnitId) => {
    const entries: LedgerEntry[] = [];
    // Reordering items, or changing an item that grants nothing of this unit, is not a plan or
    // quantity change for the unit: it must not refill the balance (ADR 0152).
    if (
      input.change === 'change_items' &&
      grantingItems(input.before, usageBalanceUnitId) === grantingItems(input.after, usageBalanceUnitId)
    ) {
      return { usageBalanceUnitId, entries };
    }
    if (input.change !== 'start' && previous.has(usageBalanceUnitId)) {
      entries.push({ kind: 'expire', at: input.at, subscriptionId: input.subscriptionId });
    }
    const granted = next.get(usageBalanceUnitId);
    if (granted !== undefined) {
      entries.push({
        kind: 'grant',
        at: input.at,
        subscriptionId: input.subscriptionId,
        amount: granted.toString(),
        expiresAt: input.expiresAt,
      });
      if (input.change === 'renew') entries.push({ kind: 'reset_overage', at: input.at });
    }
    return { usageBalanceUnitId, entries };
  });
}
