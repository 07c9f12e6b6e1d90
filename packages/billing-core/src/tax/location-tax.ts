/**
 * @module
 * Tax by location (ADR 1430): the customer's country, and where rates vary within it the
 * region (a US state, a Canadian province, Spain's Canary Islands, Ceuta and Melilla), pick
 * the rate from a dated rates dataset at the transaction's instant. Whether the price
 * includes that tax follows the country's convention (tax-exclusive in the United States and
 * Canada, inclusive everywhere else). A business with a well-formed EU VAT id of its own
 * country, buying from a seller in another country, is reverse charged: no VAT.
 * Pure: no I/O, no clock (the instant is an argument), no floats.
 */
import type { TaxCategory } from '../catalogue/entities.js';
import { Decimal } from '../money/decimal.js';
import { type ReducedRateTable, reducedRateFor } from './reduced-rates.js';
import { normalizeVatId, vatCountryOf } from './vat-id.js';

/** Prices inclusive of tax (`internal`) or exclusive of it (`external`). */
export type TaxInclusion = 'internal' | 'external';

export interface DatasetRate {
  /** The dataset's name for the tax: `vat`, `gst`, `hst`, `pst`, `qst`, `igic` or `none`. */
  readonly kind: string;
  /** A decimal fraction as text, `"0.2"` for 20%; a region's may be negative. */
  readonly rate: string;
}

export interface DatasetPeriod extends DatasetRate {
  /** The rate was in force before this instant (RFC 3339). */
  readonly until: string;
}

export interface DatasetEntry extends DatasetRate {
  /** Earlier rates, each in force until its instant; the entry's own rate applies after the last. */
  readonly before: readonly DatasetPeriod[];
  /** Regional rates, added to the country's. */
  readonly regions?: Readonly<Record<string, DatasetEntry>> | undefined;
}

export interface TaxRateDataset {
  readonly source: string;
  readonly version: string;
  /** The dataset's publication date, YYYY-MM-DD. */
  readonly published: string;
  /** ISO 3166-1 alpha-2 codes of the EU member states. */
  readonly euCountries: readonly string[];
  readonly countries: Readonly<Record<string, DatasetEntry>>;
}

/** Where the tax is owed, as far as a transaction knows it. */
export interface TaxLocation {
  readonly countryCode: string | null;
  readonly region?: string | null | undefined;
  readonly postalCode?: string | null | undefined;
  /** The buying business's tax id, for the reverse charge. */
  readonly taxIdentifier?: string | null | undefined;
  /**
   * What the tax authority's register said of `taxIdentifier` (ADR 1437), checked before the
   * transaction was built. Absent: not checked (verification off), the format check decides.
   */
  readonly taxIdCheck?: TaxIdCheckOutcome | null | undefined;
}

/** A register's verdict on a tax id, as the tax resolver uses it (ADR 1437). */
export interface TaxIdCheckOutcome {
  /** The id checked, normalized; the verdict applies only to that id. */
  readonly taxIdentifier: string;
  /** `unverified`: the register could not be asked (down, timeout, or an id it does not cover). */
  readonly status: 'valid' | 'invalid' | 'unverified';
  /** Whether an unverified id is still reverse charged on its format (the configured fallback). */
  readonly reverseChargeWhenUnverified: boolean;
}

export interface LocationTax {
  readonly rate: Decimal;
  /** Inclusive (`internal`) or exclusive (`external`) by the country's convention. */
  readonly mode: TaxInclusion;
  /** The region whose rate was added, such as `US-CA`; null when the country's rate alone applies. */
  readonly subdivision: string | null;
  readonly reverseCharge: boolean;
}

/**
 * A rate the account sets for part of a country (ADR 1467): it replaces the dataset's rate
 * (country plus region, or a reduced rate) for addresses it matches, for US local sales tax,
 * a state that exempts a category, or any rate the dataset lacks.
 */
export interface LocationRateOverride {
  /** ISO 3166-1 alpha-2. */
  readonly countryCode: string;
  /** The region code `subdivisionOf` gives (`CA`, `TX`, `QC`), or null for the whole country. */
  readonly region: string | null;
  /** A prefix of the postal code with spaces and hyphens removed (`94105`, `SW1A`), or null. */
  readonly postalCodePrefix: string | null;
  /** Only products of this tax category, or null for all. */
  readonly taxCategory: TaxCategory | null;
  /** A decimal fraction from 0 to 1, as every rate. */
  readonly rate: string;
}

/** The postal code as overrides compare it: upper case, without spaces or hyphens. */
export function normalizedPostalCode(postalCode: string | null | undefined): string {
  return (postalCode ?? '').toUpperCase().replace(/[\s-]/g, '');
}

/**
 * The override that applies to an address and category: among the matching ones, one naming
 * the category beats one for every category (taxability first: a state exempting SaaS exempts
 * it in every ZIP code); then the longest postal prefix; then one naming a region. Undefined
 * when none matches.
 */
export function overrideFor(
  overrides: readonly LocationRateOverride[],
  location: TaxLocation,
  region: string | null,
  category: TaxCategory | null | undefined,
): LocationRateOverride | undefined {
  if (overrides.length === 0 || location.countryCode === null) return undefined;
  const postal = normalizedPostalCode(location.postalCode);
  let best: LocationRateOverride | undefined;
  let bestScore = -1;
  for (const entry of overrides) {
    if (entry.countryCode !== location.countryCode) continue;
    if (entry.region !== null && entry.region !== region) continue;
    if (entry.postalCodePrefix !== null && !postal.startsWith(entry.postalCodePrefix)) continue;
    if (entry.taxCategory !== null && entry.taxCategory !== category) continue;
    // Taxability comes first (a category's rule beats a rule for every category), then the place.
    const score =
      (entry.taxCategory === null ? 0 : 100) +
      (entry.postalCodePrefix?.length ?? 0) * 2 +
      (entry.region === null ? 0 : 1);
    if (score > bestScore) {
      best = entry;
      bestScore = score;
    }
  }
  return best;
}

/** Countries where consumer prices are shown before tax and tax is added at checkout. */
const TAX_EXCLUSIVE_COUNTRIES: ReadonlySet<string> = new Set(['US', 'CA']);

export function conventionalTaxMode(countryCode: string | null): TaxInclusion {
  return countryCode === null || TAX_EXCLUSIVE_COUNTRIES.has(countryCode) ? 'external' : 'internal';
}

/** The entry's rate in force at `at`: the first earlier period not yet over, else the current rate. */
export function rateInForce(entry: DatasetEntry, at: string): DatasetRate {
  const instant = Date.parse(at);
  const period = entry.before.find((candidate) => instant < Date.parse(candidate.until));
  return period ?? entry;
}

const US_STATES: Readonly<Record<string, string>> = {
  ALABAMA: 'AL',
  ALASKA: 'AK',
  ARIZONA: 'AZ',
  ARKANSAS: 'AR',
  CALIFORNIA: 'CA',
  COLORADO: 'CO',
  CONNECTICUT: 'CT',
  DELAWARE: 'DE',
  'DISTRICT OF COLUMBIA': 'DC',
  FLORIDA: 'FL',
  GEORGIA: 'GA',
  HAWAII: 'HI',
  IDAHO: 'ID',
  ILLINOIS: 'IL',
  INDIANA: 'IN',
  IOWA: 'IA',
  KANSAS: 'KS',
  KENTUCKY: 'KY',
  LOUISIANA: 'LA',
  MAINE: 'ME',
  MARYLAND: 'MD',
  MASSACHUSETTS: 'MA',
  MICHIGAN: 'MI',
  MINNESOTA: 'MN',
  MISSISSIPPI: 'MS',
  MISSOURI: 'MO',
  MONTANA: 'MT',
  NEBRASKA: 'NE',
  NEVADA: 'NV',
  'NEW HAMPSHIRE': 'NH',
  'NEW JERSEY': 'NJ',
  'NEW MEXICO': 'NM',
  'NEW YORK': 'NY',
  'NORTH CAROLINA': 'NC',
  'NORTH DAKOTA': 'ND',
  OHIO: 'OH',
  OKLAHOMA: 'OK',
  OREGON: 'OR',
  PENNSYLVANIA: 'PA',
  'RHODE ISLAND': 'RI',
  'SOUTH CAROLINA': 'SC',
  'SOUTH DAKOTA': 'SD',
  TENNESSEE: 'TN',
  TEXAS: 'TX',
  UTAH: 'UT',
  VERMONT: 'VT',
  VIRGINIA: 'VA',
  WASHINGTON: 'WA',
  'WEST VIRGINIA': 'WV',
  WISCONSIN: 'WI',
  WYOMING: 'WY',
};

const CA_PROVINCES: Readonly<Record<string, string>> = {
  ALBERTA: 'AB',
  'BRITISH COLUMBIA': 'BC',
  MANITOBA: 'MB',
  'NEW BRUNSWICK': 'NB',
  'NEWFOUNDLAND AND LABRADOR': 'NL',
  'NORTHWEST TERRITORIES': 'NT',
  'NOVA SCOTIA': 'NS',
  NUNAVUT: 'NU',
  ONTARIO: 'ON',
  'PRINCE EDWARD ISLAND': 'PE',
  QUEBEC: 'QC',
  QUÉBEC: 'QC',
  SASKATCHEWAN: 'SK',
  YUKON: 'YT',
};

/**
 * US ZIP code prefixes (first three digits) by state, as ranges `[first, last, state]`. ZIP
 * areas follow USPS sectional centers, which stay within one state; a region on the address
 * wins over this table.
 */
const US_ZIP_PREFIXES: readonly (readonly [number, number, string])[] = [
  [5, 5, 'NY'],
  [10, 27, 'MA'],
  [28, 29, 'RI'],
  [30, 38, 'NH'],
  [39, 49, 'ME'],
  [50, 54, 'VT'],
  [55, 55, 'MA'],
  [56, 59, 'VT'],
  [60, 69, 'CT'],
  [70, 89, 'NJ'],
  [100, 149, 'NY'],
  [150, 196, 'PA'],
  [197, 199, 'DE'],
  [200, 200, 'DC'],
  [201, 201, 'VA'],
  [202, 205, 'DC'],
  [206, 219, 'MD'],
  [220, 246, 'VA'],
  [247, 268, 'WV'],
  [270, 289, 'NC'],
  [290, 299, 'SC'],
  [300, 319, 'GA'],
  [320, 339, 'FL'],
  [341, 349, 'FL'],
  [350, 369, 'AL'],
  [370, 385, 'TN'],
  [386, 397, 'MS'],
  [398, 399, 'GA'],
  [400, 427, 'KY'],
  [430, 459, 'OH'],
  [460, 479, 'IN'],
  [480, 499, 'MI'],
  [500, 528, 'IA'],
  [530, 549, 'WI'],
  [550, 567, 'MN'],
  [569, 569, 'DC'],
  [570, 577, 'SD'],
  [580, 588, 'ND'],
  [590, 599, 'MT'],
  [600, 629, 'IL'],
  [630, 658, 'MO'],
  [660, 679, 'KS'],
  [680, 693, 'NE'],
  [700, 715, 'LA'],
  [716, 729, 'AR'],
  [730, 732, 'OK'],
  [733, 733, 'TX'],
  [734, 749, 'OK'],
  [750, 799, 'TX'],
  [800, 816, 'CO'],
  [820, 831, 'WY'],
  [832, 838, 'ID'],
  [840, 847, 'UT'],
  [850, 865, 'AZ'],
  [870, 884, 'NM'],
  [885, 885, 'TX'],
  [889, 898, 'NV'],
  [900, 961, 'CA'],
  [967, 968, 'HI'],
  [970, 979, 'OR'],
  [980, 994, 'WA'],
  [995, 999, 'AK'],
];

/** Canadian postal codes' first letter names the province. */
const CA_POSTAL_LETTERS: Readonly<Record<string, string>> = {
  A: 'NL',
  B: 'NS',
  C: 'PE',
  E: 'NB',
  G: 'QC',
  H: 'QC',
  J: 'QC',
  K: 'ON',
  L: 'ON',
  M: 'ON',
  N: 'ON',
  P: 'ON',
  R: 'MB',
  S: 'SK',
  T: 'AB',
  V: 'BC',
  Y: 'YT',
};

/** Spanish postal code provinces outside the VAT area: Las Palmas, Santa Cruz de Tenerife, Ceuta, Melilla. */
const ES_POSTAL_PROVINCES: Readonly<Record<string, string>> = { '35': 'GC', '38': 'TF', '51': 'CE', '52': 'ML' };

function byName(table: Readonly<Record<string, string>>, region: string): string | undefined {
  const text = region.trim().toUpperCase();
  if (Object.values(table).includes(text)) return text;
  return table[text];
}

/**
 * The region code of an address where the dataset has regional rates: from `region` (a code
 * such as `CA` or a name such as `California`), else from the postal code. Null when neither
 * names one.
 */
export function subdivisionOf(location: TaxLocation): string | null {
  const { countryCode } = location;
  const region = location.region?.trim() ?? '';
  const postal = (location.postalCode ?? '').trim().toUpperCase();
  if (countryCode === 'US') {
    const named = region === '' ? undefined : byName(US_STATES, region.replace(/^US-/i, ''));
    if (named) return named;
    const zip = /^(\d{5})(-\d{4})?$/.exec(postal);
    if (!zip) return null;
    const prefix = Number(zip[1]?.slice(0, 3));
    return US_ZIP_PREFIXES.find(([first, last]) => prefix >= first && prefix <= last)?.[2] ?? null;
  }
  if (countryCode === 'CA') {
    const named = region === '' ? undefined : byName(CA_PROVINCES, region.replace(/^CA-/i, ''));
    if (named) return named;
    return /^[A-Z]\d[A-Z] ?\d[A-Z]\d$/.test(postal) ? (CA_POSTAL_LETTERS[postal[0] ?? ''] ?? null) : null;
  }
  if (countryCode === 'ES') {
    return /^\d{5}$/.test(postal) ? (ES_POSTAL_PROVINCES[postal.slice(0, 2)] ?? null) : null;
  }
  return null;
}

/**
 * A business is reverse charged when it buys in an EU country, its tax id is a well-formed
 * VAT id of that same country, and the seller is not established there (a seller without a
 * country is treated as established outside every EU country).
 */
export function isReverseCharge(
  dataset: TaxRateDataset,
  buyerCountry: string | null,
  taxIdentifier: string | null | undefined,
  sellerCountry: string | null,
  check?: TaxIdCheckOutcome | null,
): boolean {
  if (buyerCountry === null || !taxIdentifier || !dataset.euCountries.includes(buyerCountry)) return false;
  if (sellerCountry === buyerCountry) return false;
  const id = normalizeVatId(taxIdentifier);
  if (vatCountryOf(id, buyerCountry) !== buyerCountry) return false;
  return taxIdCheckAllows(check, id);
}

/**
 * Whether a register check lets a well-formed id be reverse charged: no check (verification
 * off) or a check of another id leaves the format verdict; `invalid` refuses; `unverified`
 * follows the configured fallback (ADR 1437).
 */
export function taxIdCheckAllows(check: TaxIdCheckOutcome | null | undefined, normalizedId: string): boolean {
  if (!check || normalizeVatId(check.taxIdentifier) !== normalizedId) return true;
  if (check.status === 'valid') return true;
  if (check.status === 'invalid') return false;
  return check.reverseChargeWhenUnverified;
}

/**
 * The location's tax at `at` for a product of `category`: the account's override for the
 * address where one matches (ADR 1467); else the country's rate plus its region's, never below
 * zero; where the country taxes the category at a reduced rate (ADR 1436) and no region's rate
 * applies, that rate instead.
 */
export function locationTax(
  dataset: TaxRateDataset,
  location: TaxLocation,
  at: string,
  sellerCountry: string | null,
  category: TaxCategory | null,
  overrides: readonly LocationRateOverride[],
  reduced: ReducedRateTable,
): LocationTax {
  const { countryCode } = location;
  const mode = conventionalTaxMode(countryCode);
  const country = countryCode === null ? undefined : dataset.countries[countryCode];
  if (!country) return { rate: Decimal.zero, mode, subdivision: null, reverseCharge: false };
  if (isReverseCharge(dataset, countryCode, location.taxIdentifier, sellerCountry, location.taxIdCheck)) {
    return { rate: Decimal.zero, mode, subdivision: null, reverseCharge: true };
  }
  const code = subdivisionOf(location);
  const override = overrideFor(overrides, location, code, category);
  if (override) {
    return {
      rate: Decimal.parse(override.rate),
      mode,
      subdivision: code === null ? null : `${countryCode}-${code}`,
      reverseCharge: false,
    };
  }
  const region = code === null ? undefined : country.regions?.[code];
  const reducedRate = region ? null : reducedRateFor(reduced, category, countryCode, at);
  if (reducedRate !== null) return { rate: Decimal.parse(reducedRate), mode, subdivision: null, reverseCharge: false };
  let rate = Decimal.parse(rateInForce(country, at).rate);
  if (region) rate = rate.add(Decimal.parse(rateInForce(region, at).rate));
  if (rate.isNegative()) rate = Decimal.zero;
  return {
    rate,
    mode,
    subdivision: region ? `${countryCode}-${code}` : null,
    reverseCharge: false,
  };
}
