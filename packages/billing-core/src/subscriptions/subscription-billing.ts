/**
 * @module
 * Where subscriptions meet transactions. A completed checkout transaction for recurring prices
 * starts a subscription; every renewal issues a `subscription_recurring` transaction for the new
 * period; a failed renewal payment sends the subscription `past_due`, and the payment that later
 * completes the transaction makes it `active` again. Payments are recorded, never taken: in the
 * sandbox renewals are paid (or failed) by simulation, in live they wait for the operator's
 * payment provider to report (DESIGN §4).
 */

import type { DiscountTerms } from '../discounts/apply-discount.js';
import { type Context, nowTimestamp } from '../shared/context.js';
import type { Scope } from '../shared/scope.js';
import { storedTaxIdCheck, type TaxIdPorts, verifyBusinessTaxId } from '../tax/tax-id-checks.js';
import { type BuildTransactionItem, buildTransaction } from '../transactions/build-transaction.js';
import { drawCredit } from '../transactions/credit-balances.js';
import { startsCardlessTrial } from '../transactions/nothing-to-pay.js';
import {
  completeSettled,
  NO_HOOKS,
  recordPaymentInTransaction,
  type TransactionHooks,
} from '../transactions/payments.js';
import { type PaymentMethod, SANDBOX_PROVIDER, sandboxOffSessionOutcome } from '../transactions/saved-methods.js';
import { withTaxDefaults } from '../transactions/tax-settings.js';
import type { Transaction } from '../transactions/transaction.js';
import { insertTransaction, saveTransaction } from '../transactions/transaction-changes.js';
import { bill } from '../transactions/transactions.js';
import { type ChangeLine, fromPending } from './proration.js';
import type { SubscriptionSlice } from './repositories.js';
import { startSubscription } from './start-subscription.js';
import type { BillingPeriod, PendingChangeLine, Subscription } from './subscription.js';
import { saveChange } from './subscription-changes.js';

/** How renewal payments are settled: simulated success or failure (sandbox), or left to a provider report. */
export type RenewalPayment = 'success' | 'failure' | 'await_report' | AuthorisedPayment;

/**
 * An immediate charge whose money a live provider already holds (ADR 1426): the charge is
 * issued under `transactionId` (the id the authorisation was made for) and left `ready`, with
 * its payment in flight, for the capture after the commit.
 */
export interface AuthorisedPayment {
  readonly authorised: { readonly transactionId: string };
}

/** Sandbox renewals are paid by the simulated card; live ones wait for the provider's report. */
export function defaultRenewalPayment(scope: Scope): RenewalPayment {
  return scope.environment === 'sandbox' ? 'success' : 'await_report';
}

/**
 * How a charge the service makes by itself at a caller's request (an immediate subscription
 * change) is settled (ADR 1003): in the sandbox, by the account's simulated card, whose outcome
 * `PUT /sandbox-payment-outcome` sets (success until set); in live, by the provider's later report.
 */
export async function sandboxPaymentOutcome(context: Context<SubscriptionSlice>): Promise<RenewalPayment> {
  if (context.scope.environment !== 'sandbox') return 'await_report';
  return context.store.sandboxClocks.paymentOutcomeOf(context.scope.accountId);
}

/** `GET /sandbox-payment-outcome`: the outcome of the account's simulated card. */
export function readSandboxPaymentOutcome(context: Context<SubscriptionSlice>): Promise<'success' | 'failure'> {
  return context.store.sandboxClocks.paymentOutcomeOf(context.scope.accountId);
}

/** `PUT /sandbox-payment-outcome`: sets how the account's simulated card settles sandbox charges. */
export async function setSandboxPaymentOutcome(
  context: Context<SubscriptionSlice>,
  outcome: 'success' | 'failure',
): Promise<'success' | 'failure'> {
  await context.store.sandboxClocks.setPaymentOutcome(context.scope.accountId, outcome);
  return outcome;
}

/**
 * The hooks a completing transaction runs: start the subscription it paid for, or revive one past
 * due; and a manual invoice billed through the API starts its subscription when it is billed.
 */
export function subscriptionHooks(context: Context<SubscriptionSlice>): TransactionHooks {
  const start = async (tx: SubscriptionSlice, transaction: Transaction) => {
    const recurring = transaction.items.filter((item) => item.price.billingCycle !== null);
    if (recurring.length === 0 || transaction.customerId === null) return;
    const subscription = await startSubscription(context, tx, {
      customerId: transaction.customerId,
      addressId: transaction.addressId,
      currencyCode: transaction.currencyCode,
      collectionMode: transaction.collectionMode,
      items: recurring.map((item) => ({ priceId: item.price.id, quantity: item.quantity })),
      transactionId: transaction.id,
      customData: transaction.customData,
      billingDetails: transaction.billingDetails,
      businessId: transaction.businessId,
      cardlessTrial: startsCardlessTrial(transaction),
      discount:
        transaction.discountId === null
          ? undefined
          : await tx.discounts.findById(context.scope, transaction.discountId),
    });
    await saveTransaction(context, tx, transaction, {
      ...transaction,
      subscriptionId: subscription.id,
      billingPeriod: subscription.currentBillingPeriod,
    });
  };
  return {
    afterCompleted: async (tx: SubscriptionSlice, transaction) => {
      if (transaction.subscriptionId !== null) {
        await reviveIfPastDue(context, tx, transaction.subscriptionId, transaction.updatedAt);
        return;
      }
      await start(tx, transaction);
    },
    afterBilled: async (tx: SubscriptionSlice, transaction) => {
      if (transaction.subscriptionId === null) await start(tx, transaction);
    },
    useMethodForSubscription: async (tx: SubscriptionSlice, subscriptionId, paymentMethodId) => {
      const subscription = await tx.subscriptions.findByIdForUpdate(context.scope, subscriptionId);
      if (!subscription || subscription.internal.paymentMethodId === paymentMethodId) return;
      await saveChange(context, tx, {
        before: subscription,
        after: { ...subscription, internal: { ...subscription.internal, paymentMethodId } },
        eventTypes: [],
        at: nowTimestamp(context),
      });
    },
  };
}

async function reviveIfPastDue(
  context: Context<SubscriptionSlice>,
  tx: SubscriptionSlice,
  subscriptionId: string,
  at: string,
) {
  const subscription = await tx.subscriptions.findByIdForUpdate(context.scope, subscriptionId);
  if (subscription?.status !== 'past_due') return;
  await saveChange(context, tx, {
    before: subscription,
    after: { ...subscription, status: 'active', updatedAt: at },
    eventTypes: ['subscription.updated'],
    at,
  });
}

/** What a subscription charge bills: its origin, its lines and the period it is for. */
export interface SubscriptionCharge {
  readonly origin:
    | 'subscription_recurring'
    | 'subscription_update'
    | 'subscription_charge'
    | 'subscription_payment_method_change';
  readonly items: readonly BuildTransactionItem[];
  readonly billingPeriod: BillingPeriod | null;
  /** A subscription discount the charge takes off its eligible lines (renewals; ADR 1105). */
  readonly discount?: DiscountTerms | null | undefined;
}

/** The transaction a charge issued, and whether its payment was declined. */
export interface ChargeOutcome {
  readonly transaction: Transaction;
  readonly declined: boolean;
}

/**
 * Issues a subscription's charge, collected the subscription's way: the customer's credit
 * balance first (ADR 1002); then a manual subscription's invoice is billed, an automatic one is
 * paid as `payment` says. A charge that owes nothing (its lines net to zero or below, or credit
 * covers it) completes at once, a negative one crediting the customer's balance. Without an
 * address the transaction stays a draft: there is nothing to charge yet.
 */
export async function issueCharge(
  context: Context<SubscriptionSlice>,
  tx: SubscriptionSlice,
  subscription: Subscription,
  charge: SubscriptionCharge,
  payment: RenewalPayment,
): Promise<ChargeOutcome> {
  const priced = await priceCharge(context, tx, subscription, charge);
  const built = typeof payment === 'object' ? { ...priced, id: payment.authorised.transactionId } : priced;
  if (built.status !== 'ready') return { transaction: await insertTransaction(context, tx, built), declined: false };
  const issued =
    subscription.collectionMode === 'manual'
      ? await bill(context, tx, built)
      : await drawCredit(context, tx, built, subscription.updatedAt);
  const transaction = await insertTransaction(context, tx, issued);
  if (BigInt(transaction.details.totals.balance) <= 0n) {
    return { transaction: await completeSettled(context, tx, transaction, transaction, NO_HOOKS), declined: false };
  }
  if (subscription.collectionMode === 'manual' || payment === 'await_report' || typeof payment === 'object') {
    return { transaction, declined: false };
  }
  // The sandbox charges the subscription's saved test card when it has one: its card decides
  // (a saved decline card declines), unless the caller asked for a failure (ADR 1411).
  const saved = await savedSandboxMethod(context, tx, subscription);
  const settled =
    saved && payment === 'success' ? (sandboxOffSessionOutcome(saved.internal.providerMethodRef) ?? payment) : payment;
  const paid = await recordPaymentInTransaction(
    context,
    tx,
    transaction.id,
    {
      status: settled === 'success' ? 'captured' : 'error',
      methodType: 'card',
      providerReference: 'sandbox',
      errorCode: settled === 'failure' ? 'declined' : null,
      paymentMethodId: saved?.id ?? null,
      card: saved?.card ?? null,
    },
    NO_HOOKS,
  );
  return { transaction: paid, declined: paid.status === 'past_due' };
}

/** The subscription's saved sandbox method, if it has one that was not deleted. */
async function savedSandboxMethod(
  context: Context<SubscriptionSlice>,
  tx: SubscriptionSlice,
  subscription: Subscription,
): Promise<PaymentMethod | undefined> {
  const id = subscription.internal.paymentMethodId;
  if (context.scope.environment !== 'sandbox' || !id) return undefined;
  const method = await tx.paymentMethods.findById(context.scope, id);
  return method?.internal.status === 'saved' && method.internal.provider === SANDBOX_PROVIDER ? method : undefined;
}

/**
 * Checks with VIES the VAT id of the business a subscription's next charge will name (its own,
 * or `businessId` when a change names another), before the database transaction that prices it
 * (ADR 1437). Reads only, then the register; a stored verdict younger than its lifetime is reused.
 */
export async function verifySubscriptionTaxId(
  context: Context<SubscriptionSlice> & TaxIdPorts,
  subscriptionId: string,
  businessId?: string | null,
): Promise<void> {
  if (!context.taxIds) return;
  const subscription = await context.store.subscriptions.findById(context.scope, subscriptionId);
  if (!subscription) return;
  const id = businessId === undefined ? subscription.businessId : businessId;
  if (!id) return;
  const business = await context.store.businesses.findById(context.scope, id);
  const address = subscription.addressId
    ? await context.store.addresses.findById(context.scope, subscription.addressId)
    : undefined;
  await verifyBusinessTaxId(context, business, address?.countryCode ?? null);
}

/** A subscription charge priced as a transaction (customer, address, tax settings read), not stored. */
export async function priceCharge(
  context: Context<SubscriptionSlice>,
  tx: SubscriptionSlice,
  subscription: Subscription,
  charge: SubscriptionCharge,
): Promise<Transaction> {
  const customer = await tx.customers.findById(context.scope, subscription.customerId);
  const address = subscription.addressId
    ? await tx.addresses.findById(context.scope, subscription.addressId)
    : undefined;
  // The subscription's business rides on its charges: its VAT id may reverse charge them (ADR 1430).
  const business = subscription.businessId
    ? await tx.businesses.findById(context.scope, subscription.businessId)
    : undefined;
  const taxSettings = withTaxDefaults(await tx.billingSettings.findTaxSettings(context.scope));
  const charged = business?.customerId === subscription.customerId ? business : null;
  return buildTransaction(
    {
      items: charge.items,
      customer: customer ?? null,
      address: address ?? null,
      business: charged,
      // Stored by `verifySubscriptionTaxId` before the database transaction (ADR 1437).
      taxIdCheck: await storedTaxIdCheck(context, tx, charged, address?.countryCode ?? null),
      currencyCode: subscription.currencyCode,
      collectionMode: subscription.collectionMode,
      origin: charge.origin,
      subscriptionId: subscription.id,
      billingPeriod: charge.billingPeriod,
      billingDetails: subscription.billingDetails,
      customData: null,
      discount: charge.discount ?? null,
    },
    { ids: context.ids, now: subscription.updatedAt, taxSettings },
  );
}

/** A subscription's items as the lines of its recurring charge. */
export function recurringItems(subscription: Subscription): BuildTransactionItem[] {
  return subscription.items.map((item) => ({ price: item.price, product: item.product, quantity: item.quantity }));
}

/** Change lines as transaction items. */
export function changeItems(lines: readonly ChangeLine[]): BuildTransactionItem[] {
  return lines.map((line) => ({
    price: line.price,
    product: line.product,
    quantity: line.quantity,
    change: { share: line.share, paidTax: line.paidTax },
  }));
}

/** Dunning: the subscription is past due; usage is never blocked, so its allowance stays granted (ADR 0009). */
export function markPastDue(
  context: Context<SubscriptionSlice>,
  tx: SubscriptionSlice,
  subscription: Subscription,
  at: string,
): Promise<Subscription> {
  return saveChange(context, tx, {
    before: subscription,
    after: { ...subscription, status: 'past_due', updatedAt: at },
    eventTypes: ['subscription.past_due', 'subscription.updated'],
    at,
  });
}

/**
 * Issues the renewal transaction of `subscription` (already moved into its new period), with
 * the lines that next-period billing modes left for it, and settles it as `payment` says.
 * Returns the subscription, `past_due` when the payment failed.
 */
export async function billRenewal(
  context: Context<SubscriptionSlice>,
  tx: SubscriptionSlice,
  subscription: Subscription,
  payment: RenewalPayment,
  pending: readonly PendingChangeLine[],
  discount: DiscountTerms | null,
): Promise<Subscription> {
  const outcome = await issueCharge(
    context,
    tx,
    subscription,
    {
      origin: 'subscription_recurring',
      items: [...recurringItems(subscription), ...changeItems(pending.map(fromPending))],
      billingPeriod: subscription.currentBillingPeriod,
      discount,
    },
    payment,
  );
  if (!outcome.declined) return subscription;
  return markPastDue(context, tx, subscription, subscription.updatedAt);
}
