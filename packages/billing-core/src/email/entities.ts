/**
 * @module
 * Customer email (ADR 1500): the jobs the outbox's events become, one per customer-facing
 * occurrence, and each account environment's email settings.
 */

/** Every email Drawdown sends a customer, in the order the settings document them. */
export const EMAIL_KINDS = [
  'receipt',
  'invoice_issued',
  'payment_failed',
  'subscription_past_due',
  'subscription_canceled',
  'subscription_cancel_scheduled',
  'subscription_paused',
  'subscription_resumed',
  'subscription_plan_changed',
  'refund_issued',
  'credit_note_issued',
  'renewal_upcoming',
  'trial_ending',
  'card_expiring',
] as const;
export type EmailKind = (typeof EMAIL_KINDS)[number];

/**
 * `pending` waits for its (next) attempt; `sent` was accepted by the SMTP server; `captured` is
 * a sandbox email kept instead of sent; `skipped` was never sent (the job's `skipReason` says
 * why); `failed` was refused for good or ran out of attempts (`lastError` says how).
 */
export type EmailStatus = 'pending' | 'sent' | 'captured' | 'skipped' | 'failed';

/** Why a job was not sent. */
export type EmailSkipReason = 'no_email_address' | 'email_turned_off' | 'no_sender_address';

/**
 * What an email says, taken from the event's entity when the job is written, so a later change
 * to the transaction or subscription never changes an email already due. Amounts are in the
 * currency's lowest units, exactly as the entity has them.
 */
export interface EmailFacts {
  readonly customerName: string | null;
  readonly currencyCode: string | null;
  /** The total charged, refunded or credited. */
  readonly amount: string | null;
  readonly transactionId: string | null;
  readonly invoiceNumber: string | null;
  readonly subscriptionId: string | null;
  readonly adjustmentId: string | null;
  /** Product names the email lists. */
  readonly productNames: readonly string[];
  /** The invoice's due date, a cancellation's or pause's effective date: an RFC 3339 instant. */
  readonly date: string | null;
  /** The transaction's checkout link, where the customer pays or updates the card. */
  readonly payUrl: string | null;
  /**
   * A failed payment's next automatic try (ADR 1503): an RFC 3339 instant on the environment's
   * clock; null (or absent, in jobs written before it) when no try follows.
   */
  readonly nextTryAt?: string | null | undefined;
  /** A plan change's billing (ADR 1503): charged now, with the next renewal, or not at all. */
  readonly billing?: PlanChangeBilling | undefined;
  /** What a plan change added to the customer's credit balance, in lowest units. */
  readonly credit?: string | null | undefined;
}

/** When a plan change is billed: `now` (its charge is `amount`), with the next renewal, or not at all. */
export type PlanChangeBilling = 'now' | 'next_renewal' | 'none';

export interface EmailJob {
  readonly id: string;
  readonly kind: EmailKind;
  readonly status: EmailStatus;
  /** The outbox event that caused it; null for a reminder, which time causes (ADR 1503). */
  readonly eventId: string | null;
  readonly customerId: string;
  readonly recipient: string | null;
  readonly locale: string;
  readonly skipReason: EmailSkipReason | null;
  readonly facts: EmailFacts;
  /** The `Message-ID` every attempt sends, fixed when the job is written. */
  readonly messageId: string;
  readonly attempts: number;
  readonly lastError: string | null;
  /** What was sent or captured; null until then. */
  readonly message: RenderedEmail | null;
  readonly createdAt: string;
  readonly nextAttemptAt: string | null;
  readonly sentAt: string | null;
}

/** An email as sent: headers and both bodies. */
export interface RenderedEmail {
  readonly from: string;
  readonly replyTo: string | null;
  readonly to: string;
  readonly subject: string;
  readonly language: string;
  readonly text: string;
  readonly html: string;
}

export interface EmailSettings {
  readonly senderName: string | null;
  readonly senderAddress: string | null;
  readonly replyTo: string | null;
  /**
   * The kinds turned off (ADR 1504). What is stored is what was turned off, never what is on, so
   * a kind added in a later version is on for every account environment until turned off.
   */
  readonly disabledEmails: readonly EmailKind[];
  /**
   * How many days before a charge the reminders go out (ADR 1503): upcoming renewal, trial
   * ending, card expiring. Absent in settings saved before it: the default.
   */
  readonly renewalReminderDays?: number | undefined;
  /** Which subscriptions get the upcoming-renewal reminder: billed yearly (or longer), or all. */
  readonly renewalReminders?: RenewalReminderCycles | undefined;
  readonly updatedAt: string | null;
}

export const RENEWAL_REMINDER_CYCLES = ['yearly', 'all'] as const;
export type RenewalReminderCycles = (typeof RENEWAL_REMINDER_CYCLES)[number];
export const DEFAULT_RENEWAL_REMINDER_DAYS = 7;
export const MAX_RENEWAL_REMINDER_DAYS = 60;

export const DEFAULT_EMAIL_SETTINGS: EmailSettings = {
  senderName: null,
  senderAddress: null,
  replyTo: null,
  disabledEmails: [],
  renewalReminderDays: DEFAULT_RENEWAL_REMINDER_DAYS,
  renewalReminders: 'yearly',
  updatedAt: null,
};
