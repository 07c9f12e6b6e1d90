/**
 * @module
 * The seller details an account environment's documents name (ADR 1106). The logo is shown by
 * its facts; its bytes appear only on the documents.
 */
import { z } from 'zod';
import { countryCode, entity, nullableTimestamp } from './common.js';

export const SellerDetails = entity(
  'SellerDetails',
  'Drawdown: the seller invoices and credit notes name (legal name, address, tax identifier, company number, contact email, logo). Null fields are not printed; without a legal name the account name is.',
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
    /** Null until the details were first set. */
    updated_at: nullableTimestamp,
  }),
);
