/**
 * @module
 * The currencies Drawdown bills in: those the public billing API supports (33 codes). Minor
 * units come from ISO 4217, not from Intl: ICU says 0 for HUF where ISO 4217 says 2.
 */

export const CURRENCY_MINOR_UNITS = {
  ARS: 2,
  AUD: 2,
  BRL: 2,
  CAD: 2,
  CHF: 2,
  CLP: 0,
  CNY: 2,
  COP: 2,
  CZK: 2,
  DKK: 2,
  EUR: 2,
  GBP: 2,
  HKD: 2,
  HUF: 2,
  ILS: 2,
  INR: 2,
  JPY: 0,
  KRW: 0,
  MXN: 2,
  NOK: 2,
  NZD: 2,
  PEN: 2,
  PLN: 2,
  RUB: 2,
  SEK: 2,
  SGD: 2,
  THB: 2,
  TRY: 2,
  TWD: 2,
  UAH: 2,
  USD: 2,
  VND: 0,
  ZAR: 2,
} as const satisfies Record<string, number>;

export type CurrencyCode = keyof typeof CURRENCY_MINOR_UNITS;

export function isSupportedCurrency(code: string): code is CurrencyCode {
  return Object.hasOwn(CURRENCY_MINOR_UNITS, code);
}
