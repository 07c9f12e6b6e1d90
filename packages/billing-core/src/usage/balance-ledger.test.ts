import { describe, expect, it } from 'vitest';
import {
  applyEntry,
  type BalanceState,
  balanceTotals,
  EMPTY_BALANCE,
  type LedgerEntry,
  replayLedger,
} from './balance-ledger.js';

const T0 = '2026-03-01T00:00:00.000Z';
const T1 = '2026-03-02T00:00:00.000Z';
const APRIL = '2026-04-01T00:00:00.000Z';
const MAY = '2026-05-01T00:00:00.000Z';

const grant = (subscriptionId: string, amount: string, expiresAt: string | null = APRIL, at = T0): LedgerEntry => ({
  kind: 'grant',
  at,
  subscriptionId,
  amount,
  expiresAt,
});
const draw = (amount: string, at = T1, usageEventId = `uev_${amount}`): LedgerEntry => ({
  kind: 'drawdown',
  at,
  usageEventId,
  amount,
});
const expire = (subscriptionId: string): LedgerEntry => ({ kind: 'expire', at: T1, subscriptionId });
const reset: LedgerEntry = { kind: 'reset_overage', at: T1 };

/** Folds entries one by one, collecting which of them flagged a depletion. */
function fold(entries: readonly LedgerEntry[], from: BalanceState = EMPTY_BALANCE) {
  let state = from;
  const depleted: number[] = [];
  for (const [index, entry] of entries.entries()) {
    const outcome = applyEntry(state, entry);
    state = outcome.state;
    if (outcome.depleted) depleted.push(index);
  }
  return { state, totals: balanceTotals(state), depleted };
}

describe('balance ledger', () => {
  it('starts empty: nothing allowed, used, remaining or over', () => {
    expect(balanceTotals(EMPTY_BALANCE)).toEqual({ allowance: '0', used: '0', remaining: '0', overage: '0' });
  });

  it('draws a drawdown from remaining into used, exactly', () => {
    expect(fold([grant('sub_a', '10'), draw('0.1'), draw('0.2')]).totals).toEqual({
      allowance: '10',
      used: '0.3',
      remaining: '9.7',
      overage: '0',
    });
  });

  it('keeps remaining at 0 and records the excess as overage, with the time overage started', () => {
    const { state, totals } = fold([grant('sub_a', '10'), draw('4', T0), draw('7.5', T1), draw('2', APRIL)]);
    expect(totals).toEqual({ allowance: '10', used: '10', remaining: '0', overage: '3.5' });
    expect(state.overageStartedAt).toBe(T1);
  });

  it('flags a depletion on the drawdown that takes remaining from above 0 to 0, and only that one', () => {
    expect(fold([grant('sub_a', '10'), draw('4'), draw('6'), draw('1'), draw('5')]).depleted).toEqual([2]);
    expect(fold([grant('sub_a', '10'), draw('4'), draw('9')]).depleted).toEqual([2]);
  });

  it('never flags a depletion on an expiry, even one that takes remaining to 0', () => {
    const { totals, depleted } = fold([grant('sub_a', '10'), draw('3'), expire('sub_a')]);
    expect(totals).toEqual({ allowance: '0', used: '0', remaining: '0', overage: '0' });
    expect(depleted).toEqual([]);
  });

  it('never flags a depletion when remaining was already 0, including an allowance of 0', () => {
    expect(fold([grant('sub_a', '0'), draw('1'), draw('2')]).depleted).toEqual([]);
    expect(fold([draw('1')]).depleted).toEqual([]);
    expect(fold([grant('sub_a', '0'), draw('1')]).totals).toEqual({
      allowance: '0',
      used: '0',
      remaining: '0',
      overage: '1',
    });
  });

  it('flags a depletion again after a grant refills a depleted balance', () => {
    const entries = [grant('sub_a', '5'), draw('5'), draw('1'), expire('sub_a'), grant('sub_a', '5'), reset, draw('5')];
    expect(fold(entries).depleted).toEqual([1, 6]);
  });

  it('combines the grants of several subscriptions and draws the one expiring first', () => {
    const { state, totals } = fold([grant('sub_late', '10', MAY), grant('sub_soon', '10', APRIL), draw('12')]);
    expect(totals).toEqual({ allowance: '20', used: '12', remaining: '8', overage: '0' });
    expect(state.grants.map((entry) => [entry.subscriptionId, entry.remaining])).toEqual([
      ['sub_soon', '0'],
      ['sub_late', '8'],
    ]);
  });

  it('draws grants without an end last, then older grants first, then by subscription id', () => {
    const { state } = fold([
      grant('sub_open', '5', null),
      grant('sub_b', '5', APRIL, T1),
      grant('sub_c', '5', APRIL, T0),
      grant('sub_a', '5', APRIL, T1),
      draw('12'),
    ]);
    expect(state.grants.map((entry) => [entry.subscriptionId, entry.remaining])).toEqual([
      ['sub_c', '0'],
      ['sub_a', '0'],
      ['sub_b', '3'],
      ['sub_open', '5'],
    ]);
  });

  it('expires only the grant of the subscription named, keeping the others and the overage', () => {
    const { totals } = fold([grant('sub_a', '5'), grant('sub_b', '7'), draw('15'), expire('sub_a')]);
    expect(totals).toEqual({ allowance: '7', used: '7', remaining: '0', overage: '3' });
  });

  it('clears overage and its start time on a reset, keeping the grants', () => {
    const { state, totals } = fold([grant('sub_a', '5'), draw('8'), reset]);
    expect(totals).toEqual({ allowance: '5', used: '5', remaining: '0', overage: '0' });
    expect(state.overageStartedAt).toBeNull();
  });

  it('restarts the overage clock after a reset', () => {
    const { state } = fold([grant('sub_a', '1'), draw('2', T0), reset, draw('1', APRIL)]);
    expect(state.overageStartedAt).toBe(APRIL);
  });

  it('replays a whole ledger to the state folded step by step', () => {
    const entries = [grant('sub_a', '10'), draw('3'), grant('sub_b', '2.5', MAY), draw('9.25'), expire('sub_a'), reset];
    expect(replayLedger(entries)).toEqual(fold(entries).state);
    expect(replayLedger([])).toEqual(EMPTY_BALANCE);
  });

  it('does not change the state it is given', () => {
    const start = fold([grant('sub_a', '10')]).state;
    const copy = structuredClone(start);
    applyEntry(start, draw('4'));
    applyEntry(start, expire('sub_a'));
    expect(start).toEqual(copy);
  });
});
