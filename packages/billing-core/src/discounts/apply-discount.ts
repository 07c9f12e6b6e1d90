/**
 * @module
 * How much a discount takes off each line, in lowest units of the line's gross amount (unit
 * price × quantity, before tax is added or taken out). Pure and exact (ADR 1100):
 * - `percentage`: each eligible line loses amount% of its gross, rounded half to even.
 * - `flat_per_seat`: each eligible line loses amount × quantity, at most its gross.
 * - `flat`: the amount once per transaction, at most the eligible gross, shared among eligible
 *   lines in proportion to their gross by largest remainder, so the shares sum exactly.
 * A credit line of a subscription change (negative gross) takes the negative of what the same
 * charge would: a percentage or per-seat discount gives back what it took (ADR 1013); a flat one
 * is shared among charge lines only.
 */
import { Decimal } from '../money/decimal.js';
import { divideRounded } from '../money/rounding.js';
import { BillingError } from '../shared/billing-error.js';
import type { Discount } from './discount.js';

export interface DiscountableLine {
  readonly priceId: string;
  readonly productId: string;
  readonly quantity: number;
  readonly gross: bigint;
}

/** What the builder needs of a discount: its terms, not its bookkeeping. */
export type DiscountTerms = Pick<Discount, 'id' | 'type' | 'amount' | 'currencyCode' | 'restrictTo'>;

/** A percentage between 0.01 and 100 with at most two decimal places. */
export const PERCENTAGE_PATTERN = /^(100(\.0{1,2})?|[1-9]?\d(\.\d{1,2})?)$/;
/** Lowest currency units, above zero. */
export const FLAT_AMOUNT_PATTERN = /^[1-9]\d{0,17}$/;

function eligible(
  discount: Pick<DiscountTerms, 'restrictTo'>,
  line: Pick<DiscountableLine, 'priceId' | 'productId'>,
): boolean {
  const restrictTo = discount.restrictTo;
  return restrictTo === null || restrictTo.includes(line.priceId) || restrictTo.includes(line.productId);
}

/** Whether the discount applies to at least one of the lines. */
export function discountEligible(
  discount: Pick<DiscountTerms, 'restrictTo'>,
  lines: readonly Pick<DiscountableLine, 'priceId' | 'productId'>[],
): boolean {
  return lines.some((line) => eligible(discount, line));
}

function min(left: bigint, right: bigint): bigint {
  return left < right ? left : right;
}

/** Splits `amount` over `weights` in proportion, by largest remainder (ties to the earlier line). */
export function allocate(amount: bigint, weights: readonly bigint[]): bigint[] {
  const total = weights.reduce((sum, weight) => sum + weight, 0n);
  if (total === 0n) return weights.map(() => 0n);
  const shares = weights.map((weight) => (amount * weight) / total);
  const remainders = weights.map((weight, index) => ({ index, remainder: (amount * weight) % total }));
  let left = amount - shares.reduce((sum, share) => sum + share, 0n);
  remainders.sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1));
  for (const { index } of remainders) {
    if (left === 0n) break;
    shares[index] = (shares[index] ?? 0n) + 1n;
    left -= 1n;
  }
  return shares;
}

/**
 * The gross discount of each line, in line order.
 * @throws BillingError `transaction_invalid_discount_currency` for a flat discount in another
 *   currency; `transaction_discount_not_eligible` when no line is eligible.
 */
export function discountLines(
  discount: DiscountTerms,
  lines: readonly DiscountableLine[],
  currencyCode: string,
): bigint[] {
  if (discount.type !== 'percentage' && discount.currencyCode !== currencyCode) {
    throw new BillingError(
      'transaction_invalid_discount_currency',
      `Flat discounts must be in the transaction currency. Discount currency: ${discount.currencyCode}, transaction currency: ${currencyCode}.`,
    );
  }
  const flags = lines.map((line) => eligible(discount, line));
  if (!flags.some(Boolean)) {
    throw new BillingError(
      'transaction_discount_not_eligible',
      `Discount ${discount.id} is restricted to prices and products that are not on this transaction.`,
    );
  }
  switch (discount.type) {
    case 'percentage': {
      const percent = Decimal.parse(discount.amount);
      const scale = 10n ** BigInt(percent.scale) * 100n;
      return lines.map((line, index) =>
        flags[index] ? divideRounded(line.gross * percent.coefficient, scale, 'half-even') : 0n,
      );
    }
    case 'flat_per_seat': {
      // A credit line (negative quantity and gross) gives back what the same charge line took.
      const perSeat = BigInt(discount.amount);
      return lines.map((line, index) => {
        if (!flags[index]) return 0n;
        const sign = line.gross < 0n ? -1n : 1n;
        return sign * min(perSeat * BigInt(Math.abs(line.quantity)), sign * line.gross);
      });
    }
    case 'flat': {
      // Once per transaction, over its charge lines: credit lines take no share of it.
      const weights = lines.map((line, index) => (flags[index] && line.gross > 0n ? line.gross : 0n));
      const eligibleGross = weights.reduce((sum, weight) => sum + weight, 0n);
      return allocate(min(BigInt(discount.amount), eligibleGross), weights);
    }
  }
}
