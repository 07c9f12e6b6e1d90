/**
 * Properties of location tax over the whole dataset: for any country it lists (or none), any
 * region or postal code, any instant from 2015 to 2035 and any seller, the rate is an exact
 * decimal from 0 to 1, the one in force then (country plus region), a reverse charge is always
 * 0, and only a tax-exclusive country (US, CA) prices exclusive of tax. A third of the buyers are EU
 * businesses with their country's VAT id, so the reverse charge is exercised, and the runs that
 * reached each verdict are counted: each branch must have been compared.
 */
import { fc } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../money/decimal.js';
import { locationTax, rateInForce } from './location-tax.js';
import { REDUCED_RATES } from './reduced-rates.js';
import { TAX_RATE_DATASET } from './tax-rate-dataset.js';
import { VAT_PATTERNS, vatPrefixOf } from './vat-id.js';

const countries = Object.keys(TAX_RATE_DATASET.countries);
const aCountry = fc.oneof(fc.constantFrom(...countries), fc.constantFrom('HK', 'ZZ'), fc.constant(null));
const anInstant = fc
  .integer({ min: Date.parse('2015-01-01T00:00:00Z'), max: Date.parse('2035-01-01T00:00:00Z') })
  .map((ms) => new Date(ms).toISOString());
const aRegion = fc.oneof(
  fc.constant(null),
  fc.constantFrom('CA', 'California', 'NY', 'Quebec', 'ON', 'BC', 'OR', 'Texas'),
  fc.string({ maxLength: 12 }),
);
const aPostalCode = fc.oneof(
  fc.constant(null),
  fc.integer({ min: 0, max: 99_999 }).map((zip) => String(zip).padStart(5, '0')),
  fc.constantFrom('M5V 3L9', 'H2X 1Y4', 'V6B 1A1', 'SW1A 1AA', '35001', '51001'),
  fc.string({ maxLength: 10 }),
);
const aTaxIdentifier = fc.oneof(
  fc.constant(null),
  fc.constantFrom('FR40303265045', 'DE123456789', 'EL123456789', 'ATU12345678', 'NL123456789B01', '123456789'),
  fc.string({ maxLength: 16 }),
);
const aSeller = fc.oneof(fc.constant(null), fc.constantFrom('DE', 'FR', 'GB', 'US', 'IE'));

/** Anywhere, with any tax id: reverse charged only by chance. */
const anyBuyer = fc.record({
  countryCode: aCountry,
  region: aRegion,
  postalCode: aPostalCode,
  taxIdentifier: aTaxIdentifier,
  ownPrefix: fc.constant(false),
});
/**
 * A business in an EU country with a VAT id of that country's shape, with its country's prefix or
 * without (a bare national number may read as another country's prefixed id): the reverse charge's
 * own cases, which independent draws of country and id almost never make.
 */
const anEuBusiness = fc.constantFrom(...TAX_RATE_DATASET.euCountries).chain((country) => {
  const prefix = vatPrefixOf(country);
  const national = VAT_PATTERNS[prefix];
  if (!national) throw new Error(`no VAT id format for ${country}`);
  return fc
    .record({
      countryCode: fc.constant<string | null>(country),
      region: aRegion,
      postalCode: aPostalCode,
      ownPrefix: fc.boolean(),
      number: fc.stringMatching(national),
    })
    .map(({ ownPrefix, number, ...rest }) => ({
      ...rest,
      ownPrefix,
      taxIdentifier: ownPrefix ? `${prefix}${number}` : number,
    }));
});

describe('location tax over the dataset (ADR 1430)', () => {
  it('is an exact rate from 0 to 1, the dataset’s in force, or 0 when reverse charged', () => {
    // The runs that reached each verdict: a branch no run reaches proves nothing.
    const runs = { reverseCharged: 0, untaxedPlace: 0, compared: 0 };
    fc.assert(
      fc.property(
        fc.oneof({ arbitrary: anyBuyer, weight: 2 }, { arbitrary: anEuBusiness, weight: 1 }),
        anInstant,
        aSeller,
        (buyer, at, seller) => {
          const { countryCode, region, postalCode, taxIdentifier, ownPrefix } = buyer;
          const tax = locationTax(
            TAX_RATE_DATASET,
            { countryCode, region, postalCode, taxIdentifier },
            at,
            seller,
            null,
            [],
            REDUCED_RATES,
          );
          expect(tax.rate.compare(Decimal.zero)).toBeGreaterThanOrEqual(0);
          expect(tax.rate.compare(Decimal.parse('1'))).toBeLessThanOrEqual(0);
          expect(tax.rate.scale).toBeLessThanOrEqual(6);
          expect(tax.mode).toBe(
            countryCode === 'US' || countryCode === 'CA' || countryCode === null ? 'external' : 'internal',
          );
          // An EU business whose id carries its own country's prefix is reverse charged by any seller from elsewhere.
          if (ownPrefix) expect(tax.reverseCharge).toBe(seller !== countryCode);
          const entry = countryCode === null ? undefined : TAX_RATE_DATASET.countries[countryCode];
          if (tax.reverseCharge) {
            runs.reverseCharged += 1;
            expect(tax.rate.isZero()).toBe(true);
            expect(TAX_RATE_DATASET.euCountries).toContain(countryCode);
            expect(seller).not.toBe(countryCode);
            return;
          }
          if (!entry) {
            runs.untaxedPlace += 1;
            expect(tax.rate.isZero()).toBe(true);
            return;
          }
          runs.compared += 1;
          let expected = Decimal.parse(rateInForce(entry, at).rate);
          const code = tax.subdivision?.slice(3);
          if (code !== undefined) {
            const regional = entry.regions?.[code];
            expect(regional).toBeDefined();
            if (regional) expected = expected.add(Decimal.parse(rateInForce(regional, at).rate));
          }
          expect(tax.rate.equals(expected.isNegative() ? Decimal.zero : expected)).toBe(true);
        },
      ),
      { numRuns: 100 },
    );
    expect(runs.reverseCharged).toBeGreaterThan(0);
    expect(runs.untaxedPlace).toBeGreaterThan(0);
    expect(runs.compared).toBeGreaterThan(0);
  });
});
