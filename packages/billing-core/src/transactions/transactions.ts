/**
 * @module
 * Transactions through the API: create (`draft` when customer or address is missing, `ready`
 * when complete, or issued at once with `status: billed`), change while unbilled, bill, cancel,
 * get and list. Payments are in `payments.ts`.
 */

import { resolveBusiness } from '../catalogue/businesses.js';
import type { Address, CustomData, Customer } from '../catalogue/entities.js';
import { type NonCataloguePriceInput, nonCatalogueItem } from '../catalogue/non-catalogue-items.js';
import { usableAddressOf, usableCustomer, usablePrice } from '../catalogue/references.js';
import type { DiscountTerms } from '../discounts/apply-discount.js';
import { type DiscountTermsInput, insertDiscount, redeemDiscount, releaseDiscount } from '../discounts/discounts.js';
import { BillingError } from '../shared/billing-error.js';
import { type Context, nowTimestamp } from '../shared/context.js';
import type { Page } from '../shared/pagination.js';
import { storedTaxIdCheck, type TaxIdPorts, verifyBusinessTaxId } from '../tax/tax-id-checks.js';
import { type BuildTransactionItem, buildTransaction } from './build-transaction.js';
import { drawCredit, releaseCredit } from './credit-balances.js';
import { completeWhenNothingToPay } from './nothing-to-pay.js';
import { refuseWhilePaymentInFlight } from './payment-in-flight.js';
import type { TransactionHooks } from './payments.js';
import type { TransactionListQuery, TransactionSlice } from './repositories.js';
import { requireLiveTaxChoice, withTaxDefaults } from './tax-settings.js';
import type {
  BillingDetails,
  Transaction,
  TransactionBillingPeriod,
  TransactionCheckout,
  TransactionCollectionMode,
} from './transaction.js';
import {
  checkoutUrl,
  insertTransaction,
  paysThroughCheckout,
  saveTransaction,
  withInvoiceNumber,
} from './transaction-changes.js';
import { requireTransition } from './transaction-status.js';

/** A catalogue price by id, or a non-catalogue price (ADR 1108): exactly one of the two. */
export interface TransactionItemInput {
  readonly priceId?: string | null | undefined;
  readonly price?: NonCataloguePriceInput | null | undefined;
  readonly quantity: number;
}

/** A discount made for one transaction (`mode: custom`), in the transaction's currency. */
export type NonCatalogueDiscountInput = DiscountTermsInput;

interface DiscountChoice {
  /** A catalogue discount to apply; null removes the current one. */
  readonly discountId?: string | null | undefined;
  /** A non-catalogue discount to create and apply; null removes the current one. */
  readonly discount?: NonCatalogueDiscountInput | null | undefined;
}

export interface CreateTransactionInput extends DiscountChoice {
  readonly items: readonly TransactionItemInput[];
  readonly customerId?: string | null | undefined;
  readonly addressId?: string | null | undefined;
  readonly businessId?: string | null | undefined;
  readonly currencyCode?: string | undefined;
  readonly collectionMode?: TransactionCollectionMode | undefined;
  readonly billingDetails?: BillingDetails | null | undefined;
  readonly billingPeriod?: TransactionBillingPeriod | null | undefined;
  readonly customData?: CustomData | undefined;
  /** `billed` issues the invoice at once (the transaction must be complete). */
  readonly status?: 'billed' | undefined;
  /** The payment page to send the customer to (ADR 1470); a null url takes the default payment link. */
  readonly checkout?: CheckoutChoice | null | undefined;
}

export interface CheckoutChoice {
  readonly url: string | null;
}

export interface UpdateTransactionInput extends DiscountChoice {
  readonly status?: 'billed' | 'canceled' | undefined;
  readonly items?: readonly TransactionItemInput[] | undefined;
  readonly customerId?: string | null | undefined;
  readonly addressId?: string | null | undefined;
  readonly businessId?: string | null | undefined;
  readonly currencyCode?: string | undefined;
  readonly collectionMode?: TransactionCollectionMode | undefined;
  readonly billingDetails?: BillingDetails | null | undefined;
  readonly billingPeriod?: TransactionBillingPeriod | null | undefined;
  readonly customData?: CustomData | undefined;
  readonly checkout?: CheckoutChoice | null | undefined;
}

/**
 * A transaction's `checkout` as the caller chose it (ADR 1470): the URL with `_ptxn`, null for the
 * default payment link, or undefined when not sent. Only a transaction paid through a checkout
 * takes one; the URL is an https address (http too in the sandbox), without a fragment.
 */
function chosenCheckout(
  context: Context<TransactionSlice>,
  choice: CheckoutChoice | null | undefined,
  transaction: Transaction,
): TransactionCheckout | null | undefined {
  if (choice === undefined) return undefined;
  const url = choice?.url ?? null;
  if (url === null) return null;
  if (!paysThroughCheckout(transaction)) {
    throw BillingError.invalidField(
      'checkout.url',
      'is only for an automatically collected transaction, or a manual one with billing_details.enable_checkout true',
    );
  }
  const pattern =
    context.scope.environment === 'sandbox' ? /^https?:\/\/[^\s#?]+(\?[^\s#]*)?$/ : /^https:\/\/[^\s#?]+(\?[^\s#]*)?$/;
  if (!pattern.test(url) || /[?&]_ptxn=/.test(url)) {
    throw BillingError.invalidField(
      'checkout.url',
      context.scope.environment === 'sandbox'
        ? 'must be an http or https URL without a fragment or _ptxn, at most 2048 characters'
        : 'must be an https URL without a fragment or _ptxn, at most 2048 characters',
    );
  }
  return { url: checkoutUrl(url, transaction.id) };
}

const EDITABLE_STATUSES: ReadonlySet<string> = new Set(['draft', 'ready']);
const CHECKOUT_EDITABLE_STATUSES: ReadonlySet<string> = new Set(['draft', 'ready', 'billed', 'past_due']);

/**
 * The items' prices and products. Non-catalogue prices (and products) are made as `custom`
 * entities, stored with `persist` (creates and updates) and in memory only without (previews).
 */
export async function resolveItems(
  context: Context<TransactionSlice>,
  tx: TransactionSlice,
  items: readonly TransactionItemInput[],
  persist: boolean,
): Promise<BuildTransactionItem[]> {
  const resolved: BuildTransactionItem[] = [];
  for (const [index, item] of items.entries()) {
    const hasId = item.priceId != null;
    const hasPrice = item.price != null;
    if (hasId === hasPrice) {
      throw BillingError.invalidField(
        `items[${index}].${hasId ? 'price' : 'price_id'}`,
        hasId ? 'cannot be sent with price_id: send one of them' : 'or price is required',
      );
    }
    if (item.price != null) {
      const made = await nonCatalogueItem(context, tx, item.price, `items[${index}].price`, persist);
      resolved.push({ ...made, quantity: item.quantity });
      continue;
    }
    const price = await usablePrice(tx, context.scope, item.priceId ?? '');
    const product = await tx.products.findById(context.scope, price.productId);
    if (!product) throw new BillingError('product_not_found', `Product ${price.productId} not found.`);
    resolved.push({ price, product, quantity: item.quantity });
  }
  return resolved;
}

export async function resolveParties(
  context: Context<TransactionSlice>,
  tx: TransactionSlice,
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
 * Resolves the discount a request asks for and counts its redemption (ADR 1100): a catalogue
 * discount must be usable now; a non-catalogue one is created (`mode: custom`) in `currencyCode`.
 * Undefined when the request names none; null when it removes the discount.
 */
async function chooseDiscount(
  context: Context<TransactionSlice>,
  tx: TransactionSlice,
  choice: DiscountChoice,
  currencyCode: string | undefined,
): Promise<DiscountTerms | null | undefined> {
  if (choice.discountId != null && choice.discount != null) {
    throw new BillingError('transaction_discount_conflict', 'Send discount_id or discount, not both.');
  }
  if (choice.discountId != null) return redeemDiscount(context, tx, choice.discountId);
  if (choice.discount != null) {
    const flat = choice.discount.type !== 'percentage';
    if (flat && currencyCode === undefined) {
      throw new BillingError(
        'transaction_requires_currency_code_for_custom_discount',
        'A transaction with a flat non-catalogue discount needs a currency_code.',
      );
    }
    const input = { ...choice.discount, mode: 'custom' as const, currencyCode: flat ? currencyCode : null };
    return insertDiscount(context, tx, input, 1);
  }
  if (choice.discountId === null || choice.discount === null) return null;
  return undefined;
}

/** The terms of the discount a transaction already carries. */
async function currentDiscount(
  context: Context<TransactionSlice>,
  tx: TransactionSlice,
  transaction: Transaction,
): Promise<DiscountTerms | null> {
  if (transaction.discountId === null) return null;
  const discount = await tx.discounts.findById(context.scope, transaction.discountId);
  if (!discount)
    throw new BillingError('transaction_discount_not_found', `Discount ${transaction.discountId} not found.`);
  return discount;
}

/**
 * Issues the invoice: `billed`, with the next invoice number of the scope, and the customer's
 * available credit applied first (reserved until the invoice is paid; ADR 1002).
 */
export async function bill(
  context: Context<TransactionSlice>,
  tx: TransactionSlice,
  transaction: Transaction,
): Promise<Transaction> {
  requireTransition(transaction.id, transaction.status, 'billed');
  const now = nowTimestamp(context);
  const credited = await drawCredit(context, tx, transaction, now);
  return withInvoiceNumber(context, tx, { ...credited, status: 'billed', billedAt: now, updatedAt: now }, now);
}

/**
 * Checks the VAT id of the business a transaction will name with VIES (ADR 1437), before the
 * database transaction that builds it: reads only, then the register and the verdict's own write.
 * Ids that do not resolve are left to the build, which refuses them.
 */
export async function verifyTransactionTaxId(
  context: Context<TransactionSlice> & TaxIdPorts,
  businessId: string | null,
  addressId: string | null,
): Promise<void> {
  if (!context.taxIds || businessId === null) return;
  const business = await context.store.businesses.findById(context.scope, businessId);
  const address = addressId === null ? undefined : await context.store.addresses.findById(context.scope, addressId);
  await verifyBusinessTaxId(context, business, address?.countryCode ?? null);
}

/** `verifyTransactionTaxId` for the business and address a stored transaction names. */
export async function verifyStoredTransactionTaxId(
  context: Context<TransactionSlice> & TaxIdPorts,
  transactionId: string,
): Promise<void> {
  if (!context.taxIds) return;
  const transaction = await context.store.transactions.findById(context.scope, transactionId);
  if (transaction) await verifyTransactionTaxId(context, transaction.businessId, transaction.addressId);
}

/** Creates a transaction; one that starts a cardless trial completes at once, running `hooks` (ADR 1010). */
export async function createTransaction(
  context: Context<TransactionSlice>,
  input: CreateTransactionInput,
  hooks: TransactionHooks,
): Promise<Transaction> {
  await verifyTransactionTaxId(context, input.businessId ?? null, input.addressId ?? null);
  return context.store.transaction(async (tx) => {
    const items = await resolveItems(context, tx, input.items, true);
    const { customer, address } = await resolveParties(context, tx, input.customerId ?? null, input.addressId ?? null);
    const business =
      input.businessId == null ? null : await resolveBusiness(context, tx, input.businessId, customer?.id ?? null);
    const taxSettings = withTaxDefaults(await tx.billingSettings.findTaxSettings(context.scope));
    const discount = await chooseDiscount(context, tx, input, input.currencyCode);
    const taxIdCheck = await storedTaxIdCheck(context, tx, business, address?.countryCode ?? null);
    let transaction = buildTransaction(
      {
        items,
        customer,
        address,
        business,
        taxIdCheck,
        currencyCode: input.currencyCode,
        collectionMode: input.collectionMode ?? 'automatic',
        origin: 'api',
        startsTrials: true,
        billingDetails: input.billingDetails,
        billingPeriod: input.billingPeriod,
        customData: input.customData,
        discount,
      },
      { ids: context.ids, now: nowTimestamp(context), taxSettings },
    );
    const checkout = chosenCheckout(context, input.checkout, transaction);
    if (checkout) transaction = { ...transaction, checkout };
    if (input.status === 'billed') transaction = await bill(context, tx, transaction);
    // A live transaction that can be charged or billed waits for the live tax choice (ADR 1439).
    if (transaction.status !== 'draft') await requireLiveTaxChoice(context, tx);
    const inserted = await afterBilled(context, tx, await insertTransaction(context, tx, transaction), hooks);
    return completeWhenNothingToPay(context, tx, inserted, hooks);
  });
}

/** Updates a transaction; one that now starts a cardless trial completes at once, running `hooks`. */
export async function updateTransaction(
  context: Context<TransactionSlice> & TaxIdPorts,
  id: string,
  input: UpdateTransactionInput,
  hooks: TransactionHooks,
): Promise<Transaction> {
  if (context.taxIds) {
    const current = await context.store.transactions.findById(context.scope, id);
    if (current) {
      const businessId = input.businessId !== undefined ? input.businessId : current.businessId;
      const addressId = input.addressId !== undefined ? input.addressId : current.addressId;
      await verifyTransactionTaxId(context, businessId, addressId);
    }
  }
  return context.store.transaction(async (tx) => {
    const updated = await updateTransactionIn(context, tx, id, input);
    const billed = input.status === 'billed' ? await afterBilled(context, tx, updated, hooks) : updated;
    return completeWhenNothingToPay(context, tx, billed, hooks);
  });
}

/** A manual invoice just billed runs the `afterBilled` hook (its subscription starts) and is read again. */
async function afterBilled(
  context: Context<TransactionSlice>,
  tx: TransactionSlice,
  transaction: Transaction,
  hooks: TransactionHooks,
): Promise<Transaction> {
  if (transaction.status !== 'billed' || transaction.collectionMode !== 'manual' || !hooks.afterBilled) {
    return transaction;
  }
  await hooks.afterBilled(tx, transaction);
  return (await tx.transactions.findById(context.scope, transaction.id)) ?? transaction;
}

/** `updateTransaction` inside the caller's database transaction (a checkout sets the customer and address). */
export async function updateTransactionIn(
  context: Context<TransactionSlice>,
  tx: TransactionSlice,
  id: string,
  input: UpdateTransactionInput,
): Promise<Transaction> {
  {
    const current = await tx.transactions.findByIdForUpdate(context.scope, id);
    if (!current) throw BillingError.notFound('Transaction', id);
    const reshapes =
      input.items !== undefined ||
      input.customerId !== undefined ||
      input.addressId !== undefined ||
      input.businessId !== undefined ||
      input.currencyCode !== undefined ||
      input.collectionMode !== undefined ||
      input.billingDetails !== undefined ||
      input.billingPeriod !== undefined ||
      input.discountId !== undefined ||
      input.discount !== undefined;
    if (reshapes || input.status !== undefined) {
      await refuseWhilePaymentInFlight(
        context,
        tx,
        id,
        input.status === 'canceled' ? 'canceling it' : input.status === 'billed' ? 'billing it' : 'changing it',
      );
    }
    const partlyPaid = current.payments.some((payment) => payment.status === 'captured');
    if (reshapes && (!EDITABLE_STATUSES.has(current.status) || partlyPaid)) {
      throw new BillingError(
        'transaction_not_editable',
        `Transaction ${id} is ${current.status}${partlyPaid ? ' and partly paid' : ''}; only draft and ready transactions without payments can change items, customer, address, currency, collection mode, billing details or discount.`,
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
          : await resolveItems(context, tx, input.items, true);
      const customerId = input.customerId === undefined ? current.customerId : input.customerId;
      // A new customer invalidates the address unless a new one is given with it.
      const addressId =
        input.addressId !== undefined
          ? input.addressId
          : input.customerId !== undefined && input.customerId !== current.customerId
            ? null
            : current.addressId;
      const { customer, address } = await resolveParties(context, tx, customerId, addressId);
      // Like the address, the business goes with a change of customer unless a new one is given.
      const businessId =
        input.businessId !== undefined
          ? input.businessId
          : input.customerId !== undefined && input.customerId !== current.customerId
            ? null
            : current.businessId;
      const business =
        businessId === null ? null : await resolveBusiness(context, tx, businessId, customer?.id ?? null);
      const taxSettings = withTaxDefaults(await tx.billingSettings.findTaxSettings(context.scope));
      const sameDiscount = input.discountId !== undefined && input.discountId === current.discountId;
      const chosen = sameDiscount
        ? undefined
        : await chooseDiscount(context, tx, input, input.currencyCode ?? current.currencyCode);
      if (chosen !== undefined && current.discountId !== null) await releaseDiscount(context, tx, current.discountId);
      const discount = chosen === undefined ? await currentDiscount(context, tx, current) : chosen;
      // The verdict was stored before this database transaction (ADR 1437): read, never asked for, here.
      const taxIdCheck = await storedTaxIdCheck(context, tx, business, address?.countryCode ?? null);
      const rebuilt = buildTransaction(
        {
          items: items.map((item) => {
            if (!item.product)
              throw new BillingError('product_not_found', `Product of price ${item.price.id} not found.`);
            return { price: item.price, product: item.product, quantity: item.quantity };
          }),
          customer,
          address,
          business,
          taxIdCheck,
          currencyCode: input.currencyCode ?? (input.items === undefined ? current.currencyCode : undefined),
          collectionMode: input.collectionMode ?? current.collectionMode,
          origin: current.origin,
          startsTrials: current.origin === 'api' || current.origin === 'web',
          subscriptionId: current.subscriptionId,
          billingPeriod: input.billingPeriod === undefined ? current.billingPeriod : input.billingPeriod,
          billingDetails: input.billingDetails === undefined ? current.billingDetails : input.billingDetails,
          customData: input.customData === undefined ? current.customData : input.customData,
          discount,
        },
        { ids: context.ids, now, taxSettings },
        {
          id: current.id,
          createdAt: current.createdAt,
          lineIds: input.items === undefined ? current.details.lineItems.map((line) => line.id) : [],
        },
      );
      // Recorded payment attempts (failed ones, while still ready) are history and survive a rebuild;
      // so does the checkout link, while the transaction is still paid through a checkout.
      next = {
        ...rebuilt,
        payments: current.payments,
        revisedAt: current.revisedAt,
        checkout: paysThroughCheckout(rebuilt) ? current.checkout : null,
      };
    } else if (input.customData !== undefined) {
      next = { ...next, customData: input.customData };
    }
    if (input.checkout !== undefined) {
      if (!CHECKOUT_EDITABLE_STATUSES.has(next.status)) {
        throw new BillingError(
          'transaction_not_editable',
          `Transaction ${id} is ${next.status}; its checkout can change only while it can be paid.`,
        );
      }
      // Null: the default payment link is given back when the transaction is saved.
      next = { ...next, checkout: chosenCheckout(context, input.checkout, next) ?? null };
    }
    if (input.status === 'billed') next = await bill(context, tx, next);
    if ((reshapes || input.status === 'billed') && (next.status === 'ready' || next.status === 'billed')) {
      await requireLiveTaxChoice(context, tx);
    }
    if (input.status === 'canceled') {
      requireTransition(id, next.status, 'canceled');
      // A canceled transaction gives its discount's redemption back.
      if (next.discountId !== null) await releaseDiscount(context, tx, next.discountId);
      next = { ...next, status: 'canceled' };
      await releaseCredit(context, tx, next, now);
    }
    return saveTransaction(context, tx, current, next);
  }
}

export async function getTransaction(context: Context<TransactionSlice>, id: string): Promise<Transaction> {
  const transaction = await context.store.transactions.findById(context.scope, id);
  if (!transaction) throw BillingError.notFound('Transaction', id);
  return transaction;
}

export function listTransactions(
  context: Context<TransactionSlice>,
  query: TransactionListQuery,
): Promise<Page<Transaction>> {
  return context.store.transactions.list(context.scope, query);
}
