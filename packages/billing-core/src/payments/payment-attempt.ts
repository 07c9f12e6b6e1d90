/**
 * @module
 * A payment attempt: one call to a provider for one transaction, stored before the call and
 * settled after it (ADR 1410, 1411). At most one attempt of a transaction is in flight
 * (`processing` or `requires_action`); the first final outcome wins, so replays change nothing.
 */
import type { MethodInput, PaymentErrorCode } from './payment-provider.js';

export type PaymentAttemptKind = 'checkout' | 'setup' | 'off_session';
/**
 * In flight: `processing`, `requires_action`. Final: `succeeded`, `declined`, `failed` (the provider
 * refused before acting), `canceled` (waiting too long, or superseded by a new payment: canceled at the
 * provider first, ADR 1468), and for money the provider took that the transaction could not take,
 * `refunding` until the provider confirms the refund, then `refunded`.
 */
export type PaymentAttemptStatus =
  | 'processing'
  | 'requires_action'
  | 'succeeded'
  | 'declined'
  | 'failed'
  | 'canceled'
  | 'refunding'
  | 'refunded';
export type PaymentAttemptColumn = 'id' | 'transaction_id' | 'status' | 'submission_key';

export const IN_FLIGHT: readonly PaymentAttemptStatus[] = ['processing', 'requires_action'];

export interface PaymentAttempt {
  readonly id: string;
  readonly transactionId: string;
  readonly kind: PaymentAttemptKind;
  readonly provider: string;
  /** The provider's reference; null until the provider answered. */
  readonly providerPaymentRef: string | null;
  readonly status: PaymentAttemptStatus;
  /** The checkout form's one-time key: a replayed submission finds its attempt. */
  readonly submissionKey: string | null;
  readonly amount: string;
  readonly currencyCode: string;
  readonly saveMethod: boolean;
  /** For `requires_action`: where the customer authenticates. */
  readonly actionUrl: string | null;
  readonly errorCode: PaymentErrorCode | null;
  /** The saved method this attempt charged or saved, once known. */
  readonly paymentMethodId: string | null;
  /**
   * `manual`: an off-session authorisation taken before a subscription change commits
   * (`prevent_change` in live, ADR 1426). Its `transactionId` is the id the change's transaction
   * gets when it commits: while no such transaction exists, the change has not committed.
   */
  readonly captureMethod?: 'manual' | undefined;
  /** An uncommitted authorisation the recovery step gave up: no change may commit with it (ADR 1426). */
  readonly abandoned?: boolean | undefined;
  /**
   * How a customer-present attempt is confirmed: `form`, the checkout page's card form (a challenge
   * may follow); `browser`, the provider's browser library (Stripe.js). Absent on off-session attempts
   * and on attempts stored before ADR 1468 (read as `form`).
   */
  readonly channel?: 'form' | 'browser' | undefined;
  /**
   * Why money the provider took was not applied to the transaction (ADR 1468): it was canceled or
   * already paid meanwhile, or owes less than was taken. Set with `refunding`.
   */
  readonly unapplied?: 'transaction_canceled' | 'transaction_paid' | 'amount_exceeds_balance' | undefined;
  /** The provider's refund of an unapplied capture, once known. */
  readonly refundRef?: string | null | undefined;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** The checkout's first step: who pays and where (the address decides the tax). */
export interface CheckoutDetails {
  readonly email: string;
  readonly address: {
    readonly countryCode: string;
    readonly postalCode: string | null;
    readonly region: string | null;
    readonly city: string | null;
    readonly firstLine: string | null;
  };
  /**
   * Buying as a business (ADR 1113): the company and its tax number; null buys as an individual
   * (the transaction names no business); absent keeps the transaction's business.
   */
  readonly business?: { readonly name: string; readonly taxIdentifier: string } | null | undefined;
}

/** The checkout's second step: the payment. */
export interface CheckoutSubmission {
  /** The form's one-time key: a replayed submission answers its first outcome. */
  readonly submissionKey: string;
  /** The balance the page showed, in lowest units: a different balance now is refused, never charged. */
  readonly expectedAmount: string;
  readonly method: MethodInput;
  /** Keep the method for later even when nothing recurs. */
  readonly saveMethod: boolean;
  /** Where the provider's authentication page returns to. */
  readonly returnUrl: string;
}
