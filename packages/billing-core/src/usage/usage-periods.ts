/**
 * @module
 * A balance's usage per billing period, replayed from its ledger (ADR 1442): a period starts where
 * allowance is granted (a subscription's start or renewal) and runs to the next grant; what was
 * drawn down in it is its usage, the part past its allowance its overage. The portal draws these
 * as a chart, so a customer sees past periods, not only the current one.
 */
import { Decimal } from '../money/decimal.js';
import type { Context } from '../shared/context.js';
import type { LedgerEntry } from './balance-ledger.js';
import { getUsageBalance } from './read-usage-balances.js';
import type { UsageSlice } from './repositories.js';

export interface UsagePeriod {
  readonly startsAt: string;
  /** Null for the period still running. */
  readonly endsAt: string | null;
  /** Granted for the period (exact decimal string). */
  readonly allowance: string;
  /** Everything drawn down in the period, within the allowance and past it. */
  readonly used: string;
  /** The part of `used` past the allowance. */
  readonly overage: string;
}

/** The most periods answered: the newest twelve. */
export const MAX_USAGE_PERIODS = 12;

/** Groups ledger entries (in ledger order) into periods; pure, for tests. */
export function usagePeriodsOf(entries: readonly LedgerEntry[]): UsagePeriod[] {
  const periods: { startsAt: string; allowance: Decimal; used: Decimal }[] = [];
  for (const entry of entries) {
    const current = periods.at(-1);
    if (entry.kind === 'grant') {
      // Grants at one instant (several prices, or an expiry and a renewal) share a period.
      if (current && current.startsAt === entry.at)
        current.allowance = current.allowance.add(Decimal.parse(entry.amount));
      else periods.push({ startsAt: entry.at, allowance: Decimal.parse(entry.amount), used: Decimal.zero });
    } else if (entry.kind === 'drawdown') {
      if (current) current.used = current.used.add(Decimal.parse(entry.amount));
      else periods.push({ startsAt: entry.at, allowance: Decimal.zero, used: Decimal.parse(entry.amount) });
    }
  }
  return periods.map((period, index) => {
    const overage = period.used.subtract(period.allowance);
    return {
      startsAt: period.startsAt,
      endsAt: periods[index + 1]?.startsAt ?? null,
      allowance: period.allowance.toString(),
      used: period.used.toString(),
      overage: overage.isPositive() ? overage.toString() : '0',
    };
  });
}

/** The customer's balance's periods, newest first, at most `MAX_USAGE_PERIODS`. */
export async function listUsagePeriods(
  context: Context<UsageSlice>,
  customerId: string,
  balanceId: string,
): Promise<readonly UsagePeriod[]> {
  const balance = await getUsageBalance(context, customerId, balanceId);
  const entries = await context.store.usageBalances.ledger(context.scope, balance.id);
  return usagePeriodsOf(entries).reverse().slice(0, MAX_USAGE_PERIODS);
}
