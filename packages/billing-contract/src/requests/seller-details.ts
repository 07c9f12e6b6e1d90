/**
 * @module
 * `PATCH /seller-details` (ADR 1106): the seller an account environment's invoices and credit
 * notes name. Every field is optional; null clears one. The logo is a PNG or JPEG file in
 * padded base64 (at most 256 KiB decoded, so at most 349,528 characters).
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
});
