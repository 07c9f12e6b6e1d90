/**
 * @module
 * Request bodies of checkout settings and of the hosted checkout page's form (ADRs 1411, 1412).
 */
import { z } from 'zod';

/** `PATCH /checkout-settings`: the account's default payment link, or null for Drawdown's page. */
export const UpdateCheckoutSettingsBody = z.strictObject({
  default_payment_link: z.string().max(2048).nullable(),
});

/**
 * The checkout page's form (`application/x-www-form-urlencoded`). Card fields reach only the
 * sandbox provider; a live provider's page sends its own token instead.
 */
export const CheckoutFormBody = z.strictObject({
  submission_key: z.string().max(64),
  email: z.string().max(320),
  country_code: z.string().max(2),
  postal_code: z.string().max(100).optional(),
  region: z.string().max(100).optional(),
  city: z.string().max(200).optional(),
  first_line: z.string().max(300).optional(),
  cardholder_name: z.string().max(200).optional(),
  card_number: z.string().max(32).optional(),
  card_expiry: z.string().max(7).optional(),
  card_cvc: z.string().max(4).optional(),
  provider_token: z.string().max(500).optional(),
  save_method: z.literal('on').optional(),
});

/**
 * `POST /checkout/intent` (the checkout page's script, form-encoded): a payment for the
 * provider's browser library to confirm (ADR 1424). No card field: Stripe.js keeps the card.
 */
export const BrowserCheckoutBody = z.strictObject({
  submission_key: z.string().max(64),
  expected_amount: z.string().max(20),
  save_method: z.literal('on').optional(),
});
