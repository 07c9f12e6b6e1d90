/**
 * @module
 * Tax configuration of one account environment (ADR 0403, ADR 1430): the mode that prices with
 * `tax_mode: account_setting` use (`internal`, `external` or `location`), where the rates of
 * inclusive and exclusive prices come from (the account's own `default_rate` and
 * `country_rates`, or the location dataset), and the seller's country for the EU reverse charge.
 * Changing the settings affects transactions computed afterwards; stored totals never change.
 */

import { TAX_CATEGORIES, type TaxCategory } from '../catalogue/entities.js';
import { Decimal } from '../money/decimal.js';
import { BillingError } from '../shared/billing-error.js';
import { type Context, nowTimestamp } from '../shared/context.js';
import type { LocationRateOverride } from '../tax/location-tax.js';
import { TAX_RATE_DATASET } from '../tax/tax-rate-dataset.js';
import type { CountryTaxRate, DefaultTaxMode, TaxRateSource, TaxSettings } from './entities.js';
import type { TransactionSlice } from './repositories.js';

/** The fields settings stored before ADR 1430 lack take these values. */
export const DEFAULT_TAX_SETTINGS: TaxSettings = {
  defaultTaxMode: 'external',
  rateSource: 'account',
  sellerCountryCode: null,
  defaultRate: '0',
  countryRates: [],
  locationOverrides: [],
  updatedAt: null,
};

export const TAX_RATE_PATTERN = /^(0(\.\d{1,6})?|1(\.0{1,6})?)$/;
const COUNTRY_CODE = /^[A-Z]{2}$/;
export const MAX_COUNTRY_RATES = 250;
/** Enough for every ZIP code of several states; each transaction scans them once per category. */
export const MAX_LOCATION_OVERRIDES = 5_000;
const REGION_CODE = /^[A-Z0-9]{1,3}$/;
const POSTAL_PREFIX = /^[A-Z0-9]{1,10}$/;

export interface UpdateTaxSettingsInput {
  readonly defaultTaxMode?: DefaultTaxMode | undefined;
  readonly rateSource?: TaxRateSource | undefined;
  readonly sellerCountryCode?: string | null | undefined;
  readonly defaultRate?: string | undefined;
  /** Replaces the whole list when sent. */
  readonly countryRates?: readonly CountryTaxRate[] | undefined;
  /** Replaces the whole list when sent. */
  readonly locationOverrides?: readonly LocationOverrideInput[] | undefined;
}

export interface LocationOverrideInput {
  readonly countryCode: string;
  readonly region?: string | null | undefined;
  readonly postalCodePrefix?: string | null | undefined;
  readonly taxCategory?: string | null | undefined;
  readonly rate: string;
}

/** Checks the overrides one by one (each refusal names its entry) and sorts them for display. */
function requireLocationOverrides(input: readonly LocationOverrideInput[]): LocationRateOverride[] {
  if (input.length > MAX_LOCATION_OVERRIDES) {
    throw BillingError.invalidField('location_overrides', `must hold at most ${MAX_LOCATION_OVERRIDES} entries`);
  }
  const seen = new Set<string>();
  const overrides: LocationRateOverride[] = [];
  for (const [index, entry] of input.entries()) {
    const field = (name: string) => `location_overrides[${index}].${name}`;
    if (!COUNTRY_CODE.test(entry.countryCode)) {
      throw BillingError.invalidField(field('country_code'), 'must be an ISO 3166-1 alpha-2 code');
    }
    const region = entry.region ?? null;
    if (region !== null && !REGION_CODE.test(region)) {
      throw BillingError.invalidField(
        field('region'),
        'must be a region code of 1 to 3 capital letters or digits, such as CA or TX, or null',
      );
    }
    const postalCodePrefix = entry.postalCodePrefix ?? null;
    if (postalCodePrefix !== null && !POSTAL_PREFIX.test(postalCodePrefix)) {
      throw BillingError.invalidField(
        field('postal_code_prefix'),
        'must be 1 to 10 capital letters or digits (a postal code without spaces or hyphens, or its start), or null',
      );
    }
    const taxCategory = entry.taxCategory ?? null;
    if (taxCategory !== null && !(TAX_CATEGORIES as readonly string[]).includes(taxCategory)) {
      throw BillingError.invalidField(field('tax_category'), `must be one of ${TAX_CATEGORIES.join(', ')}, or null`);
    }
    const key = [entry.countryCode, region, postalCodePrefix, taxCategory].join('\u0000');
    if (seen.has(key)) {
      throw BillingError.invalidField(field('country_code'), 'the same place and category appear more than once');
    }
    seen.add(key);
    overrides.push({
      countryCode: entry.countryCode,
      region,
      postalCodePrefix,
      taxCategory: taxCategory as TaxCategory | null,
      rate: requireRate(field('rate'), entry.rate),
    });
  }
  const text = (value: string | null) => value ?? '';
  return overrides.sort(
    (left, right) =>
      left.countryCode.localeCompare(right.countryCode) ||
      text(left.region).localeCompare(text(right.region)) ||
      text(left.postalCodePrefix).localeCompare(text(right.postalCodePrefix)) ||
      text(left.taxCategory).localeCompare(text(right.taxCategory)),
  );
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

/**
 * Until an account environment records its own (ADR 1439): prices exclusive of tax, at the rate
 * of the buyer's location, as the public API computes tax for a new account. `updatedAt` null
 * tells readers nothing was chosen; a live charge waits for a choice (`requireLiveTaxChoice`).
 */
export const UNSET_TAX_SETTINGS: TaxSettings = { ...DEFAULT_TAX_SETTINGS, rateSource: 'location' };

/** Settings stored before ADR 1430 lack its fields: they take the defaults; none stored, the unset ones. */
export function withTaxDefaults(settings: Partial<TaxSettings> | undefined): TaxSettings {
  return settings === undefined ? UNSET_TAX_SETTINGS : { ...DEFAULT_TAX_SETTINGS, ...settings };
}

/**
 * A live charge needs tax settings the operator chose (ADR 1439): any change of the live
 * settings records a choice, an explicit "no tax" (`rate_source: account`, `default_rate: "0"`)
 * included. The sandbox computes with the unset settings and never asks.
 * @throws `tax_settings_not_chosen` in live until the settings were saved once.
 */
export async function requireLiveTaxChoice(
  context: Pick<Context<TransactionSlice>, 'scope'>,
  tx: Pick<TransactionSlice, 'billingSettings'>,
): Promise<void> {
  if (context.scope.environment !== 'live') return;
  if ((await tx.billingSettings.findTaxSettings(context.scope)) !== undefined) return;
  throw new BillingError(
    'tax_settings_not_chosen',
    'Live charges wait until the account chooses its live tax settings: PATCH /tax-settings with the live key (rate_source "location" to charge tax by the buyer\'s location, or rate_source "account" with default_rate "0" for no tax), or drawdown accounts tax-settings set --env live.',
  );
}

/** The dataset behind location tax, named and dated for the settings' readers. */
export const TAX_RATE_DATASET_NAME = `${TAX_RATE_DATASET.source}@${TAX_RATE_DATASET.version} (${TAX_RATE_DATASET.published})`;

export async function findTaxSettings(
  context: Pick<Context<TransactionSlice>, 'scope'>,
  tx: TransactionSlice,
): Promise<TaxSettings> {
  return withTaxDefaults(await tx.billingSettings.findTaxSettings(context.scope));
}

export async function getTaxSettings(context: Context<TransactionSlice>): Promise<TaxSettings> {
  return findTaxSettings(context, context.store);
}

export async function updateTaxSettings(
  context: Context<TransactionSlice>,
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
  const locationOverrides =
    input.locationOverrides === undefined ? undefined : requireLocationOverrides(input.locationOverrides);
  const sellerCountryCode = input.sellerCountryCode;
  if (sellerCountryCode !== undefined && sellerCountryCode !== null && !COUNTRY_CODE.test(sellerCountryCode)) {
    throw BillingError.invalidField('seller_country_code', 'must be an ISO 3166-1 alpha-2 code such as DE, or null');
  }
  return context.store.transaction(async (tx) => {
    const current = await findTaxSettings(context, tx);
    const next: TaxSettings = {
      defaultTaxMode: input.defaultTaxMode ?? current.defaultTaxMode,
      rateSource: input.rateSource ?? current.rateSource,
      sellerCountryCode: sellerCountryCode === undefined ? current.sellerCountryCode : sellerCountryCode,
      defaultRate: defaultRate ?? current.defaultRate,
      countryRates: countryRates ?? current.countryRates,
      locationOverrides: locationOverrides ?? current.locationOverrides,
      updatedAt: nowTimestamp(context),
    };
    await tx.billingSettings.saveTaxSettings(context.scope, next);
    return next;
  });
}
