/**
 * @module
 * Pausing, resuming and canceling. Each takes effect now or at the end of the billing period;
 * a later effect is a `scheduled_change` that the scheduler (or sandbox time control) applies
 * when it falls due, through the same transitions as here.
 *
 * Balances: a pause changes nothing; a resume with a new billing period grants the full
 * allowance like a renewal; continuing the existing period changes nothing; a cancellation
 * expires the subscription's unused allowance when it takes effect.
 */

import { BillingError } from '../shared/billing-error.js';
import { toTimestamp } from '../shared/clock.js';
import type { Context } from '../shared/context.js';
import { periodAt } from './billing-period.js';
import { requirePaymentMethodFor } from './cardless-trial.js';
import type { SubscriptionSlice } from './repositories.js';
import { CANCELLATION_REASONS, type CancellationReasonCode, type OnResume, type Subscription } from './subscription.js';
import { billRenewal, defaultRenewalPayment, type RenewalPayment } from './subscription-billing.js';
import { now, saveChange } from './subscription-changes.js';
import { discountForRenewal } from './subscription-discount.js';
import { requireChangeable } from './update-subscription.js';

export interface PauseInput {
  readonly effectiveFrom?: 'next_billing_period' | 'immediately' | undefined;
  readonly resumeAt?: string | null | undefined;
  readonly onResume?: OnResume | undefined;
}

export interface ResumeInput {
  /** `immediately`, or an RFC 3339 time to resume at. */
  readonly effectiveFrom?: string | undefined;
  readonly onResume?: OnResume | undefined;
}

export interface CancelInput {
  readonly effectiveFrom?: 'next_billing_period' | 'immediately' | undefined;
  /** Why the customer cancels (a Drawdown extension, ADR 0806); kept on the subscription. */
  readonly cancellationReason?:
    | { readonly reason: CancellationReasonCode; readonly comment?: string | null | undefined }
    | undefined;
}

/** The subscription with the reason given, when one was; the comment trimmed, empty as none. */
function withReason(subscription: Subscription, input: CancelInput, at: string): Subscription {
  const given = input.cancellationReason;
  if (!given) return subscription;
  if (!(CANCELLATION_REASONS as readonly string[]).includes(given.reason)) {
    throw BillingError.invalidField('cancellation_reason.reason', `must be one of ${CANCELLATION_REASONS.join(', ')}`);
  }
  const comment = given.comment?.trim() ?? '';
  if (comment.length > 500)
    throw BillingError.invalidField('cancellation_reason.comment', 'must be at most 500 characters');
  const cancellationReason = { reason: given.reason, comment: comment === '' ? null : comment, recordedAt: at };
  return { ...subscription, internal: { ...subscription.internal, cancellationReason } };
}

/**
 * Timestamps from requests become the one text form the service writes (`toISOString`), so that
 * due times compare correctly as text.
 */
function normalised(field: string, value: string): string {
  const epochMs = Date.parse(value);
  if (Number.isNaN(epochMs)) throw BillingError.invalidField(field, 'must be an RFC 3339 timestamp');
  return toTimestamp(epochMs);
}

function requireFuture(field: string, value: string, after: string): void {
  if (!(Date.parse(value) > Date.parse(after))) throw BillingError.invalidField(field, `must be a time after ${after}`);
}

/** The subscription paused at `at` (shared by the immediate and the scheduled pause). */
export function pausedAt(subscription: Subscription, at: string, resumeAt: string | null): Subscription {
  return {
    ...subscription,
    status: 'paused',
    pausedAt: at,
    currentBillingPeriod: null,
    nextBilledAt: null,
    scheduledChange: resumeAt ? { action: 'resume', effectiveAt: resumeAt, resumeAt } : null,
    items: subscription.items.map((item) => ({ ...item, nextBilledAt: null })),
    internal: { ...subscription.internal, pausedPeriod: subscription.currentBillingPeriod },
    updatedAt: at,
  };
}

/** The subscription resumed at `at`, and whether it started a new billing period. */
export function resumedAt(subscription: Subscription, at: string, onResume: OnResume): Subscription {
  const base = { ...subscription, status: 'active' as const, pausedAt: null, scheduledChange: null, updatedAt: at };
  const paused = subscription.internal.pausedPeriod;
  if (onResume === 'continue_existing_billing_period' && paused) {
    return {
      ...base,
      currentBillingPeriod: paused,
      nextBilledAt: paused.endsAt,
      items: subscription.items.map((item) => ({ ...item, nextBilledAt: paused.endsAt })),
      internal: { ...subscription.internal, pausedPeriod: null },
    };
  }
  const period = periodAt(at, subscription.billingCycle, 0);
  return {
    ...base,
    currentBillingPeriod: period,
    nextBilledAt: period.endsAt,
    items: subscription.items.map((item) => ({ ...item, previouslyBilledAt: at, nextBilledAt: period.endsAt })),
    internal: { ...subscription.internal, billingAnchor: at, periodIndex: 0, pausedPeriod: null },
  };
}

export function canceledAt(subscription: Subscription, at: string): Subscription {
  return {
    ...subscription,
    status: 'canceled',
    canceledAt: at,
    currentBillingPeriod: null,
    nextBilledAt: null,
    scheduledChange: null,
    items: subscription.items.map((item) => ({ ...item, status: 'inactive', nextBilledAt: null })),
    updatedAt: at,
  };
}

/** Saves the cancellation taking effect at `at`: unused allowance expires; `subscription.canceled`. */
export function saveCancellation(
  context: Context<SubscriptionSlice>,
  tx: SubscriptionSlice,
  subscription: Subscription,
  at: string,
): Promise<Subscription> {
  return saveChange(context, tx, {
    before: subscription,
    after: canceledAt(subscription, at),
    balanceChange: 'end',
    eventTypes: ['subscription.canceled', 'subscription.updated'],
    at,
  });
}

/**
 * Saves a resume. A new billing period grants the full allowance and bills the period, like a
 * renewal; continuing the interrupted period changes neither.
 */
export async function saveResume(
  context: Context<SubscriptionSlice>,
  tx: SubscriptionSlice,
  current: Subscription,
  at: string,
  onResume: OnResume,
  payment: RenewalPayment,
): Promise<Subscription> {
  const newPeriod = onResume === 'start_new_billing_period' || current.internal.pausedPeriod === null;
  const reopened = resumedAt(current, at, onResume);
  // A new period is the discount's next interval, as a renewal's is (ADR 1013).
  const { terms, discount } = newPeriod
    ? await discountForRenewal(context, tx, reopened, reopened.currentBillingPeriod?.startsAt ?? at)
    : { terms: null, discount: reopened.discount };
  // Lines left for the next renewal are billed with the new period a resume starts.
  const next = newPeriod ? { ...reopened, discount, internal: { ...reopened.internal, pendingLines: [] } } : reopened;
  const resumed = await saveChange(context, tx, {
    before: current,
    after: next,
    balanceChange: newPeriod ? 'renew' : undefined,
    eventTypes: ['subscription.resumed', 'subscription.updated'],
    at,
  });
  return newPeriod ? billRenewal(context, tx, resumed, payment, current.internal.pendingLines ?? [], terms) : resumed;
}

export async function pauseSubscription(
  context: Context<SubscriptionSlice>,
  id: string,
  input: PauseInput,
): Promise<Subscription> {
  return context.store.transaction(async (tx) => {
    const current = await requireChangeable(await tx.subscriptions.findByIdForUpdate(context.scope, id), id);
    if (current.status === 'paused')
      throw new BillingError('subscription_already_paused', `Subscription ${id} is already paused.`);
    requirePaymentMethodFor(current, 'subscription_pausing_not_allowed_for_cardless_trial', 'pausing');
    if (current.scheduledChange) {
      throw new BillingError(
        'subscription_scheduled_change_pending',
        `Subscription ${id} has a scheduled ${current.scheduledChange.action}; remove it before pausing.`,
      );
    }
    const at = now(context);
    const onResume = input.onResume ?? 'start_new_billing_period';
    const resumeAt = input.resumeAt ? normalised('resume_at', input.resumeAt) : null;
    if ((input.effectiveFrom ?? 'next_billing_period') === 'immediately') {
      if (resumeAt) requireFuture('resume_at', resumeAt, at);
      const next = pausedAt({ ...current, internal: { ...current.internal, onResume } }, at, resumeAt);
      return saveChange(context, tx, {
        before: current,
        after: next,
        eventTypes: ['subscription.paused', 'subscription.updated'],
        at,
      });
    }
    const effectiveAt = current.currentBillingPeriod?.endsAt ?? at;
    if (resumeAt) requireFuture('resume_at', resumeAt, effectiveAt);
    return saveChange(context, tx, {
      before: current,
      after: {
        ...current,
        scheduledChange: { action: 'pause', effectiveAt, resumeAt },
        internal: { ...current.internal, onResume },
        updatedAt: at,
      },
      eventTypes: ['subscription.updated'],
      at,
    });
  });
}

export async function resumeSubscription(
  context: Context<SubscriptionSlice>,
  id: string,
  input: ResumeInput,
): Promise<Subscription> {
  return context.store.transaction(async (tx) => {
    const current = await requireChangeable(await tx.subscriptions.findByIdForUpdate(context.scope, id), id);
    const at = now(context);
    if (current.status !== 'paused') {
      if (current.scheduledChange?.action !== 'pause') {
        throw new BillingError(
          'subscription_not_paused',
          `Subscription ${id} is not paused and has no scheduled pause.`,
        );
      }
      return saveChange(context, tx, {
        before: current,
        after: { ...current, scheduledChange: null, updatedAt: at },
        eventTypes: ['subscription.updated'],
        at,
      });
    }
    const onResume = input.onResume ?? current.internal.onResume;
    const effectiveFrom =
      input.effectiveFrom === undefined || input.effectiveFrom === 'immediately'
        ? 'immediately'
        : normalised('effective_from', input.effectiveFrom);
    if (effectiveFrom !== 'immediately' && Date.parse(effectiveFrom) > Date.parse(at)) {
      return saveChange(context, tx, {
        before: current,
        after: {
          ...current,
          scheduledChange: { action: 'resume', effectiveAt: effectiveFrom, resumeAt: effectiveFrom },
          internal: { ...current.internal, onResume },
          updatedAt: at,
        },
        eventTypes: ['subscription.updated'],
        at,
      });
    }
    return saveResume(context, tx, current, at, onResume, defaultRenewalPayment(context.scope));
  });
}

export async function cancelSubscription(
  context: Context<SubscriptionSlice>,
  id: string,
  input: CancelInput,
): Promise<Subscription> {
  return context.store.transaction(async (tx) => {
    const current = await requireChangeable(await tx.subscriptions.findByIdForUpdate(context.scope, id), id);
    const at = now(context);
    // A paused subscription has no period to run out: it cancels at once.
    const immediately = (input.effectiveFrom ?? 'next_billing_period') === 'immediately' || current.status === 'paused';
    if (immediately) return saveCancellation(context, tx, withReason(current, input, at), at);
    requirePaymentMethodFor(
      current,
      'subscription_scheduled_change_not_allowed_for_cardless_trial',
      'a scheduled cancellation (cancel it with effective_from immediately)',
    );
    if (current.scheduledChange?.action === 'cancel') {
      // Asked again: nothing changes but the reason, when one is given now.
      if (!input.cancellationReason) return current;
      return saveChange(context, tx, {
        before: current,
        after: { ...withReason(current, input, at), updatedAt: at },
        eventTypes: ['subscription.updated'],
        at,
      });
    }
    if (current.scheduledChange) {
      throw new BillingError(
        'subscription_scheduled_change_pending',
        `Subscription ${id} has a scheduled ${current.scheduledChange.action}; remove it before canceling at the period end.`,
      );
    }
    const effectiveAt = current.currentBillingPeriod?.endsAt ?? at;
    return saveChange(context, tx, {
      before: current,
      after: {
        ...withReason(current, input, at),
        scheduledChange: { action: 'cancel', effectiveAt, resumeAt: null },
        updatedAt: at,
      },
      eventTypes: ['subscription.updated'],
      at,
    });
  });
}
