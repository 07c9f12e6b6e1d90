/**
 * @module
 * Building blocks of request bodies. The contract checks shapes and types; value rules that
 * belong to the domain (decimal patterns, allowance rules, action patterns) live in the core.
 */
import { z } from 'zod';

/** `<prefix>_` and 26 lowercase base-32 characters. */
export function idOf(prefix: string) {
  return z.string().regex(new RegExp(`^${prefix}_[a-z\\d]{26}$`), `must be a ${prefix}_ id`);
}

export const name = z.string().trim().min(1).max(200);
export const description = z.string().max(2_000);
export const customData = z.record(z.string(), z.unknown()).nullable();
export const catalogueStatus = z.enum(['active', 'archived']);
export const catalogueType = z.enum(['standard', 'custom']);
export const interval = z.enum(['day', 'week', 'month', 'year']);

export const duration = z.strictObject({
  interval,
  frequency: z.number().int().min(1).max(365),
});

/** A decimal travels as a string; its pattern is checked by the core. */
export const decimalString = z.string().max(64);

export const money = z.strictObject({
  amount: decimalString,
  currency_code: z.string().length(3),
});
