/**
 * @module
 * The currencies Drawdown bills in: those the public billing API supports (33 codes), with
 * their ISO 4217 data (generated into `iso-4217.ts` from a maintained package). Minor units
 * come from ISO 4217, never from Intl: ICU says 0 for HUF where ISO 4217 says 2 (ADR 0402).
 */
import { ISO_4217 } from './iso-4217.js';

export type CurrencyCode = keyof typeof ISO_4217;

/** ISO 4217 minor units (decimal places) of every billed currency. */
export const CURRENCY_MINOR_UNITS: Readonly<Record<CurrencyCode, number>> = Object.fromEntries(
  Object.entries(ISO_4217).map(([code, entry]) => [code, entry.minorUnits]),
) as Record<CurrencyCode, number>;

/** Currencies a balance can be held (paid out) in, as the reference lists them. */
export const BALANCE_CURRENCIES: ReadonlySet<CurrencyCode> = new Set<CurrencyCode>([
  'AUD',
  'CAD',
  'CHF',
  'CNY',
  'CZK',
  'DKK',
  'EUR',
  'GBP',
  'HUF',
  'PLN',
  'SEK',
  'USD',
  'ZAR',
]);

export function isSupportedCurrency(code: string): code is CurrencyCode {
  return Object.hasOwn(ISO_4217, code);
}

/** The ISO 4217 minor units of a billed currency. */
export function minorUnitsOf(code: CurrencyCode): number {
  return ISO_4217[code].minorUnits;
}

/** One entry of `GET /currencies`. */
export interface CurrencyInfo {
  readonly code: CurrencyCode;
  readonly name: string;
  readonly decimalPlaces: number;
  readonly canBeBalance: boolean;
  /** ISO 3166-1 alpha-2 codes of the countries ISO 4217 lists for the currency. */
  readonly applicableCountries: readonly string[];
  /**
   * The smallest amount Drawdown bills, in the lowest unit. Drawdown records payments and
   * does not process them, so any positive amount is accepted: one lowest unit (ADR 0402).
   */
  readonly minimumPaymentAmount: string;
}

const CURRENCIES: readonly CurrencyInfo[] = (Object.keys(ISO_4217) as CurrencyCode[]).map((code) => ({
  code,
  name: ISO_4217[code].name,
  decimalPlaces: ISO_4217[code].minorUnits,
  canBeBalance: BALANCE_CURRENCIES.has(code),
  applicableCountries: ISO_4217[code].countries,
  minimumPaymentAmount: '1',
}));

/** Every billed currency, in code order. */
export function listCurrencies(): readonly CurrencyInfo[] {
  return CURRENCIES;
}
