/**
 * @module
 * Credits for unused time give back the tax the customer paid, not the tax their address would
 * draw today (ADR 1447). A credit line of a change (units removed, negative quantity) carries the
 * rate and inclusion of the newest transaction of the subscription that billed its price: when
 * the address moved from New York (8.875%, tax added) to London (20%, tax included) mid-period,
 * the credit for the old plan is the 53.35 paid, not 58.80.
 */
import { Decimal } from '../money/decimal.js';
import type { Context } from '../shared/context.js';
import type { ResolvedTaxMode, Transaction, TransactionLineItem } from '../transactions/transaction.js';
import { taxLine } from '../transactions/transaction-totals.js';
import type { ChangeLine, PaidTax } from './proration.js';
import type { SubscriptionSlice } from './repositories.js';
import type { Subscription } from './subscription.js';

/** How many of the subscription's newest transactions are searched for the price's last charge. */
const SEARCHED = 50;

/**
 * Whether a charged line had its tax added (`external`) or included (`internal`): the unit
 * subtotal is the unit price itself when tax is added, the price less its included tax otherwise.
 * Null when the line does not say (no tax, or no unit price of the price matches).
 */
function inclusionOf(line: TransactionLineItem, price: ChangeLine['price']): ResolvedTaxMode | null {
  const rate = Decimal.parse(line.taxRate);
  if (rate.isZero()) return null;
  const subtotal = BigInt(line.unitTotals.subtotal);
  const candidates = [price.unitPrice, ...price.unitPriceOverrides.map((override) => override.unitPrice)].map(
    (unitPrice) => BigInt(unitPrice.amount),
  );
  if (candidates.includes(subtotal)) return 'external';
  if (candidates.some((amount) => taxLine(amount, rate, 'internal').subtotal === subtotal)) return 'internal';
  return null;
}

/** The tax the newest charge of `priceId` on the subscription paid per unit, if one is found. */
function paidTaxIn(transactions: readonly Transaction[], line: ChangeLine): PaidTax | null {
  for (const transaction of transactions) {
    const charged = transaction.details.lineItems.find((item) => item.priceId === line.price.id && item.quantity > 0);
    if (!charged) continue;
    if (Decimal.parse(charged.taxRate).isZero()) return { rate: '0', mode: 'external' };
    const mode = inclusionOf(charged, line.price);
    return mode ? { rate: charged.taxRate, mode } : null;
  }
  return null;
}

/** `lines` with each credit line carrying the tax paid on what it credits (ADR 1447). */
export async function withPaidTax(
  context: Context<SubscriptionSlice>,
  tx: SubscriptionSlice,
  subscription: Subscription,
  lines: readonly ChangeLine[],
): Promise<ChangeLine[]> {
  if (!lines.some((line) => line.quantity < 0 && line.paidTax === undefined)) return [...lines];
  const page = await tx.transactions.list(context.scope, {
    filter: {
      subscription_id: [{ op: 'in', values: [subscription.id] }],
      status: [{ op: 'in', values: ['ready', 'billed', 'paid', 'completed', 'past_due'] }],
    },
    perPage: SEARCHED,
    direction: 'desc',
    countTotal: false,
  });
  return lines.map((line) => {
    if (line.quantity >= 0 || line.paidTax !== undefined) return line;
    const paid = paidTaxIn(page.items, line);
    return paid ? { ...line, paidTax: paid } : line;
  });
}
