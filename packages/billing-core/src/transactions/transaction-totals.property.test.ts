/**
 * Properties of the transaction arithmetic: for any prices, quantities, rates and tax modes,
 * totals are consistent to the unit.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import type { Price, Product } from '../catalogue/entities.js';
import { Decimal } from '../money/decimal.js';
import type { ResolvedTaxMode } from './transaction.js';
import { composeDetails, type PricedLine, priceLines } from './transaction-totals.js';

const product = { id: 'pro_x', name: 'P' } as unknown as Product;
const price = { id: 'pri_x' } as unknown as Price;

/** Any rate from 0 to 1 in millionths (six decimal places, as tax settings allow). */
const aRate = fc
  .integer({ min: 0, max: 1_000_000 })
  .map((millionths) => Decimal.parse(millionths === 1_000_000 ? '1' : `0.${String(millionths).padStart(6, '0')}`));

const aLine = fc.record({
  unitAmount: fc.bigInt({ min: 0n, max: 10n ** 15n }),
  quantity: fc.integer({ min: 1, max: 999_999_999 }),
  rate: aRate,
  mode: fc.constantFrom<ResolvedTaxMode>('internal', 'external'),
});

describe('transaction totals', () => {
  test.prop([fc.array(aLine, { minLength: 1, maxLength: 12 }), fc.bigInt({ min: 0n, max: 10n ** 12n })])(
    'sum of lines = totals; total = subtotal − discount + tax; grand total = total − credit; balance = grand total − paid',
    (lines, creditSeed) => {
      const priced = priceLines(
        lines.map((line, index): PricedLine => ({ id: `txnitm_${index}`, price, product, discount: 0n, ...line })),
      );
      const sum = (key: 'subtotal' | 'discount' | 'tax' | 'total') =>
        priced.lineItems.reduce((acc, line) => acc + BigInt(line.totals[key]), 0n);
      const credit = priced.totals.total === 0n ? 0n : creditSeed % (priced.totals.total + 1n);
      const creditTax = priced.totals.total === 0n ? 0n : (priced.totals.tax * credit) / priced.totals.total;
      const paid = (priced.totals.total - credit) / 2n;
      const details = composeDetails(
        priced,
        {
          creditTotal: credit,
          creditTax,
          paid,
          adjustments: { subtotal: credit - creditTax, discount: 0n, tax: creditTax, total: credit },
          completed: false,
        },
        'EUR',
      );
      const totals = details.totals;
      expect(BigInt(totals.subtotal)).toBe(sum('subtotal'));
      expect(BigInt(totals.tax)).toBe(sum('tax'));
      expect(BigInt(totals.total)).toBe(sum('total'));
      expect(BigInt(totals.total)).toBe(BigInt(totals.subtotal) - BigInt(totals.discount) + BigInt(totals.tax));
      expect(BigInt(totals.grandTotal)).toBe(BigInt(totals.total) - BigInt(totals.credit));
      expect(BigInt(totals.balance)).toBe(BigInt(totals.grandTotal) - paid);
      const byRate = details.taxRatesUsed.reduce((acc, entry) => acc + BigInt(entry.totals.total), 0n);
      expect(byRate).toBe(BigInt(totals.total));
      for (const line of priced.lineItems) {
        expect(BigInt(line.totals.tax)).toBeGreaterThanOrEqual(0n);
        expect(BigInt(line.totals.subtotal)).toBeGreaterThanOrEqual(0n);
      }
    },
  );
});
