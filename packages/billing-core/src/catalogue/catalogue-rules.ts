/**
 * @module
 * Value rules shared by the catalogue use cases. Each refusal is a BillingError whose code and
 * field name the caller can act on.
 */

import { Decimal } from '../money/decimal.js';
import { BillingError } from '../shared/billing-error.js';

/** Applies `pattern` and, when asked, requires the decimal to be above zero. */
export function requireDecimal(field: string, value: string, pattern: RegExp, options: { positive: boolean }): Decimal {
  if (!pattern.test(value)) {
    throw BillingError.invalidField(
      field,
      'must be a decimal string without leading zeros, exponent or sign, with at most 35 integer digits and 9 decimal places',
    );
  }
  const decimal = Decimal.parse(value);
  if (options.positive && !decimal.isPositive()) throw BillingError.invalidField(field, 'must be greater than zero');
  return decimal;
}

/** Fields present in an update replace the stored ones; absent fields are kept. */
export function merge<Entity extends object>(
  current: Entity,
  changes: { readonly [Key in keyof Entity]?: Entity[Key] | undefined },
): Entity {
  const next: Record<string, unknown> = { ...(current as Record<string, unknown>) };
  for (const [key, value] of Object.entries(changes)) if (value !== undefined) next[key] = value;
  return next as Entity;
}
