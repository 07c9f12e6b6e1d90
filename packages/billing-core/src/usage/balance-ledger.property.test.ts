/**
 * The ledger algebra under random interleavings of grants, drawdowns, expiries and overage
 * resets: every invariant of the seed holds after every entry.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { Decimal } from '../money/decimal.js';
import {
  applyEntry,
  type BalanceState,
  balanceTotals,
  EMPTY_BALANCE,
  type LedgerEntry,
  replayLedger,
} from './balance-ledger.js';

const SUBSCRIPTIONS = ['sub_a', 'sub_b', 'sub_c'] as const;
const EXPIRIES = [null, '2026-04-01T00:00:00.000Z', '2026-05-01T00:00:00.000Z'] as const;

/** A non-negative decimal with up to 3 integer digits and 4 decimals, as canonical text. */
const amount = fc
  .tuple(fc.integer({ min: 0, max: 999 }), fc.integer({ min: 0, max: 9_999 }))
  .map(([whole, fraction]) => Decimal.parse(`${whole}.${String(fraction).padStart(4, '0')}`).toString());
const positiveAmount = amount.filter((text) => Decimal.parse(text).isPositive());

type Step =
  | {
      readonly kind: 'grant';
      readonly subscriptionId: string;
      readonly amount: string;
      readonly expiresAt: string | null;
    }
  | { readonly kind: 'expire'; readonly subscriptionId: string }
  | { readonly kind: 'drawdown'; readonly amount: string }
  | { readonly kind: 'reset_overage' };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('grant' as const),
      subscriptionId: fc.constantFrom(...SUBSCRIPTIONS),
      amount,
      expiresAt: fc.constantFrom(...EXPIRIES),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('expire' as const), subscriptionId: fc.constantFrom(...SUBSCRIPTIONS) }),
  },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('drawdown' as const), amount: positiveAmount }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'reset_overage' as const }) },
);

/** Steps become entries stamped one second apart, in order. */
function entries(steps: readonly Step[]): LedgerEntry[] {
  return steps.map((item, index) => {
    const at = new Date(Date.UTC(2026, 2, 1) + index * 1_000).toISOString();
    return item.kind === 'drawdown' ? { ...item, at, usageEventId: `uev_${index}` } : { ...item, at };
  });
}

const ledger = fc.array(step, { maxLength: 60 }).map(entries);

const d = (text: string) => Decimal.parse(text);
const zero = Decimal.zero;

function consumed(state: BalanceState): Decimal {
  const totals = balanceTotals(state);
  return d(totals.used).add(d(totals.overage));
}

describe('balance ledger properties', () => {
  test.prop([ledger])('keeps remaining, used and overage non-negative, and allowance = used + remaining', (items) => {
    let state = EMPTY_BALANCE;
    for (const entry of items) {
      state = applyEntry(state, entry).state;
      const totals = balanceTotals(state);
      expect(d(totals.remaining).isNegative()).toBe(false);
      expect(d(totals.used).isNegative()).toBe(false);
      expect(d(totals.overage).isNegative()).toBe(false);
      expect(d(totals.allowance).equals(d(totals.used).add(d(totals.remaining)))).toBe(true);
      for (const grant of state.grants) {
        expect(d(grant.remaining).isNegative()).toBe(false);
        expect(d(grant.remaining).compare(d(grant.amount))).toBeLessThanOrEqual(0);
      }
      // Overage has a start time exactly while there is overage.
      expect(state.overageStartedAt === null).toBe(d(state.overage).isZero());
    }
  });

  test.prop([ledger])(
    'a drawdown raises used + overage by exactly its amount and raises overage only once remaining is 0',
    (items) => {
      let state = EMPTY_BALANCE;
      for (const entry of items) {
        const before = balanceTotals(state);
        const next = applyEntry(state, entry).state;
        const after = balanceTotals(next);
        if (entry.kind === 'drawdown') {
          expect(consumed(next).subtract(consumed(state)).equals(d(entry.amount))).toBe(true);
          expect(
            d(before.remaining)
              .subtract(d(after.remaining))
              .equals(d(before.remaining).min(d(entry.amount))),
          ).toBe(true);
          if (d(after.overage).compare(d(before.overage)) > 0) expect(d(after.remaining).isZero()).toBe(true);
          expect(after.allowance).toBe(before.allowance);
        }
        state = next;
      }
    },
  );

  test.prop([ledger])(
    'the drawdowns since the last reset, grant or expiry sum to the increase of used + overage over that span',
    (items) => {
      let state = EMPTY_BALANCE;
      let spanStart = consumed(state);
      let drawn = zero;
      for (const entry of items) {
        state = applyEntry(state, entry).state;
        if (entry.kind === 'drawdown') {
          drawn = drawn.add(d(entry.amount));
        } else {
          spanStart = consumed(state);
          drawn = zero;
        }
        expect(consumed(state).subtract(spanStart).equals(drawn)).toBe(true);
      }
    },
  );

  test.prop([ledger])(
    'flags a depletion exactly when a drawdown takes remaining from above 0 to 0, never on any other entry',
    (items) => {
      let state = EMPTY_BALANCE;
      for (const entry of items) {
        const before = d(balanceTotals(state).remaining);
        const outcome = applyEntry(state, entry);
        const after = d(balanceTotals(outcome.state).remaining);
        const expected = entry.kind === 'drawdown' && before.isPositive() && after.isZero();
        expect(outcome.depleted).toBe(expected);
        state = outcome.state;
      }
    },
  );

  test.prop([ledger])('never depletes twice without a grant in between', (items) => {
    let state = EMPTY_BALANCE;
    let depletedSinceGrant = false;
    for (const entry of items) {
      const outcome = applyEntry(state, entry);
      if (entry.kind === 'grant') depletedSinceGrant = false;
      if (outcome.depleted) {
        expect(depletedSinceGrant).toBe(false);
        depletedSinceGrant = true;
      }
      state = outcome.state;
    }
  });

  test.prop([ledger])('replaying the ledger equals folding it step by step, from any prefix', (items) => {
    let state = EMPTY_BALANCE;
    for (const [index, entry] of items.entries()) {
      state = applyEntry(state, entry).state;
      expect(replayLedger(items.slice(0, index + 1))).toEqual(state);
    }
    expect(replayLedger(items)).toEqual(state);
  });

  test.prop([ledger, positiveAmount, positiveAmount])(
    'drawing in two steps gives the same totals as drawing the sum at once',
    (items, first, second) => {
      const start = replayLedger(items);
      const at = '2026-06-01T00:00:00.000Z';
      const twoSteps = [first, second].reduce(
        (state, value, index) =>
          applyEntry(state, { kind: 'drawdown', at, usageEventId: `uev_split_${index}`, amount: value }).state,
        start,
      );
      const sum = d(first).add(d(second)).toString();
      const once = applyEntry(start, { kind: 'drawdown', at, usageEventId: 'uev_sum', amount: sum }).state;
      expect(balanceTotals(twoSteps)).toEqual(balanceTotals(once));
      expect(twoSteps.grants).toEqual(once.grants);
      expect(twoSteps.overageStartedAt).toBe(once.overageStartedAt);
    },
  );

  test.prop([ledger])('an expiry removes exactly the grants of its subscription and keeps overage', (items) => {
    let state = EMPTY_BALANCE;
    for (const entry of items) {
      const next = applyEntry(state, entry).state;
      if (entry.kind === 'expire') {
        expect(next.grants).toEqual(state.grants.filter((grant) => grant.subscriptionId !== entry.subscriptionId));
        expect(next.overage).toBe(state.overage);
      }
      if (entry.kind === 'reset_overage') {
        expect(next.overage).toBe('0');
        expect(next.grants).toEqual(state.grants);
      }
      state = next;
    }
  });
});
