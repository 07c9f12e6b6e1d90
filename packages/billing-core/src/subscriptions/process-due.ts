/**
 * @module
 * What happens when time passes: a scheduled change falls due, or a billing period ends and
 * the subscription renews. Each step is stamped with the instant it was due, not the instant
 * it ran, so a late scheduler (or a sandbox clock moved a month ahead) produces the same
 * history as one that ran on time. Steps for one account run in time order.
 */

import { toTimestamp } from '../shared/clock.js';
import type { Context } from '../shared/context.js';
import { periodAt } from './billing-period.js';
import { awaitsPaymentMethod } from './cardless-trial.js';
import { pausedAt, saveCancellation, saveResume } from './pause-resume-cancel.js';
import type { SubscriptionSlice } from './repositories.js';
import { nextDueAt, type Subscription } from './subscription.js';
import { billRenewal, type RenewalPayment, verifySubscriptionTaxId } from './subscription-billing.js';
import { saveChange } from './subscription-changes.js';
import { discountForRenewal } from './subscription-discount.js';

/** Applies the one step due first for the subscription; returns the updated subscription. */
export async function applyDueStep(
  context: Context<SubscriptionSlice>,
  tx: SubscriptionSlice,
  subscription: Subscription,
  payment: RenewalPayment,
): Promise<Subscription> {
  const change = subscription.scheduledChange;
  const renewalAt = subscription.nextBilledAt;
  if (change && (renewalAt === null || change.effectiveAt <= renewalAt)) {
    const at = change.effectiveAt;
    switch (change.action) {
      case 'cancel':
        return saveCancellation(context, tx, subscription, at);
      case 'pause':
        return saveChange(context, tx, {
          before: subscription,
          after: pausedAt(subscription, at, change.resumeAt),
          eventTypes: ['subscription.paused', 'subscription.updated'],
          at,
        });
      case 'resume':
        return saveResume(context, tx, subscription, at, subscription.internal.onResume, payment);
    }
  }
  return renew(context, tx, subscription, payment);
}

/** The period ends: the next one begins, unused allowance expires and the full allowance is granted again. */
async function renew(
  context: Context<SubscriptionSlice>,
  tx: SubscriptionSlice,
  subscription: Subscription,
  payment: RenewalPayment,
): Promise<Subscription> {
  const at = subscription.nextBilledAt ?? toTimestamp(context.clock.now());
  // A cardless trial that ends without a payment method is canceled, as the public API does (ADR 1010).
  if (awaitsPaymentMethod(subscription)) return saveCancellation(context, tx, subscription, at);
  const periodIndex = subscription.internal.periodIndex + 1;
  // The end of a trial is a renewal into the first billing period, charged like any other.
  const endsTrial = subscription.status === 'trialing';
  const period = periodAt(subscription.internal.billingAnchor, subscription.billingCycle, periodIndex);
  const items = await Promise.all(
    subscription.items.map(async (item) => {
      // A renewal bills and grants what the price says now: an allowance changed on the price
      // reaches running subscriptions from their next period on, never in the middle of one (ADR 0009).
      const price = (await tx.prices.findById(context.scope, item.price.id)) ?? item.price;
      const product = (await tx.products.findById(context.scope, item.product.id)) ?? item.product;
      return {
        ...item,
        price,
        product,
        status: endsTrial ? ('active' as const) : item.status,
        previouslyBilledAt: at,
        nextBilledAt: period.endsAt,
      };
    }),
  );
  // The discount for the new period is counted in the same save as the renewal itself.
  const { terms, discount } = await discountForRenewal(context, tx, { ...subscription, items }, period.startsAt);
  const next: Subscription = {
    ...subscription,
    status: endsTrial ? 'active' : subscription.status,
    firstBilledAt: subscription.firstBilledAt ?? at,
    currentBillingPeriod: period,
    nextBilledAt: period.endsAt,
    items,
    discount,
    internal: { ...subscription.internal, periodIndex, pendingLines: [] },
    updatedAt: at,
  };
  const renewed = await saveChange(context, tx, {
    before: subscription,
    after: next,
    balanceChange: 'renew',
    eventTypes: endsTrial ? ['subscription.activated', 'subscription.updated'] : ['subscription.updated'],
    at,
  });
  return billRenewal(context, tx, renewed, payment, subscription.internal.pendingLines ?? [], terms);
}

/**
 * Due steps run between two chances for the rest of the process to run (ADR 0900). Each step
 * is its own database transaction; on SQLite a step never waits for I/O, so without a yield a
 * long run would hold the event loop for every other account.
 */
export const DUE_STEPS_PER_SLICE = 1;

/**
 * Runs every step due in the context's scope up to the context's now, earliest first, calling
 * `yieldToOthers` after every `DUE_STEPS_PER_SLICE` steps. Resolves to the number of steps run.
 *
 * Steps run `stepsPerTransaction` to a database transaction (ADR 1488): one on SQLite, where a
 * step never waits for I/O and each is followed by a yield (ADR 0900); several on PostgreSQL,
 * where the commit is most of a step's cost. A batch still takes its steps one at a time in time
 * order, each re-checked under its row lock; it ends early at a subscription whose VAT id was not
 * checked before the batch began, since VIES is never asked inside a transaction (ADR 1437).
 */
export async function runDueSubscriptions(
  context: Context<SubscriptionSlice>,
  limit: number,
  payment: RenewalPayment,
  yieldToOthers: () => Promise<void>,
  stepsPerTransaction = 1,
): Promise<number> {
  let steps = 0;
  while (steps < limit) {
    if (steps > 0 && steps % DUE_STEPS_PER_SLICE === 0) await yieldToOthers();
    const until = toTimestamp(context.clock.now());
    const batch = Math.max(1, Math.min(stepsPerTransaction, limit - steps));
    const due = await context.store.subscriptions.findDue(context.scope, until, batch);
    if (due.length === 0) break;
    // A renewal may reverse charge: the business's VAT id is checked (or its stored verdict
    // reused) before the step's database transaction, never inside it (ADR 1437).
    for (const id of due) await verifySubscriptionTaxId(context, id);
    const checked = new Set(due);
    const ran = await context.store.transaction(async (tx) => {
      let taken = 0;
      while (taken < batch) {
        const [id] = taken === 0 ? due : await tx.subscriptions.findDue(context.scope, until, 1);
        if (id === undefined || !checked.has(id)) break;
        const subscription = await tx.subscriptions.findByIdForUpdate(context.scope, id);
        const dueAt = subscription ? nextDueAt(subscription) : null;
        // Another process may have run this step between the lookup and the lock.
        if (!subscription || dueAt === null || dueAt > until) break;
        await applyDueStep(context, tx, subscription, payment);
        taken += 1;
      }
      return taken;
    });
    // Nothing ran: another process took the step first; look again.
    steps += ran;
  }
  return steps;
}
