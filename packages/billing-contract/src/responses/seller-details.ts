/**
 * @module
 * The seller details an account environment's documents name (ADR 1106). The logo is shown by
 * its facts; its bytes appear only on the documents.
 */
import { z } from 'zod';
import { countryCode, entity, nullableTimestamp } from './common.js';

export const SellerDetails = entity(
  'SellerDetails',
  'Drawdown: the seller invoices and credit notes name (legal name, address, tax identifier, company number, contact email, logo, bank details, tax currency and its reference rates, and the pages the checkout links to). Null fields are not printed; without a legal name the account name is.',
  z.strictObject({
    legal_name: z.string().nullable(),
    address: z
      .strictObject({
        first_line: z.string().nullable(),
        second_line: z.string().nullable(),
        city: z.string().nullable(),
        postal_code: z.string().nullable(),
        region: z.string().nullable(),
        country_code: countryCode,
      })
      .nullable(),
    tax_identifier: z.string().nullable(),
    company_number: z.string().nullable(),
    email: z.string().nullable(),
    logo: z
      .strictObject({
        content_type: z.enum(['image/png', 'image/jpeg']),
        width: z.number().int().min(16).max(2048),
        height: z.number().int().min(16).max(2048),
        size_bytes: z.number().int().min(1).max(262_144),
      })
      .nullable(),
    /** How to pay a manual invoice by bank transfer (ADR 1110); null when not set. */
    payment_instructions: z
      .strictObject({
        account_name: z.string().nullable(),
        iban: z.string().nullable().describe('Electronic format: upper case, no spaces.'),
        bic: z.string().nullable(),
        account_number: z.string().nullable(),
        sort_code: z.string().nullable().describe('Six digits as 12-34-56.'),
        text: z.string().nullable(),
      })
      .nullable(),
    /** The currency of the seller's tax registration; invoices in another currency also state their tax in it. */
    tax_currency: z.string().nullable(),
    /** Dated reference rates into the tax currency, set by the operator and never fetched. */
    reference_rates: z.array(
      z.strictObject({
        currency_code: z.string(),
        rate: z.string().describe('Units of the tax currency per one unit of currency_code, a plain decimal.'),
        date: z.string().describe('YYYY-MM-DD'),
        source: z.string(),
      }),
    ),
    /** The seller's pages the hosted checkout links to (ADR 1113); null when not set. */
    terms_url: z.string().nullable(),
    privacy_url: z.string().nullable(),
    refund_policy_url: z.string().nullable(),
    contact_url: z.string().nullable(),
    /** Null until the details were first set. */
    updated_at: nullableTimestamp,
  }),
);
