/**
 * @module
 * A usage balance is a pure function of its ledger: an append-only list of grants, expiries,
 * drawdowns and overage resets. `applyEntry` folds one entry into the state; replaying the
 * whole ledger from `EMPTY_BALANCE` gives the stored balance, always.
 *
 * Invariants (pinned by property tests): remaining never goes below zero; used excludes
 * overage; allowance = used + remaining; a drawdown either lowers remaining or raises overage,
 * never both beyond what it draws; depletion happens only on a drawdown that takes remaining
 * from above zero to zero.
 */
import { Decimal } from '../money/decimal.js';

/** Allowance granted by one subscription for one billing period. */
export interface Grant {
  readonly subscriptionId: string;
  readonly amount: string;
  readonly remaining: string;
  readonly grantedAt: string;
  /** The end of the billing period it was granted for; null while no end is known. */
  readonly expiresAt: string | null;
}

export interface BalanceState {
  /** Active grants, in the order they are drawn from. */
  readonly grants: readonly Grant[];
  readonly overage: string;
  readonly overageStartedAt: string | null;
}

export type LedgerEntry =
  | {
      readonly kind: 'grant';
      readonly at: string;
      readonly subscriptionId: string;
      readonly amount: string;
      readonly expiresAt: string | null;
    }
  | { readonly kind: 'expire'; readonly at: string; readonly subscriptionId: string }
  | { readonly kind: 'drawdown'; readonly at: string; readonly usageEventId: string; readonly amount: string }
  | { readonly kind: 'reset_overage'; readonly at: string };

export const EMPTY_BALANCE: BalanceState = { grants: [], overage: '0', overageStartedAt: null };

export interface BalanceTotals {
  readonly allowance: string;
  readonly used: string;
  readonly remaining: string;
  readonly overage: string;
}

/**
 * Grants are drawn in a fixed order so a replay always draws the same way: the grant that
 * expires first goes first (its unused part would be lost soonest), then the older grant,
 * then by subscription id.
 */
function drawOrder(left: Grant, right: Grant): number {
  if (left.expiresAt !== right.expiresAt) {
    if (left.expiresAt === null) return 1;
    if (right.expiresAt === null) return -1;
    return left.expiresAt < right.expiresAt ? -1 : 1;
  }
  if (left.grantedAt !== right.grantedAt) return left.grantedAt < right.grantedAt ? -1 : 1;
  return left.subscriptionId < right.subscriptionId ? -1 : left.subscriptionId > right.subscriptionId ? 1 : 0;
}

function sum(values: readonly string[]): Decimal {
  return values.reduce((total, value) => total.add(Decimal.parse(value)), Decimal.zero);
}

export function balanceTotals(state: BalanceState): BalanceTotals {
  const allowance = sum(state.grants.map((grant) => grant.amount));
  const remaining = sum(state.grants.map((grant) => grant.remaining));
  return {
    allowance: allowance.toString(),
    used: allowance.subtract(remaining).toString(),
    remaining: remaining.toString(),
    overage: state.overage,
  };
}

export interface EntryOutcome {
  readonly state: BalanceState;
  /** True when this entry took remaining from above zero to zero (a drawdown, never an expiry). */
  readonly depleted: boolean;
}

export function applyEntry(state: BalanceState, entry: LedgerEntry): EntryOutcome {
  switch (entry.kind) {
    case 'grant': {
      const grant: Grant = {
        subscriptionId: entry.subscriptionId,
        amount: entry.amount,
        remaining: entry.amount,
        grantedAt: entry.at,
        expiresAt: entry.expiresAt,
      };
      return { state: { ...state, grants: [...state.grants, grant].sort(drawOrder) }, depleted: false };
    }
    case 'expire':
      return {
        state: { ...state, grants: state.grants.filter((grant) => grant.subscriptionId !== entry.subscriptionId) },
        depleted: false,
      };
    case 'reset_overage':
      return { state: { ...state, overage: '0', overageStartedAt: null }, depleted: false };
    case 'drawdown':
      return drawDown(state, Decimal.parse(entry.amount), entry.at);
  }
}

function drawDown(state: BalanceState, amount: Decimal, at: string): EntryOutcome {
  const remainingBefore = sum(state.grants.map((grant) => grant.remaining));
  let left = amount;
  const grants = state.grants.map((grant) => {
    const remaining = Decimal.parse(grant.remaining);
    if (left.isZero() || remaining.isZero()) return grant;
    const taken = remaining.min(left);
    left = left.subtract(taken);
    return { ...grant, remaining: remaining.subtract(taken).toString() };
  });
  const overage = Decimal.parse(state.overage).add(left);
  const overageStarted = left.isPositive() && state.overageStartedAt === null;
  const remainingAfter = sum(grants.map((grant) => grant.remaining));
  return {
    state: {
      grants,
      overage: overage.toString(),
      overageStartedAt: overageStarted ? at : state.overageStartedAt,
    },
    depleted: remainingBefore.isPositive() && remainingAfter.isZero(),
  };
}

/** Replays a ledger from the empty balance. */
export function replayLedger(entries: readonly LedgerEntry[]): BalanceState {
  return entries.reduce((state, entry) => applyEntry(state, entry).state, EMPTY_BALANCE);
}
