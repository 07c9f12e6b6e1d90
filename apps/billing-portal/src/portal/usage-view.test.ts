import type { UsageBalance } from '@drawdown/sdk';
import { describe, expect, it } from 'vitest';
import { hasInvoice } from './invoice-availability.js';
import { translator } from './messages.js';
import { toMeterView } from './usage-view.js';

function balance(used: string, remaining: string, overage: string): UsageBalance {
  return {
    id: 'ubl_01',
    customerId: 'ctm_01',
    usageBalanceUnitId: 'ubu_01',
    balance: { used: { total: used }, remaining: { total: remaining }, overage: { total: overage } },
  };
}

const calls = { name: 'API calls', unitName: 'calls' };

describe('usage bars', () => {
  it('splits the bar into used and remaining while within the allowance', () => {
    const view = toMeterView(balance('640', '360', '0'), calls, 'en-US');
    expect(view.allowance).toBe('1000');
    expect([view.usedShare, view.remainingShare, view.overageShare]).toEqual([6_400, 3_600, 0]);
    expect(view.summary).toBe('640 of 1,000 calls used, 360 left');
  });

  it('scales the bar to allowance plus overage and names the overage', () => {
    const view = toMeterView(balance('1000', '0', '250'), calls, 'en-US');
    expect([view.usedShare, view.remainingShare, view.overageShare]).toEqual([8_000, 0, 2_000]);
    // Everything used is counted: 1,000 within the allowance and 250 past it.
    expect(view.summary).toBe('1,250 of 1,000 calls used, 0 left, 250 calls over the allowance');
    expect(view.figures).toBe('1,250 used of 1,000 calls: 250 calls over');
    expect(view.usedText).toBe('1,250');
  });

  it('writes the figures in the page’s language', () => {
    const view = toMeterView(
      balance('1000', '0', '180'),
      { name: 'API-Aufrufe', unitName: 'Aufrufe' },
      'de-DE',
      translator('de'),
    );
    expect(view.figures).toBe('1.180 genutzt von 1.000 Aufrufe: 180 Aufrufe darüber');
    expect(toMeterView(balance('640', '360', '0'), calls, 'fr-FR', translator('fr')).figures).toBe(
      '640 sur 1\u202f000 calls utilisés',
    );
  });

  it('shows an empty allowance, where all usage is overage', () => {
    const view = toMeterView(balance('0', '0', '12.5'), calls, 'de-DE');
    expect(view.overageShare).toBe(10_000);
    expect(view.overageText).toBe('12,5');
  });
});

describe('invoice availability (seed 001, rule 4)', () => {
  const details = (subtotal: string) =>
    ({ totals: { subtotal } }) as unknown as Parameters<typeof hasInvoice>[0]['details'];

  it('exists for completed automatic, and billed or completed manual transactions', () => {
    expect(hasInvoice({ status: 'completed', collectionMode: 'automatic', details: details('100') })).toBe(true);
    expect(hasInvoice({ status: 'billed', collectionMode: 'manual', details: details('100') })).toBe(true);
    expect(hasInvoice({ status: 'completed', collectionMode: 'manual', details: details('100') })).toBe(true);
  });

  it('does not exist otherwise, nor ever for zero-value transactions', () => {
    expect(hasInvoice({ status: 'billed', collectionMode: 'automatic', details: details('100') })).toBe(false);
    expect(hasInvoice({ status: 'past_due', collectionMode: 'automatic', details: details('100') })).toBe(false);
    expect(hasInvoice({ status: 'canceled', collectionMode: 'manual', details: details('100') })).toBe(false);
    expect(hasInvoice({ status: 'paid', collectionMode: 'manual', details: details('100') })).toBe(false);
    expect(hasInvoice({ status: 'completed', collectionMode: 'automatic', details: details('0') })).toBe(false);
  });
});
