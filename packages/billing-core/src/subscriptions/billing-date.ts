/**
 * @module
 * Moving a subscription's next billing date (`next_billed_at` on an update; ADR 1006). Pure: the
 * subscription, the new date, the billing mode and the instant of the change in; the changed
 * subscription fields and the signed change lines out.
 *
 * - The current billing period now ends at the new date, and later periods are counted from it
 *   (it becomes the billing anchor), so the subscription renews on that day and time from then on.
 * - Moving the date later bills the time added, prorated: each item's quantity at the share of
 *   the added time in the period it borrows from (the cycle that would have started at the old
 *   date). Moving it sooner credits the time removed: a negative quantity at the share of the
 *   removed time in the current period. Shares are exact (milliseconds), as for item changes.
 * - `do_not_bill` moves the date without a charge or a credit; full modes have no meaning for a
 *   date and are refused. A trial moves its end and bills nothing, so it takes `do_not_bill` only,
 *   as the public API asks.
 * - The new date is after the change and no later than the end of the period after the current
 *   one, so no prorated charge exceeds a whole period.
 */
import { BillingError } from '../shared/billing-error.js';
import { toTimestamp } from '../shared/clock.js';
import { parseTimestamp } from '../shared/timestamps.js';
import { periodAt } from './billing-period.js';
import { type ChangeLine, type ProrationBillingMode, spanShare } from './proration.js';
import type { Subscription } from './subscription.js';

export interface BillingDateChange {
  /** The subscription with its new billing date, period end and anchor. */
  readonly subscription: Subscription;
  /** What the move bills: a prorated charge (later) or credit (sooner) per item; empty for `do_not_bill`. */
  readonly lines: readonly ChangeLine[];
}

/** The instant `next_billed_at` names, in the stored spelling; refused when it is not a real RFC 3339 instant. */
export function readNextBilledAt(text: string): string {
  const parsed = parseTimestamp(text, { utcOnly: false });
  if (!parsed) throw BillingError.invalidField('next_billed_at', 'must be an RFC 3339 date-time');
  return toTimestamp(parsed.epochMs);
}

/**
 * Moves `current`'s next billing date to `nextBilledAt` at `at`, billing as `mode` says.
 * @throws BillingError `invalid_field`, `subscription_update_when_paused`,
 *   `subscription_update_when_past_due`, `subscription_scheduled_change_pending`,
 *   `subscription_next_billed_at_not_future`, `subscription_next_billed_at_too_far`.
 */
export function moveBillingDate(
  current: Subscription,
  nextBilledAt: string,
  mode: ProrationBillingMode,
  at: string,
): BillingDateChange {
  const period = current.currentBillingPeriod;
  if (current.status === 'paused' || period === null || current.nextBilledAt === null) {
    throw new BillingError(
      'subscription_update_when_paused',
      `Subscription ${current.id} is paused and has no billing date to move; resume it first.`,
      [{ field: 'next_billed_at', message: 'cannot change while the subscription is paused' }],
    );
  }
  if (current.status === 'past_due') {
    throw new BillingError(
      'subscription_update_when_past_due',
      `Subscription ${current.id} is past due; settle its open transaction before moving its billing date.`,
      [{ field: 'next_billed_at', message: 'cannot change while the subscription is past due' }],
    );
  }
  if (current.scheduledChange !== null) {
    throw new BillingError(
      'subscription_scheduled_change_pending',
      `Subscription ${current.id} has a scheduled ${current.scheduledChange.action}; remove it (scheduled_change: null) before moving the billing date.`,
    );
  }
  const trialing = current.status === 'trialing';
  if (trialing && mode !== 'do_not_bill') {
    throw BillingError.invalidField(
      'proration_billing_mode',
      'must be do_not_bill when a trialing subscription’s billing date moves: nothing was charged for the trial',
    );
  }
  if (mode.startsWith('full')) {
    throw BillingError.invalidField(
      'proration_billing_mode',
      'must be prorated_immediately, prorated_next_billing_period or do_not_bill when next_billed_at changes',
    );
  }
  if (Date.parse(nextBilledAt) <= Date.parse(at)) {
    throw new BillingError(
      'subscription_next_billed_at_not_future',
      `next_billed_at ${nextBilledAt} is not after now (${at}).`,
      [{ field: 'next_billed_at', message: 'must be in the future' }],
    );
  }
  // The cycle that would have followed the current period: the latest the date may move to.
  const following = periodAt(current.internal.billingAnchor, current.billingCycle, current.internal.periodIndex + 1);
  if (nextBilledAt > following.endsAt) {
    throw new BillingError(
      'subscription_next_billed_at_too_far',
      `next_billed_at ${nextBilledAt} is after ${following.endsAt}, the end of the period after the current one.`,
      [{ field: 'next_billed_at', message: `must be no later than ${following.endsAt}` }],
    );
  }
  const later = nextBilledAt > current.nextBilledAt;
  const lines: ChangeLine[] =
    mode === 'do_not_bill' || nextBilledAt === current.nextBilledAt
      ? []
      : current.items.map((item) => ({
          price: item.price,
          product: item.product,
          quantity: later ? item.quantity : -item.quantity,
          // Added time is a share of the period it borrows from; removed time, of the current one.
          share: later
            ? spanShare(following, { startsAt: following.startsAt, endsAt: nextBilledAt })
            : spanShare(period, { startsAt: nextBilledAt, endsAt: period.endsAt }),
        }));
  const moved: Subscription = {
    ...current,
    nextBilledAt,
    currentBillingPeriod: { startsAt: period.startsAt, endsAt: nextBilledAt },
    items: current.items.map((item) => ({
      ...item,
      nextBilledAt,
      trialDates: trialing && item.trialDates ? { ...item.trialDates, endsAt: nextBilledAt } : item.trialDates,
    })),
    // Period n + 1 starts at anchor + (n + 1) cycles: with the anchor at the new date and the
    // index at -1, the next renewal starts there and every later one a cycle after (as a trial's).
    internal: { ...current.internal, billingAnchor: nextBilledAt, periodIndex: -1 },
    updatedAt: at,
  };
  return { subscription: moved, lines };
}
