/**
 * @module
 * The payment-provider port (ADR 1410). Drawdown moves money only through a provider and never
 * holds a card number (DESIGN §4): a provider collects card details itself (the sandbox on the
 * checkout page it renders, Stripe in Stripe.js), keeps the card, and hands back its own tokens
 * (`providerMethodRef`, `providerPaymentRef`) and a card summary (type, last four, expiry).
 *
 * Four things a provider does:
 * - `payCheckout`: a customer-present payment of a transaction's grand total (its balance),
 *   optionally saving the method for later; it may need the customer to authenticate (3-D
 *   Secure) first, which it reports as `requires_action` with a page to send them to.
 * - `chargeSavedMethod`: an off-session charge of a saved method (renewals, immediate
 *   subscription changes, one-time charges of automatically collected subscriptions).
 * - `setUpMethod`: saves or replaces a method without a charge (the update-payment-method
 *   checkout, whose transaction is worth zero).
 * - `readNotification`: turns what the provider sends asynchronously (Stripe's webhooks) into
 *   neutral notifications: a payment succeeded, was declined, was disputed; a method was set up.
 *
 * Every call is idempotent on `attemptId` (Drawdown's `payatt_` id of the attempt): calling twice
 * with the same attempt never charges twice, and the provider answers with the first outcome.
 * Amounts are lowest-denomination integer strings, never floats. The core stores an attempt
 * before it calls the provider and applies the outcome afterwards, in its own database
 * transactions: a provider call never runs inside a database transaction.
 */
import type { Scope } from '../shared/scope.js';
import type { CardSummary } from '../transactions/saved-methods.js';

export type { CardSummary };

/** A payment method as the provider keeps it. */
export interface ProviderMethod {
  /** The provider's token for the method (Stripe `pm_…`; the sandbox's `sbxpm_…`). */
  readonly providerMethodRef: string;
  /** The public API's payment method type; providers here answer `card`. */
  readonly type: 'card';
  readonly card: CardSummary;
}

/**
 * How the customer supplied a method at a checkout. Providers that collect card details in
 * their own browser library (Stripe.js) send a token; the sandbox provider's page posts test
 * card fields to Drawdown, which hands them to the sandbox provider only (a live provider refuses
 * `card_fields` with `payment_method_input_invalid`).
 */
export type MethodInput =
  | { readonly kind: 'token'; readonly token: string }
  | { readonly kind: 'saved'; readonly providerMethodRef: string }
  | {
      readonly kind: 'card_fields';
      readonly number: string;
      readonly expiryMonth: number;
      readonly expiryYear: number;
      readonly cvc: string;
      readonly cardholderName: string;
    };

/** Who pays and for what: enough for the provider's records and its customer object. */
export interface PaymentParty {
  readonly scope: Scope;
  readonly customerId: string;
  readonly customerEmail: string;
  readonly transactionId: string;
}

export interface CheckoutPaymentRequest extends PaymentParty {
  /** Drawdown's attempt id: the provider's idempotency key. */
  readonly attemptId: string;
  /** The transaction's balance, in lowest units. */
  readonly amount: string;
  readonly currencyCode: string;
  readonly method: MethodInput;
  /** Keep the method for off-session charges (a subscription, or the customer chose to save it). */
  readonly saveMethod: boolean;
  /** Where the authentication page sends the customer back to when they finish. */
  readonly returnUrl: string;
}

export interface OffSessionChargeRequest extends PaymentParty {
  readonly attemptId: string;
  readonly amount: string;
  readonly currencyCode: string;
  readonly providerMethodRef: string;
}

export interface SetupRequest extends PaymentParty {
  readonly attemptId: string;
  readonly method: MethodInput;
  readonly returnUrl: string;
}

/**
 * A payment the customer's browser confirms with the provider's own library (Stripe.js's Payment
 * Element, ADR 1424): the server creates it unconfirmed, for the attempt's exact amount, and the
 * browser takes the card and confirms it. Idempotent on `attemptId`: asking again answers the
 * same payment, so a page reload or a lost answer never makes a second one.
 */
export interface BrowserPaymentRequest extends PaymentParty {
  readonly attemptId: string;
  /** `checkout` charges `amount`; `setup` saves a method without a charge (the update-payment-method transaction). */
  readonly kind: 'checkout' | 'setup';
  readonly amount: string;
  readonly currencyCode: string;
  /** Keep the method for off-session charges. */
  readonly saveMethod: boolean;
}

/** What the browser needs to confirm a payment: the provider's reference and its client secret. */
export interface BrowserPayment {
  readonly providerPaymentRef: string;
  /** The secret the browser library confirms with (Stripe's `client_secret`); never stored by Drawdown. */
  readonly clientSecret: string;
}

/** A provider whose browser library takes the card on the checkout page. */
export interface BrowserConfirmation {
  /** The key the browser library is loaded with (Stripe's publishable `pk_…`); null when none is configured. */
  readonly publishableKey: string | null;
  createBrowserPayment(request: BrowserPaymentRequest): Promise<BrowserPayment>;
}

/**
 * What a provider answered. `succeeded` and `declined` are final; `requires_action` waits for
 * the customer to authenticate at `actionUrl`; `pending` waits for a notification. A final
 * outcome of a waiting attempt arrives later through `readNotification` or `resumeAttempt`.
 */
export type PaymentOutcome =
  | {
      readonly status: 'succeeded';
      readonly providerPaymentRef: string;
      /** The method charged or set up; saved when the request asked to save it. */
      readonly method: ProviderMethod;
    }
  | {
      readonly status: 'declined';
      readonly providerPaymentRef: string;
      /** The public API's payment error code: `declined`, `authentication_failed`, `expired_card`, … */
      readonly errorCode: PaymentErrorCode;
      readonly method: ProviderMethod | null;
    }
  | {
      readonly status: 'requires_action';
      readonly providerPaymentRef: string;
      /** The authentication page (3-D Secure challenge) to send the customer to. */
      readonly actionUrl: string;
    }
  | { readonly status: 'pending'; readonly providerPaymentRef: string };

/** The public API's `payments[].error_code` values a provider may report. */
export const PAYMENT_ERROR_CODES = [
  'already_canceled',
  'already_refunded',
  'authentication_failed',
  'blocked_card',
  'canceled',
  'declined',
  'declined_not_retryable',
  'expired_card',
  'fraud',
  'invalid_amount',
  'invalid_payment_details',
  'issuer_unavailable',
  'not_enough_balance',
  'preferred_network_not_supported',
  'psp_error',
  'redacted_payment_method',
  'system_error',
  'transaction_not_permitted',
  'unknown',
] as const;
export type PaymentErrorCode = (typeof PAYMENT_ERROR_CODES)[number];

/**
 * What a provider tells Drawdown asynchronously, after verifying that it came from the provider
 * (a webhook's signature). `providerPaymentRef` names the attempt the outcome belongs to; an
 * unknown reference is ignored (answered, not applied). Notifications can repeat: applying one
 * twice changes nothing.
 */
/** One refund of a payment at the provider. */
export interface ProviderRefund {
  /** The provider's id of the refund (Stripe: `re_…`): each is recorded once. */
  readonly refundRef: string;
  /** Lowest units, tax included. */
  readonly amount: string;
  /** The adjustment a refund Drawdown asked for carries (metadata): its own echo, never recorded again. */
  readonly drawdownAdjustmentId: string | null;
}

export type ProviderNotification =
  | {
      readonly kind: 'payment_succeeded';
      /** The provider's id of this notification, for deduplication. */
      readonly notificationRef: string;
      readonly providerPaymentRef: string;
      /** Drawdown's attempt, when the provider echoes it (Stripe's metadata): found even before its reference is stored. */
      readonly attemptId?: string | undefined;
      readonly method: ProviderMethod;
    }
  | {
      readonly kind: 'payment_declined';
      readonly notificationRef: string;
      readonly providerPaymentRef: string;
      /** Drawdown's attempt, when the provider echoes it (Stripe's metadata): found even before its reference is stored. */
      readonly attemptId?: string | undefined;
      readonly errorCode: PaymentErrorCode;
      readonly method: ProviderMethod | null;
    }
  | {
      readonly kind: 'setup_succeeded';
      readonly notificationRef: string;
      readonly providerPaymentRef: string;
      /** Drawdown's attempt, when the provider echoes it (Stripe's metadata): found even before its reference is stored. */
      readonly attemptId?: string | undefined;
      readonly method: ProviderMethod;
    }
  | {
      /** A captured payment was disputed (a chargeback) for `amount` lowest units. */
      readonly kind: 'payment_disputed';
      readonly notificationRef: string;
      readonly providerPaymentRef: string;
      /** Drawdown's attempt, when the provider echoes it (Stripe's metadata): found even before its reference is stored. */
      readonly attemptId?: string | undefined;
      readonly amount: string;
      readonly reason: string;
    }
  | {
      /**
       * A payment was refunded at the provider, perhaps by the seller in the provider's dashboard
       * (ADR 1461): every refund of it so far, each once recorded as a `refund` adjustment.
       */
      readonly kind: 'payment_refunded';
      readonly notificationRef: string;
      readonly providerPaymentRef: string;
      /** Drawdown's attempt, when the provider echoes it (Stripe's metadata): found even before its reference is stored. */
      readonly attemptId?: string | undefined;
      readonly refunds: readonly ProviderRefund[];
    }
  | {
      /**
       * A refund changed status at the provider (Stripe's `refund.updated`, `refund.failed`): only
       * Drawdown's own refunds (ADR 1463) are acted on; the rest arrive as `payment_refunded`.
       */
      readonly kind: 'refund_updated';
      readonly notificationRef: string;
      readonly providerPaymentRef: string;
      readonly attemptId?: string | undefined;
      readonly refundRef: string;
      readonly drawdownAdjustmentId: string | null;
      readonly status: 'succeeded' | 'failed' | 'pending';
      readonly reason: string | null;
    }
  | {
      /** A dispute closed (ADR 1462): `won` gives the chargeback back; `lost` and the rest change nothing. */
      readonly kind: 'dispute_closed';
      readonly notificationRef: string;
      readonly providerPaymentRef: string;
      readonly attemptId?: string | undefined;
      readonly disputeRef: string;
      readonly outcome: 'won' | 'lost' | 'other';
    }
  | {
      /** The card issuer warned of likely fraud (Stripe Radar's early fraud warning, ADR 1462). */
      readonly kind: 'fraud_warning';
      readonly notificationRef: string;
      readonly providerPaymentRef: string;
      readonly attemptId?: string | undefined;
      readonly warningRef: string;
      readonly fraudType: string;
    }
  /** Something the provider sends that Drawdown does not act on (answered 200, not applied). */
  | { readonly kind: 'ignored'; readonly notificationRef: string };

/** A request the provider sent to Drawdown's notification route, as received. */
export interface IncomingNotification {
  /** The raw body exactly as received: signatures are computed over these bytes. */
  readonly rawBody: string;
  /** Header names lower-cased. */
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * What an off-session authorisation (a hold on the saved method, captured later) stands at.
 * `authorised`: held, not captured; `captured`: the money is taken; `declined`: nothing held;
 * `voided`: the hold was released; `pending`: the provider has not decided yet.
 */
export type AuthorisationOutcome =
  | { readonly status: 'authorised'; readonly providerPaymentRef: string; readonly method: ProviderMethod }
  | { readonly status: 'captured'; readonly providerPaymentRef: string; readonly method: ProviderMethod }
  | {
      readonly status: 'declined';
      readonly providerPaymentRef: string | null;
      readonly errorCode: PaymentErrorCode;
      readonly method: ProviderMethod | null;
    }
  | { readonly status: 'voided'; readonly providerPaymentRef: string }
  | { readonly status: 'pending'; readonly providerPaymentRef: string };

/**
 * Authorise now, capture after the commit (ADR 1426): how a live provider lets a subscription
 * change with `on_payment_failure: prevent_change` secure its money before it commits. Every call
 * is idempotent on the attempt id; a thrown error means the answer was lost (the provider may
 * have acted), never a decline.
 */
export interface AuthorisingProvider {
  /**
   * Authorises `amount` on the saved method off-session, keyed by `attemptId`. Asked again with
   * the same request it answers the same authorisation as it stands now, and never makes a second.
   */
  authorise(request: OffSessionChargeRequest): Promise<AuthorisationOutcome>;
  /** Captures an authorisation in full; capturing one already captured answers `captured`. */
  capture(scope: Scope, providerPaymentRef: string, attemptId: string): Promise<AuthorisationOutcome>;
  /** Releases an authorisation; one already released, declined or never held answers as it stands. */
  release(scope: Scope, providerPaymentRef: string): Promise<AuthorisationOutcome>;
}

/** A refund Drawdown asks a provider for (ADR 1463): one adjustment, sent to one payment. */
export interface RefundRequest {
  readonly scope: Scope;
  /** The `refund` adjustment (`adj_…`): the provider's idempotency key and its metadata. */
  readonly adjustmentId: string;
  readonly transactionId: string;
  /** The payment refunded (Stripe: the PaymentIntent `pi_…`). */
  readonly providerPaymentRef: string;
  /** Lowest units, tax included. */
  readonly amount: string;
  readonly currencyCode: string;
}

/**
 * What a provider says of a refund: `succeeded` (the money went back), `failed` (refused, or
 * failed later: nothing went back), `pending` (not decided yet; a notification or the recovery
 * step hears the rest).
 */
export type RefundOutcome =
  | { readonly status: 'succeeded'; readonly refundRef: string }
  | { readonly status: 'failed'; readonly refundRef: string | null; readonly reason: string }
  | { readonly status: 'pending'; readonly refundRef: string };

/** A provider that refunds payments it took (Stripe, ADR 1463). A thrown error means the answer was lost. */
export interface RefundingProvider {
  /** Refunds `amount` of the payment, keyed by the adjustment id: asked again, it never refunds twice. */
  refund(request: RefundRequest): Promise<RefundOutcome>;
  /** The refund made for this adjustment, found among the payment's refunds by its metadata; undefined when none was made. */
  findRefund(scope: Scope, providerPaymentRef: string, adjustmentId: string): Promise<RefundOutcome | undefined>;
}

/** One payment provider (sandbox, Stripe, …), as the core calls it. */
export interface PaymentProvider {
  /** `sandbox`, `stripe`: stored with every attempt and saved method. */
  readonly name: string;
  payCheckout(request: CheckoutPaymentRequest): Promise<PaymentOutcome>;
  chargeSavedMethod(request: OffSessionChargeRequest): Promise<PaymentOutcome>;
  setUpMethod(request: SetupRequest): Promise<PaymentOutcome>;
  /**
   * The current outcome of an attempt that was `requires_action` or `pending` (the customer came
   * back from authenticating). Idempotent; a final outcome stays final.
   */
  resumeAttempt(scope: Scope, providerPaymentRef: string): Promise<PaymentOutcome>;
  /**
   * Cancels a customer-present payment that waits (a challenge, a browser's confirmation) so that it
   * can never take money later, and answers how it stands now (ADR 1468): `declined` with
   * `canceled` once canceled, or its final outcome when it ended first (a success is the money taken,
   * to be recorded); `pending` when the provider is still deciding and cannot cancel it. Idempotent.
   */
  cancelWaiting(scope: Scope, providerPaymentRef: string): Promise<PaymentOutcome>;
  /**
   * The payment an attempt made at the provider, found by the attempt id it carries (Stripe: a
   * search of PaymentIntents by metadata), whatever became of the idempotency key; undefined when
   * the provider never made one. Recovery looks here before asking again under the key (ADR 1466).
   * Absent for providers that settle at once (the sandbox).
   */
  findAttemptPayment?(scope: Scope, attemptId: string): Promise<string | undefined>;
  /** Forgets a saved method at the provider (DELETE of a payment method). */
  detachMethod(scope: Scope, providerMethodRef: string): Promise<void>;
  /**
   * Verifies and reads one incoming notification.
   * @throws BillingError `provider_notification_invalid` when its signature does not verify.
   */
  readNotification(incoming: IncomingNotification): Promise<ProviderNotification>;
  /** Present when the provider's browser library takes the card on the checkout page (Stripe.js). */
  readonly browser?: BrowserConfirmation | undefined;
  /** Present when the provider can hold a saved method's money and capture it later (Stripe, ADR 1426). */
  readonly authorisation?: AuthorisingProvider | undefined;
  /** Present when refund adjustments are sent to the provider (Stripe, ADR 1463). */
  readonly refunds?: RefundingProvider | undefined;
}

/**
 * Which provider serves a scope: the sandbox environment always has the sandbox provider; live
 * has the configured one, or none (then payments are reported, `POST /transactions/{id}/payments`).
 */
export interface PaymentProviders {
  /**
   * Asynchronous: a live provider is configured per account and read from storage (ADR 1420),
   * so an operator's change applies at once in every process.
   */
  providerFor(scope: Scope): Promise<PaymentProvider | undefined>;
  /** A provider by name, for its notification route. */
  byName(name: string): PaymentProvider | undefined;
  /** The provider of this name that serves a scope (the one an attempt or a saved method was made with), if it still does. */
  providerNamed(scope: Scope, name: string): Promise<PaymentProvider | undefined>;
}
