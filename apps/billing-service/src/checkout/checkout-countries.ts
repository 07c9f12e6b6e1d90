/**
 * @module
 * The checkout's country select and the address fields a country needs (ADR 1433). Country
 * names come from `Intl.DisplayNames` in the page's language, sorted by that language's
 * collation. The codes are ISO 3166-1 alpha-2's 249 officially assigned ones and XK for Kosovo
 * (a test checks every one has a name in every page language). A country whose tax the dataset splits by
 * region (the United States, Canada, Spain) needs the state, province or postal code, since
 * the tax follows them; elsewhere both fields are optional.
 */
import { TAX_RATE_DATASET } from '@drawdown/billing-core';

export const CHECKOUT_COUNTRY_CODES: readonly string[] = [
  'AD',
  'AE',
  'AF',
  'AG',
  'AI',
  'AL',
  'AM',
  'AO',
  'AQ',
  'AR',
  'AS',
  'AT',
  'AU',
  'AW',
  'AX',
  'AZ',
  'BA',
  'BB',
  'BD',
  'BE',
  'BF',
  'BG',
  'BH',
  'BI',
  'BJ',
  'BL',
  'BM',
  'BN',
  'BO',
  'BQ',
  'BR',
  'BS',
  'BT',
  'BV',
  'BW',
  'BY',
  'BZ',
  'CA',
  'CC',
  'CD',
  'CF',
  'CG',
  'CH',
  'CI',
  'CK',
  'CL',
  'CM',
  'CN',
  'CO',
  'CR',
  'CU',
  'CV',
  'CW',
  'CX',
  'CY',
  'CZ',
  'DE',
  'DJ',
  'DK',
  'DM',
  'DO',
  'DZ',
  'EC',
  'EE',
  'EG',
  'EH',
  'ER',
  'ES',
  'ET',
  'FI',
  'FJ',
  'FK',
  'FM',
  'FO',
  'FR',
  'GA',
  'GB',
  'GD',
  'GE',
  'GF',
  'GG',
  'GH',
  'GI',
  'GL',
  'GM',
  'GN',
  'GP',
  'GQ',
  'GR',
  'GS',
  'GT',
  'GU',
  'GW',
  'GY',
  'HK',
  'HM',
  'HN',
  'HR',
  'HT',
  'HU',
  'ID',
  'IE',
  'IL',
  'IM',
  'IN',
  'IO',
  'IQ',
  'IR',
  'IS',
  'IT',
  'JE',
  'JM',
  'JO',
  'JP',
  'KE',
  'KG',
  'KH',
  'KI',
  'KM',
  'KN',
  'KP',
  'KR',
  'KW',
  'KY',
  'KZ',
  'LA',
  'LB',
  'LC',
  'LI',
  'LK',
  'LR',
  'LS',
  'LT',
  'LU',
  'LV',
  'LY',
  'MA',
  'MC',
  'MD',
  'ME',
  'MF',
  'MG',
  'MH',
  'MK',
  'ML',
  'MM',
  'MN',
  'MO',
  'MP',
  'MQ',
  'MR',
  'MS',
  'MT',
  'MU',
  'MV',
  'MW',
  'MX',
  'MY',
  'MZ',
  'NA',
  'NC',
  'NE',
  'NF',
  'NG',
  'NI',
  'NL',
  'NO',
  'NP',
  'NR',
  'NU',
  'NZ',
  'OM',
  'PA',
  'PE',
  'PF',
  'PG',
  'PH',
  'PK',
  'PL',
  'PM',
  'PN',
  'PR',
  'PS',
  'PT',
  'PW',
  'PY',
  'QA',
  'RE',
  'RO',
  'RS',
  'RU',
  'RW',
  'SA',
  'SB',
  'SC',
  'SD',
  'SE',
  'SG',
  'SH',
  'SI',
  'SJ',
  'SK',
  'SL',
  'SM',
  'SN',
  'SO',
  'SR',
  'SS',
  'ST',
  'SV',
  'SX',
  'SY',
  'SZ',
  'TC',
  'TD',
  'TF',
  'TG',
  'TH',
  'TJ',
  'TK',
  'TL',
  'TM',
  'TN',
  'TO',
  'TR',
  'TT',
  'TV',
  'TW',
  'TZ',
  'UA',
  'UG',
  'UM',
  'US',
  'UY',
  'UZ',
  'VA',
  'VC',
  'VE',
  'VG',
  'VI',
  'VN',
  'VU',
  'WF',
  'WS',
  // Kosovo: a user-assigned code, not one of ISO's 249, but the one the EU, SWIFT, CLDR and the
  // tax dataset use, and one the API's addresses accept; a buyer there must be able to pay.
  'XK',
  'YE',
  'YT',
  'ZA',
  'ZM',
  'ZW',
];

const CODES = new Set(CHECKOUT_COUNTRY_CODES);

export function isCountryCode(code: string): boolean {
  return CODES.has(code);
}

export interface CountryOption {
  readonly code: string;
  readonly name: string;
}

const optionsByLocale = new Map<string, readonly CountryOption[]>();

/** Every country with its name in `locale`, sorted as that locale sorts. */
export function countryOptions(locale: string): readonly CountryOption[] {
  const cached = optionsByLocale.get(locale);
  if (cached) return cached;
  const names = new Intl.DisplayNames([locale], { type: 'region', fallback: 'code' });
  const collator = new Intl.Collator(locale);
  const options = CHECKOUT_COUNTRY_CODES.map((code) => ({ code, name: names.of(code) ?? code })).sort((left, right) =>
    collator.compare(left.name, right.name),
  );
  optionsByLocale.set(locale, options);
  return options;
}

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
