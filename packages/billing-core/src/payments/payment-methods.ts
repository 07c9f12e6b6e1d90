/**
 * @module
 * Saved payment methods through the API (`/customers/{id}/payment-methods`), the
 * update-payment-method transaction of a subscription, provider notifications and the sandbox's
 * 3-D Secure challenge (ADR 1411).
 */

import { recordEvent } from '../events/record-event.js';
import { BillingError } from '../shared/billing-error.js';
import { type Context, nowTimestamp } from '../shared/context.js';
import type { ListQuery, Page } from '../shared/pagination.js';
import { priceCharge, recurringItems } from '../subscriptions/subscription-billing.js';
import type { TransactionHooks } from '../transactions/payments.js';
import { type PaymentMethod, type PaymentMethodColumn, paymentMethodWire } from '../transactions/saved-methods.js';
import type { Transaction } from '../transactions/transaction.js';
import { insertTransaction } from '../transactions/transaction-changes.js';
import { applyOutcome } from './checkout.js';
import type { PaymentAttempt } from './payment-attempt.js';
import type { PaymentProviders } from './payment-provider.js';
import type { PaymentSlice } from './repositories.js';
import type { SandboxProvider } from './sandbox-provider.js';

async function requireCustomer(context: Context<PaymentSlice>, customerId: string): Promise<void> {
  const customer = await context.store.customers.findById(context.scope, customerId);
  if (!customer) throw BillingError.notFound('Customer', customerId);
}

export interface PaymentMethodListQuery extends ListQuery<PaymentMethodColumn> {
  /** `supports_checkout`: every method Drawdown saves (a card) can be offered at checkout. */
  readonly supportsCheckout?: boolean | undefined;
}

/** `GET /customers/{id}/payment-methods`: saved (not deleted) methods, filtered by `address_id`. */
export async function listPaymentMethods(
  context: Context<PaymentSlice>,
  customerId: string,
  query: PaymentMethodListQuery,
): Promise<Page<PaymentMethod>> {
  await requireCustomer(context, customerId);
  if (query.supportsCheckout === false) return { items: [], hasMore: false, estimatedTotal: 0 };
  const { supportsCheckout: _supportsCheckout, ...rest } = query;
  return context.store.paymentMethods.list(context.scope, {
    ...rest,
    filter: {
      ...rest.filter,
      customer_id: [{ op: 'eq', value: customerId }],
      status: [{ op: 'eq', value: 'saved' }],
    },
  });
}

async function findSaved(
  context: Context<PaymentSlice>,
  tx: PaymentSlice,
  customerId: string,
  id: string,
  lock: boolean,
): Promise<PaymentMethod> {
  const method = lock
    ? await tx.paymentMethods.findByIdForUpdate(context.scope, id)
    : await tx.paymentMethods.findById(context.scope, id);
  if (!method || method.customerId !== customerId || method.internal.status !== 'saved') {
    throw BillingError.notFound('Payment method', id);
  }
  return method;
}

/** `GET /customers/{id}/payment-methods/{pm}`. */
export async function getPaymentMethod(
  context: Context<PaymentSlice>,
  customerId: string,
  id: string,
): Promise<PaymentMethod> {
  await requireCustomer(context, customerId);
  return findSaved(context, context.store, customerId, id, false);
}

/**
 * `DELETE /customers/{id}/payment-methods/{pm}`: the method is gone from every read
 * (`payment_method.deleted`, reason `api`), the provider forgets it, and a subscription that
 * charged it has no method until the customer saves another.
 */
export async function deletePaymentMethod(
  context: Context<PaymentSlice>,
  providers: PaymentProviders,
  customerId: string,
  id: string,
): Promise<void> {
  await requireCustomer(context, customerId);
  const deleted = await context.store.transaction(async (tx) => {
    const method = await findSaved(context, tx, customerId, id, true);
    const now = nowTimestamp(context);
    const next: PaymentMethod = { ...method, updatedAt: now, internal: { ...method.internal, status: 'deleted' } };
    await tx.paymentMethods.update(context.scope, next);
    await recordEvent(context, tx, 'payment_method.deleted', 'payment_method', paymentMethodWire(next, 'api'));
    return next;
  });
  const provider = await providers.providerNamed(context.scope, deleted.internal.provider);
  await provider?.detachMethod(context.scope, deleted.internal.providerMethodRef);
}

/**
 * `GET /subscriptions/{id}/update-payment-method-transaction`: for a `past_due` subscription its
 * newest past-due transaction; for an active (or trialing, paused) one a new zero-value
 * transaction for its items (origin `subscription_payment_method_change`) whose checkout saves
 * a method without a charge and makes it the subscription's.
 */
export async function getPaymentMethodChangeTransaction(
  context: Context<PaymentSlice>,
  subscriptionId: string,
): Promise<Transaction> {
  return context.store.transaction(async (tx) => {
    const subscription = await tx.subscriptions.findByIdForUpdate(context.scope, subscriptionId);
    if (!subscription) throw BillingError.notFound('Subscription', subscriptionId);
    if (subscription.collectionMode !== 'automatic') {
      throw new BillingError(
        'subscription_update_payment_method_not_allowed',
        `Subscription ${subscriptionId} is collected manually; only automatically collected subscriptions have a payment method.`,
      );
    }
    if (subscription.status === 'canceled') {
      throw new BillingError(
        'subscription_update_payment_method_not_allowed',
        `Subscription ${subscriptionId} is canceled; it has no payments left to make.`,
      );
    }
    if (subscription.status === 'past_due') {
      const pastDue = await tx.transactions.list(context.scope, {
        filter: {
          subscription_id: [{ op: 'eq', value: subscriptionId }],
          status: [{ op: 'eq', value: 'past_due' }],
        },
        direction: 'desc',
        perPage: 1,
        countTotal: false,
      });
      const newest = pastDue.items[0];
      if (newest) return newest;
    }
    const period = subscription.currentBillingPeriod;
    const priced = await priceCharge(context, tx, subscription, {
      origin: 'subscription_payment_method_change',
      items: recurringItems(subscription).map((item) => ({
        ...item,
        // A zero share of the period: the items are listed, nothing is charged.
        change: period
          ? { share: { remaining: 0n, whole: 1n, proration: { rate: '0', billingPeriod: period } } }
          : { share: null },
      })),
      billingPeriod: period,
    });
    if (priced.status !== 'ready' || BigInt(priced.details.totals.grandTotal) !== 0n) {
      throw new BillingError(
        'subscription_update_payment_method_not_allowed',
        `Subscription ${subscriptionId} has no billing address, so no checkout can be opened for it.`,
      );
    }
    return insertTransaction(context, tx, priced);
  });
}

/**
 * The sandbox's 3-D Secure challenge page: the customer passes or fails it, and the checkout's
 * attempt takes the outcome at once. Answers the attempt's transaction.
 */
export async function answerSandboxChallenge(
  context: Context<PaymentSlice>,
  sandbox: SandboxProvider,
  providerPaymentRef: string,
  passed: boolean,
  hooks: TransactionHooks,
): Promise<PaymentAttempt> {
  const found = await context.store.paymentAttempts.findByProviderRef(sandbox.name, providerPaymentRef);
  if (!found || found.scope.accountId !== context.scope.accountId || found.scope.environment !== 'sandbox') {
    throw BillingError.notFound('Sandbox payment', providerPaymentRef);
  }
  await context.store.transaction((tx) => sandbox.answerChallenge(tx, context.scope, providerPaymentRef, passed));
  const outcome = await sandbox.resumeAttempt(context.scope, providerPaymentRef);
  await context.store.transaction((tx) => applyOutcome(context, tx, found.attempt.id, outcome, hooks));
  return (await context.store.paymentAttempts.findById(context.scope, found.attempt.id)) ?? found.attempt;
}
