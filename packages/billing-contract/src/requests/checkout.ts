/**
 * @module
 * Request bodies of checkout settings and of the hosted checkout page's form (ADRs 1411, 1412).
 */
import { z } from 'zod';

/**
 * `PATCH /checkout-settings`: the account's default payment link (null for Drawdown's page) and
 * what ends a payment recovery that recovered nothing (ADR 1460); a field left out keeps its value.
 */
export const UpdateCheckoutSettingsBody = z.strictObject({
  default_payment_link: z.string().max(2048).nullable().optional(),
  dunning_exhausted_action: z.enum(['subscription_canceled', 'subscription_paused']).optional(),
  /** Where a finished checkout leads back to (ADR 1112); a link's own return_url must share its origin. */
  return_url: z.string().max(2048).nullable().optional(),
});

/**
 * The checkout page's details form (`application/x-www-form-urlencoded`, `POST /checkout/details`):
 * the customer's email and the address the tax is computed for.
 */
const DETAILS_FIELDS = {
  email: z.string().max(320),
  country_code: z.string().max(2),
  postal_code: z.string().max(100).optional(),
  region: z.string().max(100).optional(),
  city: z.string().max(200).optional(),
  first_line: z.string().max(300).optional(),
  /** Buying as an individual or as a business (ADR 1113); absent keeps the transaction's business. */
  purchase_as: z.enum(['individual', 'business']).optional(),
  /** With `purchase_as=business`: the company name and its VAT or tax number. */
  company_name: z.string().max(200).optional(),
  tax_identifier: z.string().max(64).optional(),
};

export const CheckoutDetailsFormBody = z.strictObject(DETAILS_FIELDS);

/** The details as the payment form carries them (ADR 1115): all optional, taken only while the order can change. */
const OPTIONAL_DETAILS = {
  ...DETAILS_FIELDS,
  email: DETAILS_FIELDS.email.optional(),
  country_code: DETAILS_FIELDS.country_code.optional(),
};

/** The checkout page's promo-code form (`POST /checkout/code`, ADR 1111): a discount code enabled for checkout. */
export const CheckoutCodeFormBody = z.strictObject({
  code: z.string().max(32),
});

/**
 * The checkout page's payment form (`POST /checkout/pay`): the customer's details while the order
 * can still change (re-taxed before paying, ADR 1115), the one-time key and the amount the page
 * showed, which the payment must equal. Card fields reach only the sandbox provider; a live
 * provider's page sends its own token (`provider_token`) instead.
 */
export const CheckoutPayFormBody = z.strictObject({
  ...OPTIONAL_DETAILS,
  submission_key: z.string().max(64),
  expected_amount: z.string().max(20),
  cardholder_name: z.string().max(200).optional(),
  card_number: z.string().max(32).optional(),
  card_expiry: z.string().max(7).optional(),
  card_cvc: z.string().max(4).optional(),
  provider_token: z.string().max(500).optional(),
  save_method: z.literal('on').optional(),
});

/** The sandbox's 3-D Secure challenge page's form: pass or fail the challenge. */
export const SandboxChallengeFormBody = z.strictObject({
  outcome: z.enum(['pass', 'fail']),
});

/**
 * `POST /checkout/intent` (the checkout page's script, form-encoded): a payment for the
 * provider's browser library to confirm (ADR 1424). No card field: Stripe.js keeps the card.
 */
export const BrowserCheckoutBody = z.strictObject({
  ...OPTIONAL_DETAILS,
  submission_key: z.string().max(64),
  expected_amount: z.string().max(20),
  save_method: z.literal('on').optional(),
});
