/**
 * @module
 * The checkout's country select and the address fields a country needs (ADR 1433). The countries
 * and their names are the address forms' one list (`@drawdown/http-kit` `countries.ts`, shared
 * with the portal's billing details): ISO 3166-1 alpha-2's 249 officially assigned codes and XK
 * for Kosovo, named by `Intl.DisplayNames` in the page's language (a test checks every one has a
 * name in every page language). A country whose tax the dataset splits by
 * region (the United States, Canada, Spain) needs the state, province or postal code, since
 * the tax follows them; elsewhere both fields are optional.
 */
import { TAX_RATE_DATASET } from '@drawdown/billing-core';
import { COUNTRY_CODES, countryOptions } from '@drawdown/http-kit';

/** The codes the checkout offers: the address forms' one list (`@drawdown/http-kit`). */
export const CHECKOUT_COUNTRY_CODES: readonly string[] = COUNTRY_CODES;

const CODES = new Set(CHECKOUT_COUNTRY_CODES);

export function isCountryCode(code: string): boolean {
  return CODES.has(code);
}

export { countryOptions };

/** A country's name in `locale`. */
export function countryName(code: string, locale: string): string {
  return new Intl.DisplayNames([locale], { type: 'region', fallback: 'code' }).of(code) ?? code;
}

/** How a country names its address's region and postal code fields on the page. */
export type RegionKind = 'state' | 'province' | 'region';
export type PostalKind = 'zip' | 'postal';

export interface AddressNeeds {
  /** The tax follows the region or postal code: one of them is required. */
  readonly regionOrPostalRequired: boolean;
  readonly regionKind: RegionKind;
  readonly postalKind: PostalKind;
}

const REGIONAL_TAX = new Set(
  Object.entries(TAX_RATE_DATASET.countries)
    .filter(([, entry]) => entry.regions !== undefined && Object.keys(entry.regions).length > 0)
    .map(([code]) => code),
);

const REGION_KINDS: Readonly<Record<string, RegionKind>> = { US: 'state', AU: 'state', CA: 'province', ES: 'province' };

/** What the address of `countryCode` needs (null: no country chosen yet, every field optional). */
export function addressNeeds(countryCode: string | null | undefined): AddressNeeds {
  const code = (countryCode ?? '').toUpperCase();
  return {
    regionOrPostalRequired: REGIONAL_TAX.has(code),
    regionKind: REGION_KINDS[code] ?? 'region',
    postalKind: code === 'US' ? 'zip' : 'postal',
  };
}

/** The countries whose tax needs a region or postal code, for the page's hint and tests. */
export function regionalTaxCountries(): readonly string[] {
  return [...REGIONAL_TAX].sort();
}
