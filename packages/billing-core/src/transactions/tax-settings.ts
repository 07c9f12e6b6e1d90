/**
 * @module
 * Tax configuration of one account environment (ADR 0403): the mode that prices with
 * `tax_mode: account_setting` use, a default rate, and rates by the billing address's country.
 * Changing the settings affects transactions computed afterwards; stored totals never change.
 */
import { Decimal } from '../money/decimal.js';
import { BillingError } from '../shared/billing-error.js';
import type { OperationContext } from '../shared/operation-context.js';
import { nowTimestamp } from '../shared/operation-context.js';
import type { ResolvedTaxMode } from './transaction.js';

export interface CountryTaxRate {
  /** ISO 3166-1 alpha-2. */
  readonly countryCode: string;
  readonly rate: string;
}

export interface TaxSettings {
  readonly defaultTaxMode: ResolvedTaxMode;
  /** A decimal fraction between 0 and 1 with at most 6 places: `"0.2"` is 20%. */
  readonly defaultRate: string;
  readonly countryRates: readonly CountryTaxRate[];
  readonly updatedAt: string | null;
}

/** Until an account sets its own: prices exclusive of tax, at a zero rate. */
export const DEFAULT_TAX_SETTINGS: TaxSettings = {
  defaultTaxMode: 'external',
  defaultRate: '0',
  countryRates: [],
  updatedAt: null,
};

export const TAX_RATE_PATTERN = /^(0(\.\d{1,6})?|1(\.0{1,6})?)$/;
const COUNTRY_CODE = /^[A-Z]{2}$/;
export const MAX_COUNTRY_RATES = 250;

export interface UpdateTaxSettingsInput {
  readonly defaultTaxMode?: ResolvedTaxMode | undefined;
  readonly defaultRate?: string | undefined;
  /** Replaces the whole list when sent. */
  readonly countryRates?: readonly CountryTaxRate[] | undefined;
}

/** Checks a rate and returns its canonical text (`"0.20"` is stored as `"0.2"`). */
function requireRate(field: string, rate: string): string {
  if (!TAX_RATE_PATTERN.test(rate)) {
    throw BillingError.invalidField(
      field,
      'must be a decimal fraction from 0 to 1 with at most 6 decimal places, such as "0.2"',
    );
  }
  return Decimal.parse(rate).toString();
}

/** The rate for a billing country: the country's own, else the default. */
export function taxRateFor(settings: TaxSettings, countryCode: string | null): Decimal {
  const own =
    countryCode === null ? undefined : settings.countryRates.find((entry) => entry.countryCode === countryCode);
  return Decimal.parse(own?.rate ?? settings.defaultRate);
}

export async function getTaxSettings(context: OperationContext): Promise<TaxSettings> {
  return (await context.store.billingSettings.findTaxSettings(context.scope)) ?? DEFAULT_TAX_SETTINGS;
}

export async function updateTaxSettings(
  context: OperationContext,
  input: UpdateTaxSettingsInput,
): Promise<TaxSettings> {
  const defaultRate = input.defaultRate === undefined ? undefined : requireRate('default_rate', input.defaultRate);
  let countryRates: CountryTaxRate[] | undefined;
  if (input.countryRates !== undefined) {
    countryRates = [];
    if (input.countryRates.length > MAX_COUNTRY_RATES) {
      throw BillingError.invalidField('country_rates', `must hold at most ${MAX_COUNTRY_RATES} entries`);
    }
    const seen = new Set<string>();
    for (const [index, entry] of input.countryRates.entries()) {
      if (!COUNTRY_CODE.test(entry.countryCode)) {
        throw BillingError.invalidField(`country_rates[${index}].country_code`, 'must be an ISO 3166-1 alpha-2 code');
      }
      if (seen.has(entry.countryCode)) {
        throw BillingError.invalidField(`country_rates[${index}].country_code`, 'appears more than once');
      }
      seen.add(entry.countryCode);
      countryRates.push({
        countryCode: entry.countryCode,
        rate: requireRate(`country_rates[${index}].rate`, entry.rate),
      });
    }
    countryRates.sort((left, right) => left.countryCode.localeCompare(right.countryCode));
  }
  return context.store.transaction(async (tx) => {
    const current = (await tx.billingSettings.findTaxSettings(context.scope)) ?? DEFAULT_TAX_SETTINGS;
    const next: TaxSettings = {
      defaultTaxMode: input.defaultTaxMode ?? current.defaultTaxMode,
      defaultRate: defaultRate ?? current.defaultRate,
      countryRates: countryRates ?? current.countryRates,
      updatedAt: nowTimestamp(context),
    };
    await tx.billingSettings.saveTaxSettings(context.scope, next);
    return next;
  });
}
