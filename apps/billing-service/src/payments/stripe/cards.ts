/**
 * @module
 * What Stripe says of a card (ADR 1421): its summary as the public API shows it (brand, last
 * four, expiry, holder; nothing else ever leaves Stripe), its decline as the payment's
 * `error_code`, and which method inputs Stripe takes (a PaymentMethod id Stripe.js created).
 */
import {
  BillingError,
  type MethodInput,
  type PaymentErrorCode,
  type PaymentOutcome,
  type ProviderMethod,
} from '@drawdown/billing-core';
import Stripe from 'stripe';

/** Stripe's card brands as the public API's `card.type` names them. */
const CARD_TYPES: Readonly<Record<string, string>> = {
  amex: 'american_express',
  diners: 'diners_club',
  discover: 'discover',
  jcb: 'jcb',
  mastercard: 'mastercard',
  unionpay: 'union_pay',
  visa: 'visa',
};

/** Stripe decline codes (and error codes) as the public API's payment `error_code`. */
const ERROR_CODES: Readonly<Record<string, PaymentErrorCode>> = {
  authentication_required: 'authentication_failed',
  payment_intent_authentication_failure: 'authentication_failed',
  setup_intent_authentication_failure: 'authentication_failed',
  expired_card: 'expired_card',
  insufficient_funds: 'not_enough_balance',
  fraudulent: 'fraud',
  stolen_card: 'fraud',
  lost_card: 'fraud',
  pickup_card: 'fraud',
  merchant_blacklist: 'fraud',
  card_not_supported: 'transaction_not_permitted',
  transaction_not_allowed: 'transaction_not_permitted',
  currency_not_supported: 'transaction_not_permitted',
  incorrect_number: 'invalid_payment_details',
  invalid_number: 'invalid_payment_details',
  incorrect_cvc: 'invalid_payment_details',
  invalid_cvc: 'invalid_payment_details',
  invalid_expiry_month: 'invalid_payment_details',
  invalid_expiry_year: 'invalid_payment_details',
  invalid_amount: 'invalid_amount',
  issuer_not_available: 'issuer_unavailable',
  do_not_try_again: 'declined_not_retryable',
  processing_error: 'psp_error',
  card_velocity_exceeded: 'declined',
  generic_decline: 'declined',
  card_declined: 'declined',
};

export function paymentErrorCodeOf(
  error: { code?: string | null; decline_code?: string | null } | null,
): PaymentErrorCode {
  if (!error) return 'unknown';
  return ERROR_CODES[error.decline_code ?? ''] ?? ERROR_CODES[error.code ?? ''] ?? 'declined';
}

export function methodOf(paymentMethod: Stripe.PaymentMethod): ProviderMethod {
  const card = paymentMethod.card;
  return {
    providerMethodRef: paymentMethod.id,
    type: 'card',
    card: {
      type: CARD_TYPES[card?.brand ?? ''] ?? 'unknown',
      last4: card?.last4 ?? '',
      expiryMonth: card?.exp_month ?? 0,
      expiryYear: card?.exp_year ?? 0,
      cardholderName: paymentMethod.billing_details?.name ?? '',
    },
  };
}

/** The method a payment used: expanded already, read from Stripe, or (deleted since) a card nobody knows. */
export async function methodById(
  stripe: Stripe,
  reference: string | Stripe.PaymentMethod | null,
): Promise<ProviderMethod> {
  if (reference !== null && typeof reference !== 'string') return methodOf(reference);
  try {
    if (reference !== null) return methodOf(await stripe.paymentMethods.retrieve(reference));
  } catch (error) {
    // A method Stripe no longer has (deleted since): the payment still counts, its card is unknown.
    if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
  }
  return {
    providerMethodRef: reference ?? '',
    type: 'card',
    card: { type: 'unknown', last4: '', expiryMonth: 0, expiryYear: 0, cardholderName: '' },
  };
}

/** The PaymentMethod id a method input names; card fields and other tokens are refused. */
export function tokenOf(method: MethodInput): string {
  if (method.kind === 'saved') return method.providerMethodRef;
  if (method.kind === 'token' && /^pm_[A-Za-z0-9_]+$/.test(method.token)) return method.token;
  throw new BillingError(
    'payment_method_input_invalid',
    method.kind === 'card_fields'
      ? 'Card details go to Stripe, never to Drawdown: send the PaymentMethod id (pm_…) Stripe.js created.'
      : 'A Stripe payment method is a PaymentMethod id (pm_…) created by Stripe.js.',
  );
}

function isCardError(error: unknown): error is Stripe.errors.StripeCardError {
  return error instanceof Stripe.errors.StripeError && error.type === 'StripeCardError';
}

/**
 * The decline a card error reports for the intent it names (`payment_intent` or `setup_intent`);
 * throws the refusal of a payment method Stripe does not know; undefined for any other error.
 */
export function declinedBy(
  error: unknown,
  intent: 'payment_intent' | 'setup_intent',
): Extract<PaymentOutcome, { status: 'declined' }> | undefined {
  if (isCardError(error)) {
    const named = error[intent];
    if (named) {
      return {
        status: 'declined',
        providerPaymentRef: named.id,
        errorCode: paymentErrorCodeOf(error),
        method: error.payment_method ? methodOf(error.payment_method) : null,
      };
    }
  }
  if (isMissingPaymentMethod(error)) throw unusableMethod();
  return undefined;
}

function isMissingPaymentMethod(error: unknown): boolean {
  return (
    error instanceof Stripe.errors.StripeError &&
    error.type === 'StripeInvalidRequestError' &&
    (error.code === 'resource_missing' || error.code === 'payment_method_unexpected_state') &&
    error.param === 'payment_method'
  );
}

function unusableMethod(): BillingError {
  return new BillingError(
    'payment_method_input_invalid',
    'Stripe does not know this payment method, or it belongs to another customer.',
  );
}
