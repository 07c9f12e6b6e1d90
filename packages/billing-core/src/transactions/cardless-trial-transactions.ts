/**
 * @module
 * Cardless trials start from the API alone (ADR 1010): a transaction whose recurring items are
 * all cardless trial prices, and which owes nothing, needs no payment, so it completes as soon as
 * it is due and the completion starts the trialing subscription (through the hooks, as any
 * completion does). Automatic collection is due once the transaction is ready; manual
 * collection once it is billed, as the public API asks a cardless trial's invoice to be.
 */
import { isCardlessTrialPrice } from '../catalogue/prices.js';
import type { OperationContext } from '../shared/operation-context.js';
import type { Repositories } from '../shared/repository.js';
import { completeSettled, type TransactionHooks } from './payments.js';
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

/** Completes `transaction` when it starts a cardless trial and is due; otherwise answers it unchanged. */
export async function completeIfCardlessTrial(
  context: OperationContext,
  tx: Repositories,
  transaction: Transaction,
  hooks: TransactionHooks,
): Promise<Transaction> {
  const due =
    transaction.collectionMode === 'automatic' ? transaction.status === 'ready' : transaction.status === 'billed';
  if (!due || !startsCardlessTrial(transaction)) return transaction;
  return completeSettled(context, tx, transaction, transaction, hooks);
}
