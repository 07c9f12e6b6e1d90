/**
 * @module
 * Subscriptions: recurring billing of a customer for one or more recurring prices. A
 * subscription starts when a transaction for recurring prices completes, renews at the end of
 * each billing period, and can be changed, paused, resumed and canceled. Fields follow the
 * reference wire shape; `internal` holds what only the service needs and is never presented.
 */
import type { CustomData, Duration, Price, Product } from '../catalogue/entities.js';
import type { BillingDetails, Proration } from '../transactions/transaction.js';

export const SUBSCRIPTION_STATUSES = ['active', 'canceled', 'past_due', 'paused', 'trialing'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** The lifecycle as data: which statuses each status may move to. */
export const NEXT_STATUSES = {
  trialing: ['active', 'canceled', 'paused', 'past_due'],
  active: ['active', 'past_due', 'paused', 'canceled'],
  past_due: ['active', 'past_due', 'paused', 'canceled'],
  paused: ['active', 'canceled'],
  canceled: [],
} as const satisfies Record<SubscriptionStatus, readonly SubscriptionStatus[]>;

/**
 * Refuses a change whose status move the table does not allow. A refusal here is a bug in a use
 * case, never a caller's mistake: every use case checks what a caller may do before it gets here.
 */
export function assertStatusTransition(before: SubscriptionStatus, after: SubscriptionStatus): void {
  if (before === after) return;
  if (!(NEXT_STATUSES[before] as readonly SubscriptionStatus[]).includes(after)) {
    throw new Error(`A subscription cannot move from ${before} to ${after}.`);
  }
}

export type CollectionMode = 'automatic' | 'manual';
export type OnResume = 'start_new_billing_period' | 'continue_existing_billing_period';

export interface BillingPeriod {
  readonly startsAt: string;
  readonly endsAt: string;
}

export interface ScheduledChange {
  readonly action: 'cancel' | 'pause' | 'resume';
  readonly effectiveAt: string;
  readonly resumeAt: string | null;
}

/** The discount a subscription's renewals apply; `intervalsUsed` is service-only (ADR 1105). */
export interface SubscriptionDiscount {
  readonly id: string;
  readonly startsAt: string;
  readonly endsAt: string | null;
  /** Billing periods it has been applied to; absent on subscriptions stored before it existed. */
  readonly intervalsUsed?: number;
}

export interface SubscriptionItem {
  readonly status: 'active' | 'inactive' | 'trialing';
  readonly quantity: number;
  readonly recurring: boolean;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly previouslyBilledAt: string | null;
  readonly nextBilledAt: string | null;
  /** The item's trial, when its price has one (ADR 1004). */
  readonly trialDates: BillingPeriod | null;
  readonly price: Price;
  readonly product: Product;
}

/** A change line kept on the subscription for its next renewal, in storable form (`proration.ts`). */
export interface PendingChangeLine {
  readonly price: Price;
  readonly product: Product;
  readonly quantity: number;
  readonly share: { readonly remaining: string; readonly whole: string; readonly proration: Proration } | null;
  /** On a credit line: the tax paid on what it credits (ADR 1447); absent on lines stored before. */
  readonly paidTax?: { readonly rate: string; readonly mode: 'external' | 'internal' } | undefined;
}

/** Why the customer said they cancel (ADR 0806): a code from a short list and optional free text. */
export const CANCELLATION_REASONS = [
  'too_expensive',
  'missing_features',
  'switched_service',
  'unused',
  'technical_issues',
  'customer_service',
  'other',
] as const;
export type CancellationReasonCode = (typeof CANCELLATION_REASONS)[number];

export interface CancellationReason {
  readonly reason: CancellationReasonCode;
  /** At most 500 characters; null when none was given. */
  readonly comment: string | null;
  /** When the cancellation that gave it was asked for. */
  readonly recordedAt: string;
}

export interface SubscriptionInternal {
  /** The instant billing periods are counted from; periods never drift (31 Jan → 28 Feb → 31 Mar). */
  readonly billingAnchor: string;
  /** How many periods after the anchor the current one is. */
  readonly periodIndex: number;
  /** What a pause will do on resume, and the period a pause interrupted. */
  readonly onResume: OnResume;
  readonly pausedPeriod: BillingPeriod | null;
  /** Incremented on every save; a stale save is refused by the store. */
  readonly version: number;
  readonly transactionId: string | null;
  /** Lines of next-period billing modes, billed with the next renewal (absent on older documents). */
  readonly pendingLines?: readonly PendingChangeLine[] | undefined;
  /** The saved method automatic charges use (absent on older documents; ADR 1411). */
  readonly paymentMethodId?: string | null | undefined;
  /** Started by a transaction that needed no payment method: a cardless trial (ADR 1010). */
  readonly cardlessTrial?: boolean | undefined;
  /**
   * The item change the save that wrote it made (ADR 1503): when, and how it bills (`now`: its
   * charge is the `subscription_update` transaction issued with it). Absent on saves that
   * changed no item; the plan-changed email reads it from the `subscription.updated` event.
   */
  readonly planChange?: { readonly at: string; readonly billing: 'now' | 'next_renewal' | 'none' } | undefined;
  /**
   * The reason given with the newest cancellation asked for (ADR 0806); absent when none was
   * given. Removed when a scheduled cancellation is taken back.
   */
  readonly cancellationReason?: CancellationReason | undefined;
}

export interface Subscription {
  readonly id: string;
  readonly status: SubscriptionStatus;
  readonly customerId: string;
  readonly addressId: string | null;
  readonly businessId: string | null;
  readonly currencyCode: string;
  readonly collectionMode: CollectionMode;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly startedAt: string | null;
  readonly firstBilledAt: string | null;
  readonly nextBilledAt: string | null;
  readonly pausedAt: string | null;
  readonly canceledAt: string | null;
  readonly currentBillingPeriod: BillingPeriod | null;
  readonly billingCycle: Duration;
  readonly scheduledChange: ScheduledChange | null;
  readonly items: readonly SubscriptionItem[];
  readonly customData: CustomData;
  readonly discount: SubscriptionDiscount | null;
  /** Invoice terms while collected manually; null when collected automatically. */
  readonly billingDetails: BillingDetails | null;
  readonly managementUrls: { readonly updatePaymentMethod: null; readonly cancel: string };
  readonly internal: SubscriptionInternal;
}

/** True when any item's price carries allowances. */
export function hasAllowances(items: readonly { readonly price: Price }[]): boolean {
  return items.some((item) => item.price.allowances.length > 0);
}

/** The next instant something is due for the subscription: a scheduled change or a renewal. */
export function nextDueAt(subscription: Subscription): string | null {
  const candidates = [subscription.scheduledChange?.effectiveAt, subscription.nextBilledAt].filter(
    (value): value is string => typeof value === 'string',
  );
  if (subscription.status === 'canceled' || candidates.length === 0) return null;
  return candidates.sort()[0] ?? null;
}
