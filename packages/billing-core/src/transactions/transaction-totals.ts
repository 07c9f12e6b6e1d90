/**
 * @module
 * Transaction arithmetic, in BigInt lowest units (ADR 0400).
 *
 * Rounding rule: tax is rounded once per line, half to even, on the line amount (unit price ×
 * quantity), never per unit and never on running totals. Transaction totals are exact sums of
 * the line totals, so the lines printed on an invoice always add up to its totals.
 * - Exclusive tax (`external`): subtotal = unit × quantity; tax = round(subtotal × rate);
 *   total = subtotal + tax.
 * - Inclusive tax (`internal`): total = unit × quantity; tax = round(total × rate / (1 + rate));
 *   subtotal = total − tax.
 * A discount (ADR 1100) is taken off the gross line amount before tax: exclusive, tax =
 * round((subtotal − discount) × rate); inclusive, total = gross − discount and the discount
 * shown is what it took off the net, so subtotal stays the undiscounted net.
 * Either way total = subtotal − discount + tax.
 */
import type { Price, Product } from '../catalogue/entities.js';
import type { Decimal } from '../money/decimal.js';
import { divideRounded } from '../money/rounding.js';
import type {
  AmountTotals,
  Proration,
  ResolvedTaxMode,
  TaxRateUsed,
  Transaction,
  TransactionDetails,
  TransactionLineItem,
} from './transaction.js';

export interface Amounts {
  readonly subtotal: bigint;
  readonly discount: bigint;
  readonly tax: bigint;
  readonly total: bigint;
}

const ZERO: Amounts = { subtotal: 0n, discount: 0n, tax: 0n, total: 0n };

export function addAmounts(left: Amounts, right: Amounts): Amounts {
  return {
    subtotal: left.subtotal + right.subtotal,
    discount: left.discount + right.discount,
    tax: left.tax + right.tax,
    total: left.total + right.total,
  };
}

export function amountTotalsText(amounts: Amounts): AmountTotals {
  return {
    subtotal: amounts.subtotal.toString(),
    discount: amounts.discount.toString(),
    tax: amounts.tax.toString(),
    total: amounts.total.toString(),
  };
}

export function parseAmountTotals(totals: AmountTotals): Amounts {
  return {
    subtotal: BigInt(totals.subtotal),
    discount: BigInt(totals.discount),
    tax: BigInt(totals.tax),
    total: BigInt(totals.total),
  };
}

/**
 * One line's amounts: `amount` (unit price × quantity) less a gross `discount`, taxed at `rate`
 * in `mode`, rounded half to even.
 */
export function taxLine(amount: bigint, rate: Decimal, mode: ResolvedTaxMode, discount = 0n): Amounts {
  const numerator = rate.coefficient;
  const scale = 10n ** BigInt(rate.scale);
  if (mode === 'external') {
    const tax = divideRounded((amount - discount) * numerator, scale, 'half-even');
    return { subtotal: amount, discount, tax, total: amount - discount + tax };
  }
  const inclusiveTax = (gross: bigint) => divideRounded(gross * numerator, scale + numerator, 'half-even');
  const subtotal = amount - inclusiveTax(amount);
  const total = amount - discount;
  const tax = inclusiveTax(total);
  return { subtotal, discount: subtotal + tax - total, tax, total };
}

/** The exact share of a period a prorated line bills: `remaining / whole` (milliseconds). */
export interface PeriodShare {
  readonly remaining: bigint;
  readonly whole: bigint;
  readonly proration: Proration;
}

export interface PricedLine {
  readonly id: string;
  readonly price: Price;
  readonly product: Product;
  /** Negative on a credit line of a subscription change. */
  readonly quantity: number;
  /** The unit price in lowest units, after any country override. */
  readonly unitAmount: bigint;
  readonly rate: Decimal;
  readonly mode: ResolvedTaxMode;
  /** What a discount takes off the gross line amount (unit amount × quantity); 0 without one. */
  readonly discount: bigint;
  /** Present on prorated lines: the amount is rounded once, half to even, from the exact share (ADR 1000). */
  readonly share?: PeriodShare | undefined;
}

/** `amount` scaled by the line's share of its period, rounded half to even; the whole amount without one. */
function shareOf(amount: bigint, share: PeriodShare | undefined): bigint {
  return share ? divideRounded(amount * share.remaining, share.whole, 'half-even') : amount;
}

export interface PricedLines {
  readonly lineItems: readonly TransactionLineItem[];
  readonly taxRatesUsed: readonly TaxRateUsed[];
  readonly totals: Amounts;
}

/** Computes every line and sums them; `taxRatesUsed` groups the lines by rate. */
export function priceLines(lines: readonly PricedLine[]): PricedLines {
  let totals = ZERO;
  const byRate = new Map<string, Amounts>();
  const lineItems = lines.map((line): TransactionLineItem => {
    const quantity = BigInt(line.quantity);
    const amounts = taxLine(shareOf(line.unitAmount * quantity, line.share), line.rate, line.mode, line.discount);
    // One unit's share of the line's discount, rounded on its own like the rest of unit totals. A
    // credit line (negative quantity) gives a discount back: its unit discount is what one unit took.
    const unitDiscount =
      line.discount === 0n
        ? 0n
        : quantity < 0n
          ? divideRounded(-line.discount, -quantity, 'half-even')
          : divideRounded(line.discount, quantity, 'half-even');
    const unit = taxLine(shareOf(line.unitAmount, line.share), line.rate, line.mode, unitDiscount);
    const rate = line.rate.toString();
    totals = addAmounts(totals, amounts);
    byRate.set(rate, addAmounts(byRate.get(rate) ?? ZERO, amounts));
    return {
      id: line.id,
      priceId: line.price.id,
      quantity: line.quantity,
      proration: line.share?.proration ?? null,
      taxRate: rate,
      unitTotals: amountTotalsText(unit),
      totals: amountTotalsText(amounts),
      product: line.product,
    };
  });
  const taxRatesUsed = [...byRate.entries()].map(([taxRate, amounts]) => ({
    taxRate,
    totals: amountTotalsText(amounts),
  }));
  return { lineItems, taxRatesUsed, totals };
}

/** What has happened to a transaction's money since its lines were priced. */
export interface Settlement {
  /** Credit applied to the unpaid amount, and the tax inside it. */
  readonly creditTotal: bigint;
  readonly creditTax: bigint;
  /** Sum of captured payments. */
  readonly paid: bigint;
  /** Sums of every approved adjustment (credits and refunds). */
  readonly adjustments: Amounts;
  readonly completed: boolean;
}

export const NO_SETTLEMENT: Settlement = {
  creditTotal: 0n,
  creditTax: 0n,
  paid: 0n,
  adjustments: ZERO,
  completed: false,
};

/**
 * The details of priced lines after a settlement: grand total = total − credit + credit to
 * balance; balance = grand total − paid. Lines that sum below zero (a downgrade's credit) owe
 * nothing: their whole negative total is credit to the customer's balance, and grand total is 0.
 */
export function composeDetails(lines: PricedLines, settlement: Settlement, currencyCode: string): TransactionDetails {
  const { totals } = lines;
  const creditToBalance = totals.total < 0n ? -totals.total : 0n;
  const grandTotal = totals.total - settlement.creditTotal + creditToBalance;
  const grandTotalTax = totals.total < 0n ? 0n : totals.tax - settlement.creditTax;
  const balance = grandTotal - settlement.paid;
  // Drawdown takes no fee: earnings are what was charged, net of tax.
  const earnings = (grandTotal - grandTotalTax).toString();
  const adjusted: Amounts = {
    subtotal: totals.subtotal - settlement.adjustments.subtotal,
    discount: totals.discount,
    tax: totals.tax - settlement.adjustments.tax,
    total: totals.total - settlement.adjustments.total,
  };
  const text = amountTotalsText(totals);
  return {
    taxRatesUsed: lines.taxRatesUsed,
    totals: {
      ...text,
      credit: settlement.creditTotal.toString(),
      creditToBalance: creditToBalance.toString(),
      balance: balance.toString(),
      grandTotal: grandTotal.toString(),
      grandTotalTax: grandTotalTax.toString(),
      fee: settlement.completed ? '0' : null,
      earnings: settlement.completed ? earnings : null,
      currencyCode,
    },
    adjustedTotals: {
      subtotal: adjusted.subtotal.toString(),
      tax: adjusted.tax.toString(),
      total: adjusted.total.toString(),
      // Credit comes only from credit adjustments, which are already inside the adjusted total.
      grandTotal: adjusted.total.toString(),
      grandTotalTax: adjusted.tax.toString(),
      fee: '0',
      earnings: (adjusted.subtotal - adjusted.discount).toString(),
      retainedFee: '0',
      currencyCode,
    },
    payoutTotals: settlement.completed
      ? {
          ...text,
          credit: settlement.creditTotal.toString(),
          creditToBalance: creditToBalance.toString(),
          balance: balance.toString(),
          grandTotal: grandTotal.toString(),
          grandTotalTax: grandTotalTax.toString(),
          fee: '0',
          earnings,
          currencyCode,
          exchangeRate: '1',
          feeRate: '0',
        }
      : null,
    adjustedPayoutTotals: null,
    lineItems: lines.lineItems,
  };
}

/** Reads a stored transaction back into its priced lines and settlement, to recompose it after a change. */
export function decompose(transaction: Transaction): { lines: PricedLines; settlement: Settlement } {
  const { totals, adjustedTotals } = transaction.details;
  const amounts = parseAmountTotals(totals);
  const paid = transaction.payments
    .filter((payment) => payment.status === 'captured')
    .reduce((sum, payment) => sum + BigInt(payment.amount), 0n);
  return {
    lines: {
      lineItems: transaction.details.lineItems,
      taxRatesUsed: transaction.details.taxRatesUsed,
      totals: amounts,
    },
    settlement: {
      creditTotal: BigInt(totals.credit),
      creditTax: amounts.tax - BigInt(totals.grandTotalTax),
      paid,
      adjustments: {
        subtotal: amounts.subtotal - BigInt(adjustedTotals.subtotal),
        discount: 0n,
        tax: amounts.tax - BigInt(adjustedTotals.tax),
        total: amounts.total - BigInt(adjustedTotals.total),
      },
      completed: transaction.status === 'completed',
    },
  };
}
