/**
 * @module
 * What a subscription change does with money, read from the service's own preview (ADR 1448):
 * the one source every customer-facing statement of a change is built from (the billing portal's
 * preview, and the tests that check it against what the change then does). Each figure is one the
 * change moves, nothing is estimated:
 *
 * - `chargedNow`: what an immediate transaction takes from the payment method (its total less the
 *   credit balance drawn for it), or bills for manual collection;
 * - `creditApplied`: the part of that transaction the customer's credit balance pays;
 * - `creditedNow`: what an immediate change worth less than nothing adds to the credit balance,
 *   which the customer's next charges in that currency draw first;
 * - `nextBillChange`: how much the next renewal's total moves (signed), and `nextBill` that
 *   renewal after the change; null when nothing renews (a scheduled pause or cancellation);
 * - `lines`: the change's own lines, each a charge or a credit with its prorated span, and
 *   `taxes` their tax per rate.
 *
 * Pure and exact: amounts are lowest currency units as bigint.
 */

import type { TimePeriod } from '../types/shared.js';
import type {
  PreviewedDetails,
  PreviewedLineItem,
  PreviewedTransaction,
  ProrationBillingMode,
  SubscriptionUpdatePreview,
  SubscriptionWithIncludes,
} from '../types/subscriptions.js';

export interface ChangeStatementLine {
  readonly kind: 'charge' | 'credit';
  readonly priceId: string;
  readonly productName: string | null;
  /** Units charged or credited (never negative). */
  readonly quantity: number;
  /** The line's total with tax, never negative; `kind` says which way it moves. */
  readonly amount: bigint;
  /** The part of the period a prorated line covers; null for a whole period (full modes). */
  readonly period: TimePeriod | null;
}

export interface ChangeStatementTax {
  /** Decimal fraction, `"0.2"` for 20%. */
  readonly rate: string;
  /** Signed: a credit gives tax back. */
  readonly amount: bigint;
}

export interface ChangeStatement {
  readonly mode: ProrationBillingMode;
  /** When the change's lines are billed. */
  readonly when: 'now' | 'next_bill' | 'never';
  readonly collectionMode: 'automatic' | 'manual';
  readonly currencyCode: string;
  readonly lines: readonly ChangeStatementLine[];
  readonly taxes: readonly ChangeStatementTax[];
  readonly chargedNow: bigint;
  readonly creditApplied: bigint;
  readonly creditedNow: bigint;
  readonly nextBillChange: bigint;
  readonly nextBill: { readonly total: bigint; readonly at: string } | null;
}

function whenOf(mode: ProrationBillingMode): ChangeStatement['when'] {
  if (mode === 'do_not_bill') return 'never';
  return mode.endsWith('immediately') ? 'now' : 'next_bill';
}

function amount(value: string | undefined | null): bigint {
  return value === undefined || value === null || value === '' ? 0n : BigInt(value);
}

function totalOf(transaction: PreviewedTransaction | null | undefined): bigint {
  return amount(transaction?.details.totals.total);
}

function linesOf(details: PreviewedDetails | null | undefined): readonly PreviewedLineItem[] {
  return details?.lineItems ?? [];
}

/**
 * The lines a next-period change adds to the next renewal: a renewal bills its recurring items
 * first and then the lines changes left for it, oldest first, so the new ones are those past the
 * recurring items and the lines that were already waiting before the change.
 */
function addedToNextBill(
  before: SubscriptionWithIncludes,
  preview: SubscriptionUpdatePreview,
): readonly PreviewedLineItem[] {
  const waiting = Math.max(
    0,
    linesOf(before.nextTransaction?.details).length - linesOf(before.recurringTransactionDetails).length,
  );
  const recurring = linesOf(preview.recurringTransactionDetails).length;
  return linesOf(preview.nextTransaction?.details).slice(recurring + waiting);
}

function statementLine(line: PreviewedLineItem): ChangeStatementLine | null {
  const total = amount(line.totals.total);
  if (total === 0n) return null;
  return {
    kind: total < 0n ? 'credit' : 'charge',
    priceId: line.priceId,
    productName: line.product?.name ?? null,
    quantity: Math.abs(line.quantity),
    amount: total < 0n ? -total : total,
    period: line.proration?.billingPeriod ?? null,
  };
}

function taxesOf(lines: readonly PreviewedLineItem[]): ChangeStatementTax[] {
  const byRate = new Map<string, bigint>();
  for (const line of lines) {
    const tax = amount(line.totals.tax);
    if (tax !== 0n) byRate.set(line.taxRate, (byRate.get(line.taxRate) ?? 0n) + tax);
  }
  return [...byRate.entries()].map(([rate, sum]) => ({ rate, amount: sum }));
}

/**
 * The statement of a change: `before` is the subscription read with
 * `include=next_transaction,recurring_transaction_details` just before the preview, `preview` the
 * service's `PATCH /subscriptions/{id}/preview` answer for the change sent with `mode`.
 */
export function changeStatement(
  before: SubscriptionWithIncludes,
  preview: SubscriptionUpdatePreview,
  mode: ProrationBillingMode,
): ChangeStatement {
  const immediate = preview.immediateTransaction;
  const totals = immediate?.details.totals;
  const immediateTotal = amount(totals?.total);
  const changeLines = immediate ? linesOf(immediate.details) : addedToNextBill(before, preview);
  const next = preview.nextTransaction;
  return {
    mode,
    when: whenOf(mode),
    collectionMode: preview.collectionMode,
    currencyCode: preview.currencyCode,
    lines: changeLines.map(statementLine).filter((line): line is ChangeStatementLine => line !== null),
    taxes: taxesOf(changeLines),
    chargedNow: immediateTotal > 0n ? amount(totals?.grandTotal ?? totals?.total) : 0n,
    creditApplied: immediateTotal > 0n ? amount(totals?.credit) : 0n,
    creditedNow: immediateTotal < 0n ? -immediateTotal : 0n,
    nextBillChange: totalOf(next) - totalOf(before.nextTransaction),
    nextBill: next && preview.nextBilledAt ? { total: totalOf(next), at: preview.nextBilledAt } : null,
  };
}
