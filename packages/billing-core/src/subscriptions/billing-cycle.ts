/**
 * @module
 * Changing how often a subscription bills: replacing its items with prices of another billing
 * cycle, "upgrading to the annual plan" (ADR 1008). Pure: the subscription, its new items, the
 * billing mode and the instant of the change in; the changed subscription and its change lines out.
 *
 * The public API accepts `prorated_immediately`, `full_immediately` and `do_not_bill` for such a
 * change, never the next-period modes: there is no renewal of the old cycle to carry a charge to.
 *
 * - The immediate modes end the current period now and start a period of the new cycle at the
 *   instant of the change, which becomes the billing anchor. The new items are charged for that
 *   whole new period. `prorated_immediately` also credits the old items' unused time (the exact
 *   share of the old period left, as for any prorated change); `full_immediately` credits nothing.
 * - `do_not_bill` charges and credits nothing: the customer keeps the period they paid for, and
 *   the new cycle starts when it ends (the old next billing date becomes the anchor), so no time
 *   is given away and none is billed twice.
 * - A trialing subscription changes cycle without billing (nothing was charged for the trial); its
 *   trial end stays the first billing date. A paused one takes `do_not_bill` and starts its new
 *   cycle when it resumes.
 */
import type { Duration } from '../catalogue/entities.js';
import { BillingError } from '../shared/billing-error.js';
import { periodAt } from './billing-period.js';
import { billsWhen, type ChangeLine, type ProrationBillingMode, remainingShare } from './proration.js';
import type { Subscription, SubscriptionItem } from './subscription.js';

export interface BillingCycleChange {
  /** The subscription on its new cycle (items are set by the caller). */
  readonly subscription: Subscription;
  /** What the change bills now: the old items' credit (prorated mode) and the new items' whole new period. */
  readonly lines: readonly ChangeLine[];
}

function sameCycle(left: Duration, right: Duration): boolean {
  return left.interval === right.interval && left.frequency === right.frequency;
}

/** The cycle `items` bill on when it differs from the subscription's, else null. */
export function changedBillingCycle(current: Subscription, items: readonly SubscriptionItem[]): Duration | null {
  const cycle = items[0]?.price.billingCycle ?? null;
  return cycle === null || sameCycle(cycle, current.billingCycle) ? null : cycle;
}

/**
 * Moves `current` onto `cycle` at `at` as `mode` says, with `items` as its new items.
 * @throws BillingError `subscription_invalid_billing_mode_for_billing_cycle_change`,
 *   `subscription_scheduled_change_pending`.
 */
export function changeBillingCycle(
  current: Subscription,
  items: readonly SubscriptionItem[],
  cycle: Duration,
  mode: ProrationBillingMode,
  at: string,
): BillingCycleChange {
  const when = billsWhen(mode);
  if (when === 'next_renewal') {
    throw new BillingError(
      'subscription_invalid_billing_mode_for_billing_cycle_change',
      `Subscription ${current.id} bills every ${current.billingCycle.frequency} ${current.billingCycle.interval}; a change of billing cycle takes prorated_immediately, full_immediately or do_not_bill, as there is no renewal of the old cycle to bill it with.`,
      [{ field: 'proration_billing_mode', message: 'must be prorated_immediately, full_immediately or do_not_bill' }],
    );
  }
  if (current.scheduledChange !== null) {
    throw new BillingError(
      'subscription_scheduled_change_pending',
      `Subscription ${current.id} has a scheduled ${current.scheduledChange.action} at the end of its current period; remove it (scheduled_change: null) before changing the billing cycle, which moves that period's end.`,
    );
  }
  const onCycle: Subscription = { ...current, billingCycle: cycle, updatedAt: at };
  const period = current.currentBillingPeriod;
  // Trials (billed nothing yet) and paused subscriptions (no period) only take the new cycle.
  if (current.status === 'trialing' || current.status === 'paused' || period === null) {
    return { subscription: onCycle, lines: [] };
  }
  if (when === 'never') {
    const end = current.nextBilledAt ?? period.endsAt;
    // Period n + 1 starts at anchor + (n + 1) cycles: anchor at the old date, index -1.
    return {
      subscription: { ...onCycle, internal: { ...current.internal, billingAnchor: end, periodIndex: -1 } },
      lines: [],
    };
  }
  const fresh = periodAt(at, cycle, 0);
  const share = remainingShare(period, at);
  const credits: ChangeLine[] =
    mode === 'prorated_immediately' && share.remaining > 0n
      ? current.items.map((item) => ({ price: item.price, product: item.product, quantity: -item.quantity, share }))
      : [];
  const charges: ChangeLine[] = items.map((item) => ({
    price: item.price,
    product: item.product,
    quantity: item.quantity,
    share: null,
  }));
  return {
    subscription: {
      ...onCycle,
      currentBillingPeriod: fresh,
      nextBilledAt: fresh.endsAt,
      internal: { ...current.internal, billingAnchor: at, periodIndex: 0 },
    },
    lines: [...credits, ...charges],
  };
}
