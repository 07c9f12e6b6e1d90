/**
 * Properties of discounted transactions: for any lines, rates, tax modes and discount, every
 * line and the totals add up to the unit, the discount is taken once (the lines' shares sum to
 * exactly what the terms allow), never more than a line is worth, and credit adjustments on
 * top leave grand total = total − credit.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import type { Price, Product } from '../catalogue/entities.js';
import { Decimal } from '../money/decimal.js';
import { divideRounded } from '../money/rounding.js';
import type { ResolvedTaxMode } from '../transactions/transaction.js';
import { composeDetails, NO_SETTLEMENT, type PricedLine, priceLines } from '../transactions/transaction-totals.js';
import { type DiscountTerms, discountLines } from './apply-discount.js';

const aRate = fc
  .integer({ min: 0, max: 1_000_000 })
  .map((millionths) => Decimal.parse(millionths === 1_000_000 ? '1' : `0.${String(millionths).padStart(6, '0')}`));

const aLine = fc.record({
  priceIndex: fc.integer({ min: 0, max: 3 }),
  unitAmount: fc.bigInt({ min: 0n, max: 10n ** 12n }),
  quantity: fc.integer({ min: 1, max: 10_000 }),
  rate: aRate,
  mode: fc.constantFrom<ResolvedTaxMode>('internal', 'external'),
});

/** 0.01 to 100.00, in hundredths. */
const aPercentage = fc
  .integer({ min: 1, max: 10_000 })
  .map((hundredths) => `${Math.trunc(hundredths / 100)}.${String(hundredths % 100).padStart(2, '0')}`);

const aDiscount: fc.Arbitrary<DiscountTerms> = fc.oneof(
  fc.record({
    id: fc.constant('dsc_p'),
    type: fc.constant('percentage' as const),
    amount: aPercentage,
    currencyCode: fc.constant(null),
    restrictTo: fc.option(fc.subarray(['pri_0', 'pri_1', 'pri_2', 'pri_3'], { minLength: 1 }), { nil: null }),
  }),
  fc.record({
    id: fc.constant('dsc_f'),
    type: fc.constantFrom('flat' as const, 'flat_per_seat' as const),
    amount: fc.bigInt({ min: 1n, max: 10n ** 13n }).map(String),
    currencyCode: fc.constant('EUR'),
    restrictTo: fc.option(fc.subarray(['pri_0', 'pri_1', 'pri_2', 'pri_3'], { minLength: 1 }), { nil: null }),
  }),
);

const product = (index: number) => ({ id: `pro_${index}` }) as unknown as Product;
const price = (index: number) => ({ id: `pri_${index}` }) as unknown as Price;

describe('discounted transaction totals', () => {
  test.prop([fc.array(aLine, { minLength: 1, maxLength: 10 }), aDiscount, fc.bigInt({ min: 0n, max: 10n ** 9n })])(
    'lines add up, each line keeps total = subtotal − discount + tax, and the discount is taken exactly once',
    (lines, discount, creditSeed) => {
      const discountable = lines.map((line) => ({
        priceId: `pri_${line.priceIndex}`,
        productId: `pro_${line.priceIndex}`,
        quantity: line.quantity,
        gross: line.unitAmount * BigInt(line.quantity),
      }));
      const eligible = discountable.map(
        (line) => discount.restrictTo === null || discount.restrictTo.includes(line.priceId),
      );
      if (!eligible.some(Boolean)) return;
      const shares = discountLines(discount, discountable, 'EUR');
      shares.forEach((share, index) => {
        expect(share >= 0n && share <= (discountable[index]?.gross ?? 0n)).toBe(true);
        if (!eligible[index]) expect(share).toBe(0n);
      });
      const eligibleGross = discountable.reduce((sum, line, index) => sum + (eligible[index] ? line.gross : 0n), 0n);
      const taken = shares.reduce((sum, share) => sum + share, 0n);
      if (discount.type === 'flat') {
        const amount = BigInt(discount.amount);
        expect(taken).toBe(amount < eligibleGross ? amount : eligibleGross);
      }
      if (discount.type === 'percentage') {
        const percent = Decimal.parse(discount.amount);
        const scale = 10n ** BigInt(percent.scale) * 100n;
        discountable.forEach((line, index) => {
          const expected = eligible[index] ? divideRounded(line.gross * percent.coefficient, scale, 'half-even') : 0n;
          expect(shares[index]).toBe(expected);
        });
      }
      const priced = priceLines(
        lines.map(
          (line, index): PricedLine => ({
            id: `txnitm_${index}`,
            price: price(line.priceIndex),
            product: product(line.priceIndex),
            quantity: line.quantity,
            unitAmount: line.unitAmount,
            rate: line.rate,
            mode: line.mode,
            discount: shares[index] ?? 0n,
          }),
        ),
      );
      let discountSum = 0n;
      for (const item of priced.lineItems) {
        const totals = item.totals;
        expect(BigInt(totals.total)).toBe(BigInt(totals.subtotal) - BigInt(totals.discount) + BigInt(totals.tax));
        expect(BigInt(totals.discount) >= 0n).toBe(true);
        expect(BigInt(totals.total) >= 0n).toBe(true);
        discountSum += BigInt(totals.discount);
      }
      expect(priced.totals.discount).toBe(discountSum);
      const credit = priced.totals.total === 0n ? 0n : creditSeed % (priced.totals.total + 1n);
      const details = composeDetails(priced, { ...NO_SETTLEMENT, creditTotal: credit }, 'EUR');
      expect(BigInt(details.totals.grandTotal)).toBe(BigInt(details.totals.total) - credit);
      expect(BigInt(details.totals.total)).toBe(
        BigInt(details.totals.subtotal) - BigInt(details.totals.discount) + BigInt(details.totals.tax),
      );
    },
  );
});
