/**
 * @module
 * Building blocks of response schemas: what the service emits, field by field. Entities are closed
 * (`additionalProperties: false`) so that a field emitted without being documented fails the
 * OpenAPI walk; every schema an operation answers with is registered under its component name.
 */
import { z } from 'zod';

/** The response schemas, each under the name it has in the OpenAPI document's components. */
export const RESPONSE_SCHEMAS = z.registry<{ id: string; description?: string }>();

/** Registers `schema` as the component `id`. */
export function entity<Schema extends z.ZodType>(id: string, description: string, schema: Schema): Schema {
  RESPONSE_SCHEMAS.add(schema, { id, description });
  return schema;
}

/** `<prefix>_` and 26 lowercase base-32 characters. */
export function id(prefix: string) {
  return z.string().regex(new RegExp(`^${prefix}_[a-z\\d]{26}$`));
}

/** RFC 3339 in UTC, as the service writes every instant (millisecond precision). */
export const timestamp = z.iso.datetime({ offset: false });
export const nullableTimestamp = timestamp.nullable();

/** An amount in the currency's lowest unit: an integer string. */
export const amount = z.string().regex(/^(0|[1-9]\d{0,17})$/);
/** Totals of credits and of changes can be negative. */
export const signedAmount = z.string().regex(/^(0|-?[1-9]\d{0,17})$/);
/** A usage quantity, meter rate or allowance: no leading zeros, up to 9 decimal places. */
export const quantity = z.string().regex(/^(0|[1-9]\d{0,34})(\.\d{1,9})?$/);
/** A usage balance figure: a quantity that may be negative. */
export const signedQuantity = z.string().regex(/^(0|-?(0|[1-9]\d{0,34})(\.\d{1,9})?)$/);
/** A tax rate or other fraction from 0 to 1 (`0.2`). */
export const rate = z.string().regex(/^(0(\.\d{1,9})?|1(\.0{1,9})?)$/);
export const currencyCode = z.string().regex(/^[A-Z]{3}$/);
export const countryCode = z.string().regex(/^[A-Z]{2}$/);

export const customData = z.record(z.string(), z.unknown()).nullable();
export const catalogueStatus = z.enum(['active', 'archived']);
export const catalogueType = z.enum(['standard', 'custom']);
export const interval = z.enum(['day', 'week', 'month', 'year']);
export const duration = z.strictObject({ interval, frequency: z.number().int().min(1) });
export const money = z.strictObject({ amount, currency_code: currencyCode });
export const period = z.strictObject({ starts_at: timestamp, ends_at: timestamp });
/** What an import left behind; always null here (nothing is imported). */
export const importMeta = z.null();

/** What Drawdown keeps of a card (never its number): on a payment method and a payment's `method_details`. */
export const cardSummary = z.strictObject({
  type: z.enum([
    'american_express',
    'diners_club',
    'discover',
    'jcb',
    'mada',
    'maestro',
    'mastercard',
    'union_pay',
    'unknown',
    'visa',
  ]),
  last4: z.string().regex(/^\d{4}$/),
  expiry_month: z.number().int().min(1).max(12),
  expiry_year: z.number().int(),
  cardholder_name: z.string(),
});

/** A signed, short-lived download link. */
export const Link = entity('Link', 'A signed download link, valid for one hour.', z.strictObject({ url: z.url() }));
