/**
 * @module
 * Manual invoices unpaid 24 hours after their due date become `past_due` (the seed). A worker
 * runs this per account environment on that environment's clock, so sandbox time moved forward
 * makes invoices overdue as it would in live.
 */

import { type Context, nowTimestamp } from '../shared/context.js';
import { pastDueAfter } from './due-dates.js';
import type { TransactionSlice } from './repositories.js';
import { saveTransaction } from './transaction-changes.js';

export const OVERDUE_BATCH_SIZE = 100;

/** Marks up to `limit` overdue invoices of the scope past due; returns how many it marked. */
export async function markOverdueInvoices(
  context: Context<TransactionSlice>,
  limit = OVERDUE_BATCH_SIZE,
): Promise<number> {
  const now = nowTimestamp(context);
  const ids = await context.store.transactions.findOverdue(context.scope, now, limit);
  let marked = 0;
  for (const id of ids) {
    const changed = await context.store.transaction(async (tx) => {
      const current = await tx.transactions.findByIdForUpdate(context.scope, id);
      // Paid, canceled or already marked by another process since the query: nothing to do.
      const threshold = current ? pastDueAfter(current) : null;
      if (!current || threshold === null || threshold > now || BigInt(current.details.totals.balance) <= 0n) {
        return false;
      }
      await saveTransaction(context, tx, current, { ...current, status: 'past_due', updatedAt: now });
      return true;
    });
    if (changed) marked += 1;
  }
  return marked;
}
