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
import type { OperationContext } from '../shared/operation-context.js';
import type { Repositories } from '../shared/repository.js';
import type { Scope } from '../shared/scope.js';
import { buildTransaction } from '../transactions/build-transaction.js';
import { NO_HOOKS, recordPaymentInTransaction, type TransactionHooks } from '../transactions/payments.js';
import { DEFAULT_TAX_SETTINGS } from '../transactions/tax-settings.js';
import type { Transaction } from '../transactions/transaction.js';
import { insertTransaction, saveTransaction } from '../transactions/transaction-changes.js';
import { bill } from '../transactions/transactions.js';
import { startSubscription } from './start-subscription.js';
import type { Subscription } from './subscription.js';
import { saveChange } from './subscription-changes.js';
import { discountFromCheckout } from './subscription-discount.js';

/** How renewal payments are settled: simulated success or failure (sandbox), or left to a provider report. */
export type RenewalPayment = 'success' | 'failure' | 'await_report';

/** Sandbox renewals are paid by the simulated card; live ones wait for the provider's report. */
export function defaultRenewalPayment(scope: Scope): RenewalPayment {
  return scope.environment === 'sandbox' ? 'success' : 'await_report';
}

/** The hooks a completing transaction runs: start the subscription it paid for, or revive one past due. */
export function subscriptionHooks(context: OperationContext): TransactionHooks {
  return {
    afterCompleted: async (tx, transaction) => {
      if (transaction.subscriptionId !== null) {
        await reviveIfPastDue(context, tx, transaction.subscriptionId, transaction.updatedAt);
        return;
      }
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
        businessId: transaction.businessId,
        discount: discountFromCheckout(
          transaction.discountId === null
            ? undefined
            : await tx.discounts.findById(context.scope, transaction.discountId),
          transaction.updatedAt,
        ),
      });
      await saveTransaction(context, tx, transaction, {
        ...transaction,
        subscriptionId: subscription.id,
        billingPeriod: subscription.currentBillingPeriod,
      });
    },
  };
}

async function reviveIfPastDue(context: OperationContext, tx: Repositories, subscriptionId: string, at: string) {
  const subscription = await tx.subscriptions.findByIdForUpdate(context.scope, subscriptionId);
  if (subscription?.status !== 'past_due') return;
  await saveChange(context, tx, {
    before: subscription,
    after: { ...subscription, status: 'active', updatedAt: at },
    eventTypes: ['subscription.updated'],
    at,
  });
}

/**
 * Issues the renewal transaction of `subscription` (already moved into its new period) and
 * settles it as `payment` says. Returns the subscription, `past_due` when the payment failed.
 */
export async function billRenewal(
  context: OperationContext,
  tx: Repositories,
  subscription: Subscription,
  payment: RenewalPayment,
  discount: DiscountTerms | null = null,
): Promise<Subscription> {
  const at = subscription.updatedAt;
  const customer = await tx.customers.findById(context.scope, subscription.customerId);
  const address = subscription.addressId
    ? await tx.addresses.findById(context.scope, subscription.addressId)
    : undefined;
  const taxSettings = (await tx.billingSettings.findTaxSettings(context.scope)) ?? DEFAULT_TAX_SETTINGS;
  let transaction: Transaction = buildTransaction(
    {
      items: subscription.items.map((item) => ({ price: item.price, product: item.product, quantity: item.quantity })),
      customer: customer ?? null,
      address: address ?? null,
      currencyCode: subscription.currencyCode,
      collectionMode: subscription.collectionMode,
      origin: 'subscription_recurring',
      subscriptionId: subscription.id,
      billingPeriod: subscription.currentBillingPeriod,
      customData: null,
      discount,
    },
    { ids: context.ids, now: at, taxSettings },
  );
  // Without an address the transaction stays a draft: there is nothing to charge yet.
  if (transaction.status !== 'ready') {
    await insertTransaction(context, tx, transaction);
    return subscription;
  }
  if (subscription.collectionMode === 'manual') {
    await insertTransaction(context, tx, await bill(context, tx, transaction));
    return subscription;
  }
  transaction = await insertTransaction(context, tx, transaction);
  if (payment === 'await_report') return subscription;
  const paid = await recordPaymentInTransaction(
    context,
    tx,
    transaction.id,
    {
      status: payment === 'success' ? 'captured' : 'error',
      methodType: 'card',
      providerReference: 'sandbox',
      errorCode: payment === 'failure' ? 'declined' : null,
    },
    NO_HOOKS,
  );
  if (paid.status !== 'past_due') return subscription;
  // Dunning: the subscription is past due; usage is never blocked, so the new period's
  // allowance stays granted (ADR 0009).
  return saveChange(context, tx, {
    before: subscription,
    after: { ...subscription, status: 'past_due', updatedAt: at },
    eventTypes: ['subscription.past_due', 'subscription.updated'],
    at,
  });
}
