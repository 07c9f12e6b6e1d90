/**
 * @module
 * The seed's rule for when the currency list is unavailable: JPY, KRW, VND and CLP have no
 * minor unit, every other currency has two decimal places.
 */

const ZERO_DECIMAL_FALLBACK: ReadonlySet<string> = new Set(['JPY', 'KRW', 'VND', 'CLP']);

/** Decimal places by the fallback rule, for when `GET /currencies` cannot be read. */
export function fallbackDecimalPlaces(currencyCode: string): number {
  return ZERO_DECIMAL_FALLBACK.has(currencyCode.toUpperCase()) ? 0 : 2;
}
