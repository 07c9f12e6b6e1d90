/**
 * @module
 * Turns a lowest-unit amount string into a localised currency string, exactly, for any size.
 *
 * The amount never becomes a Number. Intl formats the integer part as a BigInt (so grouping is
 * the locale's, exact beyond 2^53), the fraction digits are taken from the string itself and
 * written in the locale's digits, and a formatted sample (`1` or `-1`) supplies where the
 * currency, sign, spacing and decimal separator go. Formatters are cached per locale, currency
 * and decimal places in a bounded cache: building an Intl formatter costs about 60 times a call
 * (ADR 0607).
 */
import { localeFromAcceptLanguage } from './accept-language.js';
import { fallbackDecimalPlaces } from './minor-units.js';

const AMOUNT_PATTERN = /^-?\d+$/;
const MAX_DECIMAL_PLACES = 20;
const MAX_CACHED_FORMATTERS = 512;

interface AmountFormatter {
  readonly number: Intl.NumberFormat;
  /** The parts of `1` and `-1`: the template an amount's digits are put into. */
  readonly positive: readonly Intl.NumberFormatPart[];
  readonly negative: readonly Intl.NumberFormatPart[];
  /** The locale's digits 0 to 9 (Latin, Arabic-Indic, Devanagari, …). */
  readonly digits: readonly string[];
}

const formatters = new Map<string, AmountFormatter>();

function createFormatter(locale: string, currencyCode: string, decimalPlaces: number): AmountFormatter {
  const number = new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: currencyCode,
    minimumFractionDigits: decimalPlaces,
    maximumFractionDigits: decimalPlaces,
  });
  const digitFormat = new Intl.NumberFormat(locale, {
    useGrouping: false,
    numberingSystem: number.resolvedOptions().numberingSystem,
  });
  const digits = Array.from({ length: 10 }, (_, digit) => digitFormat.format(BigInt(digit)));
  return { number, positive: number.formatToParts(1n), negative: number.formatToParts(-1n), digits };
}

function formatterFor(locale: string, currencyCode: string, decimalPlaces: number): AmountFormatter {
  const key = `${locale}\u0000${currencyCode}\u0000${decimalPlaces}`;
  const cached = formatters.get(key);
  if (cached) {
    // Re-inserting keeps the most recently used entries at the end, for eviction from the front.
    formatters.delete(key);
    formatters.set(key, cached);
    return cached;
  }
  const created = createFormatter(locale, currencyCode, decimalPlaces);
  formatters.set(key, created);
  if (formatters.size > MAX_CACHED_FORMATTERS) {
    const oldest = formatters.keys().next().value;
    if (oldest !== undefined) formatters.delete(oldest);
  }
  return created;
}

function localDigits(text: string, digits: readonly string[]): string {
  let result = '';
  for (const character of text) result += digits[character.charCodeAt(0) - 48] ?? character;
  return result;
}

/**
 * Formats an amount given in the currency's lowest unit.
 *
 * @param amount integer string, such as `"123456"` (may be negative; any length)
 * @param currencyCode ISO 4217 code, such as `"EUR"`
 * @param acceptLanguage an `Accept-Language` header value, or a single locale tag; malformed → en-US
 * @param decimalPlaces the currency's decimal places (from `GET /currencies`); by default the
 *   seed's fallback rule: 0 for JPY, KRW, VND and CLP, 2 for every other currency
 *
 * @example
 * formatAmount('123456', 'EUR', 'de-DE') // '1.234,56 €'
 * formatAmount('123456', 'JPY', 'ja-JP') // '￥123,456'
 */
export function formatAmount(
  amount: string,
  currencyCode: string,
  acceptLanguage: string | null | undefined,
  decimalPlaces?: number,
): string {
  if (!AMOUNT_PATTERN.test(amount)) {
    throw new RangeError(`An amount must be an integer string in the lowest currency unit; got "${amount}".`);
  }
  const currency = currencyCode.toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency)) throw new RangeError(`"${currencyCode}" is not a currency code.`);
  const places = decimalPlaces ?? fallbackDecimalPlaces(currency);
  if (!Number.isInteger(places) || places < 0 || places > MAX_DECIMAL_PLACES) {
    throw new RangeError(`Decimal places must be an integer from 0 to ${MAX_DECIMAL_PLACES}; got ${places}.`);
  }
  const formatter = formatterFor(localeFromAcceptLanguage(acceptLanguage), currency, places);

  const magnitude = amount.startsWith('-') ? amount.slice(1) : amount;
  const padded = magnitude.padStart(places + 1, '0');
  const integerDigits = padded.slice(0, padded.length - places);
  const fractionDigits = padded.slice(padded.length - places);
  const integer = BigInt(integerDigits);
  const negative = amount.startsWith('-') && BigInt(magnitude) !== 0n;

  const integerParts = formatter.number
    .formatToParts(integer)
    .filter((part) => part.type === 'integer' || part.type === 'group');
  let result = '';
  let integerWritten = false;
  for (const part of negative ? formatter.negative : formatter.positive) {
    if (part.type === 'integer' || part.type === 'group') {
      if (!integerWritten) for (const integerPart of integerParts) result += integerPart.value;
      integerWritten = true;
    } else if (part.type === 'fraction') {
      result += localDigits(fractionDigits, formatter.digits);
    } else {
      result += part.value;
    }
  }
  return result;
}

/** Forgets cached formatters (for tests that count constructions, or after changing ICU data). */
export function clearFormatterCache(): void {
  formatters.clear();
}
