import type { Address, CustomData, Customer } from '../catalogue/entities.js';
import { usableAddressOf, usableCustomer, usablePrice } from '../catalogue/references.js';
import { BillingError } from '../shared/billing-error.js';
import type { OperationContext } from '../shared/operation-context.js';
import { nowTimestamp } from '../shared/operation-context.js';
import type { Page } from '../shared/pagination.js';
import type { Repositories } from '../shared/repository.js';
import { type BuildTransactionItem, buildTransaction } from './build-transaction.js';
import { drawCredit, releaseCredit } from './credit-balances.js';
import { DEFAULT_TAX_SETTINGS } from './tax-settings.js';
import type {
  BillingDetails,
  Transaction,
  TransactionBillingPeriod,
  TransactionCollectionMode,
} from './transaction.js';
import { insertTransaction, saveTransaction, withInvoiceNumber } from './transaction-changes.js';
import type { TransactionListQuery } from './transaction-repository.js';
import { requireTransition } from './transaction-status.js';

export interface TransactionItemInput {
  readonly priceId: string;
  readonly quantity: number;
}

export interface CreateTransactionInput {
  readonly items: readonly TransactionItemInput[];
  readonly customerId?: string | null | undefined;
  readonly addressId?: string | null | undefined;
  readonly currencyCode?: string | undefined;
  readonly collectionMode?: TransactionCollectionMode | undefined;
  readonly billingDetails?: BillingDetails | null | undefined;
  readonly billingPeriod?: TransactionBillingPeriod | null | undefined;
  readonly customData?: CustomData | undefined;
  /** `billed` issues the invoice at once (the transaction must be complete). */
  readonly status?: 'billed' | undefined;
}

export interface UpdateTransactionInput {
  readonly status?: 'billed' | 'canceled' | undefined;
  readonly items?: readonly TransactionItemInput[] | undefined;
  readonly customerId?: string | null | undefined;
  readonly addressId?: string | null | undefined;
  readonly currencyCode?: string | undefined;
  readonly collectionMode?: TransactionCollectionMode | undefined;
  readonly billingDetails?: BillingDetails | null | undefined;
  readonly billingPeriod?: TransactionBillingPeriod | null | undefined;
  readonly customData?: CustomData | undefined;
}

const EDITABLE_STATUSES: ReadonlySet<string> = new Set(['draft', 'ready']);

export async function resolveItems(
  context: OperationContext,
  tx: Repositories,
  items: readonly TransactionItemInput[],
): Promise<BuildTransactionItem[]> {
  const resolved: BuildTransactionItem[] = [];
  for (const item of items) {
    const price = await usablePrice(tx, context.scope, item.priceId);
    const product = await tx.products.findById(context.scope, price.productId);
    if (!product) throw new BillingError('product_not_found', `Product ${price.productId} not found.`);
    resolved.push({ price, product, quantity: item.quantity });
  }
  return resolved;
}

export async function resolveParties(
  context: OperationContext,
  tx: Repositories,
  customerId: string | null,
  addressId: string | null,
): Promise<{ customer: Customer | null; address: Address | null }> {
  const customer = customerId === null ? null : await usableCustomer(tx, context.scope, customerId);
  if (addressId !== null && customer === null) throw BillingError.invalidField('address_id', 'needs a customer_id');
  const address =
    customer === null || addressId === null ? null : await usableAddressOf(tx, context.scope, customer.id, addressId);
  return { customer, address };
}

/**
 * Issues the invoice: `billed`, with the next invoice number of the scope, and the customer's
 * available credit applied first (reserved until the invoice is paid; ADR 1002).
 */
export async function bill(
  context: OperationContext,
  tx: Repositories,
  transaction: Transaction,
): Promise<Transaction> {
  requireTransition(transaction.id, transaction.status, 'billed');
  const now = nowTimestamp(context);
  const credited = await drawCredit(context, tx, transaction, now);
  return withInvoiceNumber(context, tx, { ...credited, status: 'billed', billedAt: now, updatedAt: now }, now);
}

export async function createTransaction(
  context: OperationContext,
  input: CreateTransactionInput,
): Promise<Transaction> {
  return context.store.transaction(async (tx) => {
    const items = await resolveItems(context, tx, input.items);
    const { customer, address } = await resolveParties(context, tx, input.customerId ?? null, input.addressId ?? null);
    const taxSettings = (await tx.billingSettings.findTaxSettings(context.scope)) ?? DEFAULT_TAX_SETTINGS;
    let transaction = buildTransaction(
      {
        items,
        customer,
        address,
        currencyCode: input.currencyCode,
        collectionMode: input.collectionMode ?? 'automatic',
        origin: 'api',
        startsTrials: true,
        billingDetails: input.billingDetails,
        billingPeriod: input.billingPeriod,
        customData: input.customData,
      },
      { ids: context.ids, now: nowTimestamp(context), taxSettings },
    );
    if (input.status === 'billed') transaction = await bill(context, tx, transaction);
    return insertTransaction(context, tx, transaction);
  });
}

export async function updateTransaction(
  context: OperationContext,
  id: string,
  input: UpdateTransactionInput,
): Promise<Transaction> {
  return context.store.transaction(async (tx) => {
    const current = await tx.transactions.findByIdForUpdate(context.scope, id);
    if (!current) throw BillingError.notFound('Transaction', id);
    const reshapes =
      input.items !== undefined ||
      input.customerId !== undefined ||
      input.addressId !== undefined ||
      input.currencyCode !== undefined ||
      input.collectionMode !== undefined ||
      input.billingDetails !== undefined ||
      input.billingPeriod !== undefined;
    const partlyPaid = current.payments.some((payment) => payment.status === 'captured');
    if (reshapes && (!EDITABLE_STATUSES.has(current.status) || partlyPaid)) {
      throw new BillingError(
        'transaction_not_editable',
        `Transaction ${id} is ${current.status}${partlyPaid ? ' and partly paid' : ''}; only draft and ready transactions without payments can change items, customer, address, currency, collection mode or billing details.`,
      );
    }
    const now = nowTimestamp(context);
    let next: Transaction = { ...current, updatedAt: now };
    if (reshapes) {
      const items =
        input.items === undefined
          ? current.items.map((item, index) => ({
              price: item.price,
              product: current.details.lineItems[index]?.product,
              quantity: item.quantity,
            }))
          : await resolveItems(context, tx, input.items);
      const customerId = input.customerId === undefined ? current.customerId : input.customerId;
      // A new customer invalidates the address unless a new one is given with it.
      const addressId =
        input.addressId !== undefined
          ? input.addressId
          : input.customerId !== undefined && input.customerId !== current.customerId
            ? null
            : current.addressId;
      const { customer, address } = await resolveParties(context, tx, customerId, addressId);
      const taxSettings = (await tx.billingSettings.findTaxSettings(context.scope)) ?? DEFAULT_TAX_SETTINGS;
      const rebuilt = buildTransaction(
        {
          items: items.map((item) => {
            if (!item.product)
              throw new BillingError('product_not_found', `Product of price ${item.price.id} not found.`);
            return { price: item.price, product: item.product, quantity: item.quantity };
          }),
          customer,
          address,
          currencyCode: input.currencyCode ?? (input.items === undefined ? current.currencyCode : undefined),
          collectionMode: input.collectionMode ?? current.collectionMode,
          origin: current.origin,
          startsTrials: current.origin === 'api' || current.origin === 'web',
          subscriptionId: current.subscriptionId,
          billingPeriod: input.billingPeriod === undefined ? current.billingPeriod : input.billingPeriod,
          billingDetails: input.billingDetails === undefined ? current.billingDetails : input.billingDetails,
          customData: input.customData === undefined ? current.customData : input.customData,
        },
        { ids: context.ids, now, taxSettings },
        {
          id: current.id,
          createdAt: current.createdAt,
          lineIds: input.items === undefined ? current.details.lineItems.map((line) => line.id) : [],
        },
      );
      // Recorded payment attempts (failed ones, while still ready) are history and survive a rebuild.
      next = { ...rebuilt, payments: current.payments, revisedAt: current.revisedAt };
    } else if (input.customData !== undefined) {
      next = { ...next, customData: input.customData };
    }
    if (input.status === 'billed') next = await bill(context, tx, next);
    if (input.status === 'canceled') {
      requireTransition(id, next.status, 'canceled');
      next = { ...next, status: 'canceled' };
      await releaseCredit(context, tx, next, now);
    }
    return saveTransaction(context, tx, current, next);
  });
}

export async function getTransaction(context: OperationContext, id: string): Promise<Transaction> {
  const transaction = await context.store.transactions.findById(context.scope, id);
  if (!transaction) throw BillingError.notFound('Transaction', id);
  return transaction;
}

export function listTransactions(context: OperationContext, query: TransactionListQuery): Promise<Page<Transaction>> {
  return context.store.transactions.list(context.scope, query);
}
