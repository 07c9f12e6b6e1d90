/**
 * @module
 * Amounts formatted for people: a lowest-unit amount, its currency's ISO 4217 decimal places
 * and a locale's conventions. Exact for any size (Intl formats the decimal string, never a
 * float), and with one cached Intl formatter per locale and currency, since building one per
 * call costs about sixty times a format.
 */
import { type CurrencyCode, minorUnitsOf } from './currencies.js';
import { toMajorUnitText } from './minor-units.js';

const FALLBACK_LOCALE = 'en-US';
const formatters = new Map<string, Intl.NumberFormat>();

/** The locale if Intl accepts it, else en-US (a malformed tag never fails a render). */
export function resolveLocale(locale: string | null | undefined): string {
  if (!locale) return FALLBACK_LOCALE;
  try {
    return Intl.getCanonicalLocales(locale)[0] ?? FALLBACK_LOCALE;
  } catch {
    return FALLBACK_LOCALE;
  }
}

function formatterFor(locale: string, currency: CurrencyCode): Intl.NumberFormat {
  const key = `${locale}|${currency}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    const places = minorUnitsOf(currency);
    // The decimal places are ISO 4217's, set explicitly: Intl's own (ICU) differ for HUF and others.
    formatter = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      minimumFractionDigits: places,
      maximumFractionDigits: places,
    });
    formatters.set(key, formatter);
  }
  return formatter;
}

/**
 * Formats a lowest-unit amount for display.
 * @example formatMinorUnits(123456n, 'EUR', 'en-US') // "€1,234.56"
 */
export function formatMinorUnits(amount: bigint, currency: CurrencyCode, locale?: string | null): string {
  const text = toMajorUnitText(amount, currency);
  // Intl.NumberFormat formats decimal strings exactly (no conversion to a double).
  return formatterFor(resolveLocale(locale), currency).format(text as unknown as number);
}
