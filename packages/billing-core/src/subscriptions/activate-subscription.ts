/**
 * @module
 * `POST /subscriptions/{id}/activate`: ends a trial now. The first billing period starts at
 * once and is charged at once, collected the subscription's way (sandbox: the simulated card,
 * ADR 1003). A declined charge activates nothing: the database transaction rolls back.
 */
import { BillingError } from '../shared/billing-error.js';
import type { OperationContext } from '../shared/operation-context.js';
import { periodAt } from './billing-period.js';
import { requirePaymentMethodFor } from './cardless-trial.js';
import type { Subscription } from './subscription.js';
import { issueCharge, recurringItems, sandboxPaymentOutcome } from './subscription-billing.js';
import { now, saveChange } from './subscription-changes.js';
import { requireChangeable } from './update-subscription.js';

export async function activateSubscription(context: OperationContext, id: string): Promise<Subscription> {
  const payment = await sandboxPaymentOutcome(context);
  return context.store.transaction(async (tx) => {
    const current = await requireChangeable(await tx.subscriptions.findByIdForUpdate(context.scope, id), id);
    if (current.status !== 'trialing') {
      throw new BillingError(
        'subscription_not_trialing',
        `Subscription ${id} is ${current.status}; only a trialing subscription can be activated.`,
      );
    }
    requirePaymentMethodFor(current, 'subscription_missing_payment_method_cannot_activate', 'activation');
    const at = now(context);
    const period = periodAt(at, current.billingCycle, 0);
    const active: Subscription = {
      ...current,
      status: 'active',
      firstBilledAt: at,
      currentBillingPeriod: period,
      nextBilledAt: period.endsAt,
      items: current.items.map((item) => ({
        ...item,
        status: 'active',
        previouslyBilledAt: at,
        nextBilledAt: period.endsAt,
        updatedAt: at,
      })),
      internal: { ...current.internal, billingAnchor: at, periodIndex: 0 },
      updatedAt: at,
    };
    const saved = await saveChange(context, tx, {
      before: current,
      after: active,
      balanceChange: 'renew',
      eventTypes: ['subscription.activated', 'subscription.updated'],
      at,
    });
    const outcome = await issueCharge(
      context,
      tx,
      saved,
      { origin: 'subscription_recurring', items: recurringItems(saved), billingPeriod: period },
      payment,
    );
    if (outcome.declined) {
      throw new BillingError(
        'subscription_payment_declined',
        `The charge that activates subscription ${id} was declined; it is still trialing.`,
      );
    }
    return saved;
  });
}
