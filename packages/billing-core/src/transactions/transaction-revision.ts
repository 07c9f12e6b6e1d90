/**
 * @module
 * Revising a billed or completed transaction (ADR 1102): the customer name, business name and
 * tax identifier, and address lines shown for it change, once; the transaction's money and the
 * customer, business and address entities themselves do not. The revision is its own record
 * (one per transaction, keyed by the transaction id), read back over the entities wherever the
 * transaction's parties are shown: `include=` and the invoice PDF.
 */
import { merge } from '../catalogue/catalogue-rules.js';
import type { Address, Business, Customer } from '../catalogue/entities.js';
import { BillingError } from '../shared/billing-error.js';
import { DuplicateKeyError } from '../shared/collection.js';
import { type Context, nowTimestamp } from '../shared/context.js';
import type { AddressRevision, BusinessRevision, CustomerRevision, TransactionRevision } from './entities.js';
import type { TransactionSlice } from './repositories.js';
import type { Transaction } from './transaction.js';
import { saveTransaction } from './transaction-changes.js';

export interface ReviseTransactionInput {
  readonly customer?: CustomerRevision | undefined;
  readonly business?: BusinessRevision | undefined;
  readonly address?: AddressRevision | undefined;
}

export interface TransactionParties {
  readonly customer: Customer | null;
  readonly business: Business | null;
  readonly address: Address | null;
}

function defined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>;
}

/** The parties as shown for the transaction: each entity with the revised fields over it. */
export function revisedParties(
  parties: TransactionParties,
  revision: TransactionRevision | undefined,
): TransactionParties {
  if (!revision) return parties;
  const { customer, business, address } = parties;
  return {
    customer: customer && revision.customer ? merge(customer, revision.customer) : customer,
    business: business && revision.business ? merge(business, revision.business) : business,
    address: address && revision.address ? merge(address, revision.address) : address,
  };
}

function hasChanges(part: object | undefined): boolean {
  return part !== undefined && Object.values(part).some((value) => value !== undefined);
}

/**
 * Revises the details shown for a billed or completed transaction, once: `revised_at` is set,
 * `transaction.revised` and `transaction.updated` are recorded.
 * @throws BillingError `transaction_invalid_status_to_revise`, `transaction_revised_limit_reached`,
 *   `invalid_field` (nothing to revise, or a business revision without a business).
 */
export async function reviseTransaction(
  context: Context<TransactionSlice>,
  id: string,
  input: ReviseTransactionInput,
): Promise<Transaction> {
  if (![input.customer, input.business, input.address].some(hasChanges)) {
    throw BillingError.invalidField('customer', 'a revision must change the customer, business or address');
  }
  return context.store.transaction(async (tx) => {
    const current = await tx.transactions.findByIdForUpdate(context.scope, id);
    if (!current) throw BillingError.notFound('Transaction', id);
    if (current.status !== 'billed' && current.status !== 'completed') {
      throw new BillingError(
        'transaction_invalid_status_to_revise',
        `Transaction ${id} is ${current.status}; only billed and completed transactions can be revised.`,
      );
    }
    if (current.revisedAt !== null) {
      throw new BillingError('transaction_revised_limit_reached', `Transaction ${id} was already revised.`);
    }
    if (hasChanges(input.business) && current.businessId === null) {
      throw BillingError.invalidField('business', 'the transaction has no business to revise');
    }
    const now = nowTimestamp(context);
    const revision: TransactionRevision = {
      id,
      customer: hasChanges(input.customer) ? defined(input.customer ?? {}) : null,
      business: hasChanges(input.business) ? defined(input.business ?? {}) : null,
      address: hasChanges(input.address) ? defined(input.address ?? {}) : null,
      createdAt: now,
    };
    try {
      await tx.transactionRevisions.insert(context.scope, revision);
    } catch (error) {
      if (error instanceof DuplicateKeyError) {
        throw new BillingError('transaction_revised_limit_reached', `Transaction ${id} was already revised.`);
      }
      throw error;
    }
    const next: Transaction = { ...current, revisedAt: now, updatedAt: now };
    return saveTransaction(context, tx, current, next, ['transaction.revised']);
  });
}

/** The revision of a transaction, if it was revised. */
export async function findRevision(
  context: Context<TransactionSlice>,
  transaction: Transaction,
): Promise<TransactionRevision | undefined> {
  return transaction.revisedAt === null
    ? undefined
    : context.store.transactionRevisions.findById(context.scope, transaction.id);
}
