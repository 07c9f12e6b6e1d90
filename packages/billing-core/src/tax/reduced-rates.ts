/**
 * @module
 * Reduced VAT rates by product tax category (ADR 1436). The rates dataset (ADR 1430) holds one
 * standard rate per country; this table holds, per category and country, the dated rates that
 * replace it. Only `ebooks` is covered, and only for the countries listed: every other
 * category and country keeps the standard rate (ADR 1436 says which and why).
 *
 * Instants are the local midnight the change took effect, written in UTC as the rates dataset
 * writes its own. Rates are decimal fractions as text, never floats.
 */
import type { TaxCategory } from '../catalogue/entities.js';

export interface ReducedRatePeriod {
  /** The rate applies from this instant (RFC 3339) until the next period's. */
  readonly from: string;
  /** A decimal fraction as text, `"0.07"` for 7%. */
  readonly rate: string;
}

export interface ReducedRateEntry {
  /** Oldest first. Before the first period the standard rate applies. */
  readonly periods: readonly ReducedRatePeriod[];
  /** Where the rate and its dates come from. */
  readonly source: string;
}

export interface ReducedRateTable {
  /** When the table was last checked against its sources, YYYY-MM-DD. */
  readonly checked: string;
  readonly categories: Readonly<Partial<Record<TaxCategory, Readonly<Record<string, ReducedRateEntry>>>>>;
}

const OVERVIEW_2020 = 'Avalara VATLive, "2018 EU harmonised e-publications VAT rates" (4 March 2020)';

export const REDUCED_RATES: ReducedRateTable = {
  checked: '2026-11-27',
  categories: {
    ebooks: {
      AT: {
        periods: [
          { from: '2019-12-31T23:00:00Z', rate: '0.1' },
          { from: '2020-06-30T22:00:00Z', rate: '0.05' },
          { from: '2021-12-31T23:00:00Z', rate: '0.1' },
        ],
        source: `UStG 1994 § 10 Abs. 2 (10% from 1 January 2020; ${OVERVIEW_2020}); § 28 Abs. 52 (5% for publications, 1 July 2020 to 31 December 2021)`,
      },
      BE: {
        periods: [{ from: '2019-03-31T22:00:00Z', rate: '0.06' }],
        source: `Royal Decree No. 20, table A (6% from 1 April 2019; ${OVERVIEW_2020})`,
      },
      DE: {
        periods: [
          { from: '2019-12-17T23:00:00Z', rate: '0.07' },
          { from: '2020-06-30T22:00:00Z', rate: '0.05' },
          { from: '2020-12-31T22:00:00Z', rate: '0.07' },
        ],
        source: `UStG § 12 Abs. 2 Nr. 14 (Jahressteuergesetz 2019, 7% from 18 December 2019; ${OVERVIEW_2020}); § 28 Abs. 1 (5%, 1 July to 31 December 2020)`,
      },
      ES: {
        periods: [{ from: '2020-04-22T22:00:00Z', rate: '0.04' }],
        source: 'Ley 37/1992 art. 91.Dos.1.2º as amended by Real Decreto-ley 15/2020 (4% from 23 April 2020)',
      },
      FR: {
        periods: [{ from: '2012-12-31T23:00:00Z', rate: '0.055' }],
        source:
          'Code général des impôts art. 278-0 bis A (5.5% for books in any form; the rate since 1 January 2013, the earlier 2012 rates are not kept)',
      },
      GB: {
        periods: [{ from: '2020-04-30T23:00:00Z', rate: '0' }],
        source:
          'The Value Added Tax (Zero Rating for Electronic Publications) Order 2020, SI 2020/459 (0% from 1 May 2020)',
      },
      HR: {
        periods: [{ from: '2018-12-31T23:00:00Z', rate: '0.05' }],
        source: `Zakon o porezu na dodanu vrijednost čl. 38 (5% from 1 January 2019; ${OVERVIEW_2020})`,
      },
      IE: {
        periods: [
          { from: '2019-01-01T00:00:00Z', rate: '0.09' },
          { from: '2023-01-01T00:00:00Z', rate: '0' },
        ],
        source: `VAT Consolidation Act 2010 (9% from 1 January 2019, ${OVERVIEW_2020}; 0% from 1 January 2023, Finance Act 2022)`,
      },
      IT: {
        periods: [{ from: '2014-12-31T23:00:00Z', rate: '0.04' }],
        source:
          'DPR 633/1972, table A part II no. 18, as amended by Legge 190/2014 art. 1 c. 667 (4% from 1 January 2015)',
      },
      NL: {
        periods: [{ from: '2019-12-31T23:00:00Z', rate: '0.09' }],
        source: `Wet op de omzetbelasting 1968, table I item a.7 (9% from 1 January 2020; ${OVERVIEW_2020})`,
      },
      SE: {
        periods: [{ from: '2019-06-30T22:00:00Z', rate: '0.06' }],
        source: `Mervärdesskattelagen (6% for electronic publications from 1 July 2019; ${OVERVIEW_2020})`,
      },
    },
  },
};

/**
 * The reduced rate that replaces the standard rate for `category` in `countryCode` at `at`,
 * or null when the standard rate applies (no entry, or before its first period).
 */
export function reducedRateFor(
  table: ReducedRateTable,
  category: TaxCategory | null | undefined,
  countryCode: string | null,
  at: string,
): string | null {
  if (!category || countryCode === null) return null;
  const entry = table.categories[category]?.[countryCode];
  if (!entry) return null;
  const instant = Date.parse(at);
  let rate: string | null = null;
  for (const period of entry.periods) {
    if (Date.parse(period.from) <= instant) rate = period.rate;
  }
  return rate;
}
