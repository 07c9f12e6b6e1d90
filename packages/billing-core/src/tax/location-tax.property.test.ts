/**
 * Properties of location tax over the whole dataset: for any country it lists (or none), any
 * region or postal code, any instant from 2015 to 2035 and any seller, the rate is an exact
 * decimal from 0 to 1, the one in force then (country plus region), a reverse charge is always
 * 0, and only a tax-exclusive country (US, CA) prices exclusive of tax.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { Decimal } from '../money/decimal.js';
import { locationTax, rateInForce } from './location-tax.js';
import { REDUCED_RATES } from './reduced-rates.js';
import { TAX_RATE_DATASET } from './tax-rate-dataset.js';

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

describe('location tax over the dataset (ADR 1430)', () => {
  test.prop([aCountry, aRegion, aPostalCode, aTaxIdentifier, anInstant, aSeller])(
    'is an exact rate from 0 to 1, the dataset’s in force, or 0 when reverse charged',
    (countryCode, region, postalCode, taxIdentifier, at, seller) => {
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
      const entry = countryCode === null ? undefined : TAX_RATE_DATASET.countries[countryCode];
      if (tax.reverseCharge) {
        expect(tax.rate.isZero()).toBe(true);
        expect(TAX_RATE_DATASET.euCountries).toContain(countryCode);
        expect(seller).not.toBe(countryCode);
        return;
      }
      if (!entry) {
        expect(tax.rate.isZero()).toBe(true);
        return;
      }
      let expected = Decimal.parse(rateInForce(entry, at).rate);
      const code = tax.subdivision?.slice(3);
      if (code !== undefined) {
        const regional = entry.regions?.[code];
        expect(regional).toBeDefined();
        if (regional) expected = expected.add(Decimal.parse(rateInForce(regional, at).rate));
      }
      expect(tax.rate.equals(expected.isNegative() ? Decimal.zero : expected)).toBe(true);
    },
  );
});
