/**
 * @module
 * Transactions that need no payment complete when they are created or updated, in the same
 * database transaction, and the completion runs the hooks (a subscription starts) as a paid one's
 * does:
 * - an issued invoice (`billed`) whose balance is zero: its credit covers it, or it totals zero
 *   (ADR 1011);
 * - a cardless trial (ADR 1010): a transaction whose recurring items are all cardless trial
 *   prices and which owes nothing, automatically collected, as soon as it is `ready`. Started
 *   from the API alone, as the public API's cardless trials are.
 */
import { isCardlessTrialPrice } from '../catalogue/prices.js';
import type { Context } from '../shared/context.js';
import { completeSettled, type TransactionHooks } from './payments.js';
import type { TransactionSlice } from './repositories.js';
import type { Transaction } from './transaction.js';

/** The transaction would start a cardless trial: every recurring item is one, and nothing is owed. */
export function startsCardlessTrial(transaction: Transaction): boolean {
  const recurring = transaction.items.filter((item) => item.price.billingCycle !== null);
  return (
    (transaction.origin === 'api' || transaction.origin === 'web') &&
    transaction.subscriptionId === null &&
    recurring.length > 0 &&
    recurring.every((item) => isCardlessTrialPrice(item.price)) &&
    BigInt(transaction.details.totals.grandTotal) === 0n
  );
}

/** Completes `transaction` when nothing is left to pay on it (see above); otherwise answers it unchanged. */
export async function completeWhenNothingToPay(
  context: Context<TransactionSlice>,
  tx: TransactionSlice,
  transaction: Transaction,
  hooks: TransactionHooks,
): Promise<Transaction> {
  const settledInvoice = transaction.status === 'billed' && BigInt(transaction.details.totals.balance) === 0n;
  const cardlessTrial =
    transaction.collectionMode === 'automatic' && transaction.status === 'ready' && startsCardlessTrial(transaction);
  if (!settledInvoice && !cardlessTrial) return transaction;
  return completeSettled(context, tx, transaction, transaction, hooks);
}
