/**
 * @module
 * Amounts on the wire are integer strings in the currency's lowest unit. These helpers move
 * between that form, BigInt and the plain decimal text a person reads, without floats.
 */
import { type CurrencyCode, minorUnitsOf } from './currencies.js';

const INTEGER = /^-?(0|[1-9]\d*)$/;

/** Parses a lowest-unit amount string. @throws RangeError when it is not an integer string. */
export function parseMinorUnits(amount: string): bigint {
  if (!INTEGER.test(amount)) throw new RangeError(`Not a lowest-unit amount: ${JSON.stringify(amount)}`);
  return BigInt(amount);
}

/**
 * The plain decimal text of a lowest-unit amount: `"123456"` in EUR is `"1234.56"`, in JPY
 * `"123456"`, and `"5"` in HUF is `"0.05"` (ISO 4217 minor units).
 */
export function toMajorUnitText(amount: bigint, currency: CurrencyCode): string {
  const places = minorUnitsOf(currency);
  const negative = amount < 0n;
  const digits = (negative ? -amount : amount).toString().padStart(places + 1, '0');
  const whole = digits.slice(0, digits.length - places);
  const fraction = places > 0 ? `.${digits.slice(digits.length - places)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}
