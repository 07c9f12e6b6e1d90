import { describe, expect, it } from 'vitest';
import type { Price } from '../catalogue/entities.js';
import { allowancesByUnit, balanceEffects, type ChangeInput } from './balance-effects.js';

const AT = '2026-03-01T00:00:00.000Z';
const ENDS = '2026-04-01T00:00:00.000Z';

function price(id: string, allowances: Record<string, string>): Price {
  return {
    id,
    productId: 'pro_1',
    name: id,
    description: id,
    type: 'standard',
    billingCycle: { interval: 'month', frequency: 1 },
    trialPeriod: null,
    taxMode: 'account_setting',
    unitPrice: { amount: '1000', currencyCode: 'USD' },
    unitPriceOverrides: [],
    quantity: { minimum: 1, maximum: 100 },
    allowances: Object.entries(allowances).map(([usageBalanceUnitId, amount]) => ({ usageBalanceUnitId, amount })),
    customData: null,
    importMeta: null,
    status: 'active',
    createdAt: AT,
    updatedAt: AT,
  };
}

const basic = price('pri_basic', { ubu_calls: '100' });
const pro = price('pri_pro', { ubu_calls: '1000', ubu_storage: '2.5' });
const seats = price('pri_seats', {});
const addOn = price('pri_addon', { ubu_calls: '50' });

function change(input: Partial<ChangeInput> & Pick<ChangeInput, 'change'>): ChangeInput {
  return { subscriptionId: 'sub_1', at: AT, before: [], after: [], expiresAt: ENDS, ...input };
}

const grant = (amount: string) => ({ kind: 'grant', at: AT, subscriptionId: 'sub_1', amount, expiresAt: ENDS });
const expire = { kind: 'expire', at: AT, subscriptionId: 'sub_1' };
const reset = { kind: 'reset_overage', at: AT };

describe('allowancesByUnit', () => {
  it('multiplies each allowance by the item quantity and adds items that grant the same unit', () => {
    const totals = allowancesByUnit([
      { price: pro, quantity: 3 },
      { price: addOn, quantity: 2 },
      { price: seats, quantity: 7 },
    ]);
    expect(Object.fromEntries([...totals].map(([unit, amount]) => [unit, amount.toString()]))).toEqual({
      ubu_calls: '3100',
      ubu_storage: '7.5',
    });
  });
});

describe('balanceEffects', () => {
  it('grants amount × quantity of every unit when a subscription starts, without expiring or resetting', () => {
    expect(balanceEffects(change({ change: 'start', after: [{ price: pro, quantity: 2 }] }))).toEqual([
      { usageBalanceUnitId: 'ubu_calls', entries: [grant('2000')] },
      { usageBalanceUnitId: 'ubu_storage', entries: [grant('5')] },
    ]);
  });

  it('touches no balance for a price without allowances (rule 3)', () => {
    expect(balanceEffects(change({ change: 'start', after: [{ price: seats, quantity: 5 }] }))).toEqual([]);
    expect(
      balanceEffects(
        change({ change: 'renew', before: [{ price: seats, quantity: 5 }], after: [{ price: seats, quantity: 5 }] }),
      ),
    ).toEqual([]);
  });

  it('grants an allowance of 0 as an empty grant, so all usage is overage', () => {
    const empty = price('pri_empty', { ubu_calls: '0' });
    expect(balanceEffects(change({ change: 'start', after: [{ price: empty, quantity: 4 }] }))).toEqual([
      { usageBalanceUnitId: 'ubu_calls', entries: [grant('0')] },
    ]);
  });

  it('on renewal expires the unused allowance, grants the full allowance and clears overage', () => {
    const items = [{ price: basic, quantity: 1 }];
    expect(balanceEffects(change({ change: 'renew', before: items, after: items }))).toEqual([
      { usageBalanceUnitId: 'ubu_calls', entries: [expire, grant('100'), reset] },
    ]);
  });

  it('on an upgrade expires the old allowance and grants the new one in full at once, keeping overage', () => {
    expect(
      balanceEffects(
        change({
          change: 'change_items',
          before: [{ price: basic, quantity: 1 }],
          after: [{ price: pro, quantity: 1 }],
        }),
      ),
    ).toEqual([
      { usageBalanceUnitId: 'ubu_calls', entries: [expire, grant('1000')] },
      { usageBalanceUnitId: 'ubu_storage', entries: [grant('2.5')] },
    ]);
  });

  it('on a downgrade expires what the old price granted, including units the new price lacks', () => {
    expect(
      balanceEffects(
        change({
          change: 'change_items',
          before: [{ price: pro, quantity: 1 }],
          after: [{ price: basic, quantity: 1 }],
        }),
      ),
    ).toEqual([
      { usageBalanceUnitId: 'ubu_calls', entries: [expire, grant('100')] },
      { usageBalanceUnitId: 'ubu_storage', entries: [expire] },
    ]);
  });

  it('on a quantity change grants the allowance again for the new quantity', () => {
    expect(
      balanceEffects(
        change({
          change: 'change_items',
          before: [{ price: basic, quantity: 1 }],
          after: [{ price: basic, quantity: 3 }],
        }),
      ),
    ).toEqual([{ usageBalanceUnitId: 'ubu_calls', entries: [expire, grant('300')] }]);
  });

  it('leaves a unit alone when an item change does not touch what grants it (ADR 0152)', () => {
    const proItem = { price: pro, quantity: 1 };
    const seatItem = { price: seats, quantity: 2 };
    const before = [proItem, seatItem];
    // Reordered items, and a changed quantity of an item without allowances.
    expect(balanceEffects(change({ change: 'change_items', before, after: [seatItem, proItem] }))).toEqual([
      { usageBalanceUnitId: 'ubu_calls', entries: [] },
      { usageBalanceUnitId: 'ubu_storage', entries: [] },
    ]);
    expect(
      balanceEffects(
        change({
          change: 'change_items',
          before,
          after: [
            { price: pro, quantity: 1 },
            { price: seats, quantity: 9 },
          ],
        }),
      ),
    ).toEqual([
      { usageBalanceUnitId: 'ubu_calls', entries: [] },
      { usageBalanceUnitId: 'ubu_storage', entries: [] },
    ]);
  });

  it('re-grants only the units whose granting items changed when an add-on is added', () => {
    expect(
      balanceEffects(
        change({
          change: 'change_items',
          before: [{ price: pro, quantity: 1 }],
          after: [
            { price: pro, quantity: 1 },
            { price: addOn, quantity: 1 },
          ],
        }),
      ),
    ).toEqual([
      { usageBalanceUnitId: 'ubu_calls', entries: [expire, grant('1050')] },
      { usageBalanceUnitId: 'ubu_storage', entries: [] },
    ]);
  });

  it('when a cancellation takes effect expires the unused allowance and grants nothing', () => {
    const items = [{ price: pro, quantity: 2 }];
    expect(balanceEffects(change({ change: 'end', before: items, after: items, expiresAt: null }))).toEqual([
      { usageBalanceUnitId: 'ubu_calls', entries: [expire] },
      { usageBalanceUnitId: 'ubu_storage', entries: [expire] },
    ]);
  });

  it('stamps grants with the end of the period they are for, or null when none is known', () => {
    const [effect] = balanceEffects(
      change({ change: 'start', after: [{ price: basic, quantity: 1 }], expiresAt: null }),
    );
    expect(effect?.entries).toEqual([{ ...grant('100'), expiresAt: null }]);
  });
});
