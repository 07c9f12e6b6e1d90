/**
 * @module
 * `PATCH /seller-details` (ADR 1106): the seller an account environment's invoices and credit
 * notes name. Every field is optional; null clears one. The logo is a PNG or JPEG file in
 * padded base64 (at most 256 KiB decoded, so at most 349,528 characters). Payment instructions
 * and the tax currency with its reference rates are printed on invoices (ADR 1110).
 */
import { z } from 'zod';

const text = (max: number) => z.string().max(max).nullable().optional();

export const SellerAddressBody = z.strictObject({
  first_line: z.string().max(300).nullable().optional(),
  second_line: z.string().max(300).nullable().optional(),
  city: z.string().max(200).nullable().optional(),
  postal_code: z.string().max(100).nullable().optional(),
  region: z.string().max(200).nullable().optional(),
  country_code: z.string().max(2),
});

export const UpdateSellerDetailsBody = z.strictObject({
  legal_name: text(200),
  address: SellerAddressBody.nullable().optional(),
  tax_identifier: text(64),
  company_number: text(64),
  email: z.email().max(320).nullable().optional(),
  logo: z
    .strictObject({ data: z.string().max(349_528) })
    .nullable()
    .optional(),
  /** How to pay a manual invoice by bank transfer (ADR 1110); replaced as a whole, null removes it. */
  payment_instructions: z
    .strictObject({
      account_name: text(200),
      iban: text(42),
      bic: text(11),
      account_number: text(40),
      sort_code: text(8),
      text: text(1000),
    })
    .nullable()
    .optional(),
  /** The currency of the seller's tax registration: invoices in another currency also state their tax in it. */
  tax_currency: z.string().max(3).nullable().optional(),
  /** Dated reference rates into `tax_currency`, set by the operator; replaced as a whole. */
  reference_rates: z
    .array(
      z.strictObject({
        currency_code: z.string().max(3),
        rate: z.string().max(32),
        date: z.string().max(10),
        source: z.string().max(100),
      }),
    )
    .max(200)
    .optional(),
  /** The seller's pages the hosted checkout links to (ADR 1113): absolute http(s) addresses; null removes one. */
  terms_url: text(2048),
  privacy_url: text(2048),
  refund_policy_url: text(2048),
  contact_url: text(2048),
});
