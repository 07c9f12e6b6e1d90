/**
 * @module
 * Subscriptions and their actions, as in the wire reference (section 5).
 */
import type { CatalogueType, Price, Product } from './catalogue.js';
import type { CustomData, Duration, PageParams, TimePeriod } from './shared.js';

export type SubscriptionStatus = 'active' | 'canceled' | 'past_due' | 'paused' | 'trialing';
export type CollectionMode = 'automatic' | 'manual';
export type ScheduledChangeAction = 'cancel' | 'pause' | 'resume';
export type ProrationBillingMode =
  | 'prorated_immediately'
  | 'prorated_next_billing_period'
  | 'full_immediately'
  | 'full_next_billing_period'
  | 'do_not_bill';

export interface BillingDetails {
  readonly enableCheckout?: boolean;
  readonly purchaseOrderNumber?: string | null;
  readonly additionalInformation?: string | null;
  readonly paymentTerms: Duration;
}

export interface ScheduledChange {
  readonly action: ScheduledChangeAction;
  readonly effectiveAt: string;
  readonly resumeAt: string | null;
}

export interface SubscriptionItem {
  readonly status: 'active' | 'inactive' | 'trialing';
  readonly quantity: number;
  readonly recurring: boolean;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly previouslyBilledAt: string | null;
  readonly nextBilledAt: string | null;
  readonly trialDates: TimePeriod | null;
  readonly price: Price;
  readonly product: Product;
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
  readonly discount: { readonly id: string; readonly startsAt: string | null; readonly endsAt: string | null } | null;
  readonly billingDetails: BillingDetails | null;
  /** Null when paused or canceled. */
  readonly currentBillingPeriod: TimePeriod | null;
  readonly billingCycle: Duration;
  readonly scheduledChange: ScheduledChange | null;
  readonly managementUrls?: { readonly updatePaymentMethod: string | null; readonly cancel: string } | null;
  readonly items: readonly SubscriptionItem[];
  readonly customData: CustomData | null;
}

/** The totals of a previewed transaction, lowest currency units as strings. */
export interface PreviewTotals {
  readonly subtotal: string;
  readonly tax: string;
  readonly total: string;
  readonly grandTotal?: string;
  readonly [name: string]: string | undefined;
}

/** A line of a previewed transaction: its price, signed quantity, tax rate, amounts and prorated span. */
export interface PreviewedLineItem {
  readonly priceId: string;
  /** Negative on a credit for units removed. */
  readonly quantity: number;
  readonly taxRate: string;
  readonly totals: {
    readonly subtotal: string;
    readonly discount: string;
    readonly tax: string;
    readonly total: string;
  };
  readonly proration: { readonly rate: string; readonly billingPeriod: TimePeriod } | null;
  readonly product?: Product;
}

/** Lines, per-rate tax and totals of a previewed transaction. */
export interface PreviewedDetails {
  readonly totals: PreviewTotals;
  readonly taxRatesUsed?: readonly {
    readonly taxRate: string;
    readonly totals: { readonly subtotal: string; readonly tax: string; readonly total: string };
  }[];
  readonly lineItems?: readonly PreviewedLineItem[];
}

/** A transaction a change would bill (or null when it bills nothing). */
export interface PreviewedTransaction {
  readonly billingPeriod: TimePeriod | null;
  readonly details: PreviewedDetails;
}

/**
 * `GET /subscriptions/{id}?include=next_transaction,recurring_transaction_details`. `nextTransaction`
 * is null when nothing will renew: paused, or a pause or cancellation scheduled for the period's end.
 */
export interface SubscriptionWithIncludes extends Subscription {
  readonly nextTransaction?: PreviewedTransaction | null;
  readonly recurringTransactionDetails?: PreviewedDetails | null;
}

/** `PATCH /subscriptions/{id}/preview`: the subscription as it would be, and what it would bill. */
export interface SubscriptionUpdatePreview extends Omit<Subscription, 'id'> {
  readonly immediateTransaction: PreviewedTransaction | null;
  readonly nextTransaction: PreviewedTransaction | null;
  readonly recurringTransactionDetails?: PreviewedDetails | null;
  readonly updateSummary: {
    readonly credit: { readonly amount: string; readonly currencyCode: string };
    readonly charge: { readonly amount: string; readonly currencyCode: string };
    readonly result: { readonly action: 'credit' | 'charge'; readonly amount: string; readonly currencyCode: string };
  } | null;
}

export interface ListSubscriptionsParams extends PageParams {
  readonly id?: readonly string[];
  readonly customerId?: readonly string[];
  readonly addressId?: readonly string[];
  readonly priceId?: readonly string[];
  readonly status?: readonly SubscriptionStatus[];
  readonly collectionMode?: CollectionMode;
  readonly scheduledChangeAction?: readonly ScheduledChangeAction[];
}

export interface SubscriptionItemInput {
  readonly priceId: string;
  readonly quantity: number;
}

export interface UpdateSubscriptionInput {
  readonly customerId?: string;
  readonly addressId?: string;
  readonly currencyCode?: string;
  readonly nextBilledAt?: string;
  readonly collectionMode?: CollectionMode;
  readonly billingDetails?: BillingDetails | null;
  /** Only `null`: removes a scheduled change. */
  readonly scheduledChange?: null;
  /** The full list of items after the change. */
  readonly items?: readonly SubscriptionItemInput[];
  readonly customData?: CustomData | null;
  /** Required when billing is affected; prorated modes are refused for prices with allowances. */
  readonly prorationBillingMode?: ProrationBillingMode;
  readonly onPaymentFailure?: 'prevent_change' | 'apply_change';
}

export type OnResume = 'start_new_billing_period' | 'continue_existing_billing_period';

export interface PauseSubscriptionInput {
  /** `next_billing_period` (default) schedules the pause; `immediately` pauses now. */
  readonly effectiveFrom?: 'next_billing_period' | 'immediately' | null;
  readonly resumeAt?: string | null;
  readonly onResume?: OnResume;
}

export interface ResumeSubscriptionInput {
  /** A timestamp, or `immediately` (the default). */
  readonly effectiveFrom?: string | null;
  readonly onResume?: OnResume;
}

export interface CancelSubscriptionInput {
  /** `next_billing_period` (default) schedules the cancellation; `immediately` cancels now. */
  readonly effectiveFrom?: 'next_billing_period' | 'immediately' | null;
  /** Why the customer cancels (a Drawdown extension, ADR 0806); read back with `cancellationReason(id)`. */
  readonly cancellationReason?: { readonly reason: CancellationReasonCode; readonly comment?: string | null } | null;
}

/** The reasons a customer may give for cancelling (ADR 0806). */
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

/** `GET /subscriptions/{id}/cancellation-reason`: all null when none was given. */
export interface SubscriptionCancellationReason {
  readonly subscriptionId: string;
  readonly reason: CancellationReasonCode | null;
  readonly comment: string | null;
  readonly recordedAt: string | null;
}

export type { CatalogueType };
