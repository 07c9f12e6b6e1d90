import { describe, expect, it } from 'vitest';
import type { TaxCategory } from '../catalogue/entities.js';
import {
  conventionalTaxMode,
  type LocationRateOverride,
  locationTax,
  subdivisionOf,
  type TaxLocation,
} from './location-tax.js';
import { REDUCED_RATES } from './reduced-rates.js';
import { TAX_RATE_DATASET } from './tax-rate-dataset.js';
import { isWellFormedEuVatId } from './vat-id.js';

const NOW = '2026-11-23T12:00:00Z';

function taxAt(location: TaxLocation, seller: string | null = null, at = NOW) {
  const tax = locationTax(TAX_RATE_DATASET, location, at, seller, null, [], REDUCED_RATES);
  return { rate: tax.rate.toString(), mode: tax.mode, subdivision: tax.subdivision, reverseCharge: tax.reverseCharge };
}

describe('location tax from the sales-tax dataset (ADR 1430)', () => {
  it('is dated and names its source', () => {
    expect(TAX_RATE_DATASET.source).toBe('sales-tax');
    expect(TAX_RATE_DATASET.published).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(TAX_RATE_DATASET.euCountries).toHaveLength(27);
  });

  it('charges EU VAT inclusive of the price: Germany 19%, France 20%, Ireland 23%', () => {
    expect(taxAt({ countryCode: 'DE' })).toEqual({
      rate: '0.19',
      mode: 'internal',
      subdivision: null,
      reverseCharge: false,
    });
    expect(taxAt({ countryCode: 'FR' }).rate).toBe('0.2');
    expect(taxAt({ countryCode: 'IE' }).rate).toBe('0.23');
  });

  it('charges UK VAT at 20% and Australian and New Zealand GST at 10% and 15%, inclusive', () => {
    expect(taxAt({ countryCode: 'GB', postalCode: 'SW1A 1AA' })).toMatchObject({ rate: '0.2', mode: 'internal' });
    expect(taxAt({ countryCode: 'AU', region: 'NSW', postalCode: '2000' })).toMatchObject({
      rate: '0.1',
      mode: 'internal',
    });
    expect(taxAt({ countryCode: 'NZ' })).toMatchObject({ rate: '0.15', mode: 'internal' });
    expect(taxAt({ countryCode: 'IN' })).toMatchObject({ rate: '0.18', mode: 'internal' });
  });

  it('charges US sales tax by state, exclusive of the price, from the region or the ZIP code', () => {
    expect(taxAt({ countryCode: 'US', region: 'California' })).toEqual({
      rate: '0.0825',
      mode: 'external',
      subdivision: 'US-CA',
      reverseCharge: false,
    });
    expect(taxAt({ countryCode: 'US', region: 'ca' }).rate).toBe('0.0825');
    expect(taxAt({ countryCode: 'US', postalCode: '94105' })).toMatchObject({ rate: '0.0825', subdivision: 'US-CA' });
    expect(taxAt({ countryCode: 'US', postalCode: '10001-1234' })).toMatchObject({
      rate: '0.04',
      subdivision: 'US-NY',
    });
    expect(taxAt({ countryCode: 'US', postalCode: '55401' }).rate).toBe('0.06875');
    // The region wins over the ZIP code.
    expect(taxAt({ countryCode: 'US', region: 'TX', postalCode: '94105' }).subdivision).toBe('US-TX');
  });

  it('charges nothing where there is no sales tax or no known state', () => {
    expect(taxAt({ countryCode: 'US', region: 'Oregon', postalCode: '97201' })).toMatchObject({
      rate: '0',
      subdivision: null,
    });
    expect(taxAt({ countryCode: 'US', postalCode: '97201' }).rate).toBe('0');
    expect(taxAt({ countryCode: 'US' }).rate).toBe('0');
    expect(taxAt({ countryCode: 'HK' })).toMatchObject({ rate: '0', mode: 'internal' });
    expect(taxAt({ countryCode: null })).toMatchObject({ rate: '0', mode: 'external' });
  });

  it('adds Canadian provincial tax to GST, exactly', () => {
    expect(taxAt({ countryCode: 'CA', region: 'Quebec' })).toMatchObject({ rate: '0.14975', mode: 'external' });
    expect(taxAt({ countryCode: 'CA', postalCode: 'M5V 3L9' })).toMatchObject({ rate: '0.13', subdivision: 'CA-ON' });
    expect(taxAt({ countryCode: 'CA', region: 'AB' })).toMatchObject({ rate: '0.05', subdivision: null });
  });

  it('takes regional reductions: the Canary Islands pay IGIC, Ceuta no VAT', () => {
    expect(taxAt({ countryCode: 'ES', postalCode: '35001' })).toMatchObject({ rate: '0.07', subdivision: 'ES-GC' });
    expect(taxAt({ countryCode: 'ES', postalCode: '51001' }).rate).toBe('0');
    expect(taxAt({ countryCode: 'ES', postalCode: '28001' }).rate).toBe('0.21');
  });

  it('uses the rate in force at the instant: Germany’s 16% of the second half of 2020', () => {
    expect(taxAt({ countryCode: 'DE' }, null, '2020-09-01T00:00:00Z').rate).toBe('0.16');
    expect(taxAt({ countryCode: 'DE' }, null, '2020-05-01T00:00:00Z').rate).toBe('0.19');
    expect(taxAt({ countryCode: 'CA', region: 'NS' }, null, '2025-03-01T00:00:00Z').rate).toBe('0.15');
    expect(taxAt({ countryCode: 'CA', region: 'NS' }).rate).toBe('0.14');
  });

  it('reverse charges an EU business with a well-formed VAT id of its country, bought from elsewhere', () => {
    const french = { countryCode: 'FR', taxIdentifier: 'FR 40 303 265 045' };
    expect(taxAt(french, 'DE')).toEqual({ rate: '0', mode: 'internal', subdivision: null, reverseCharge: true });
    expect(taxAt(french, null).reverseCharge).toBe(true);
    // A seller in the buyer's own country charges VAT.
    expect(taxAt(french, 'FR')).toMatchObject({ rate: '0.2', reverseCharge: false });
    // A malformed id, another country's id, or no id: VAT is charged.
    expect(taxAt({ countryCode: 'FR', taxIdentifier: 'FR123' }, 'DE').rate).toBe('0.2');
    expect(taxAt({ countryCode: 'FR', taxIdentifier: 'DE123456789' }, 'DE').rate).toBe('0.2');
    expect(taxAt({ countryCode: 'FR', taxIdentifier: null }, 'DE').rate).toBe('0.2');
    // A national number without its prefix counts for the address's country; Greece's prefix is EL.
    expect(taxAt({ countryCode: 'DE', taxIdentifier: '123456789' }, 'FR').reverseCharge).toBe(true);
    expect(taxAt({ countryCode: 'GR', taxIdentifier: 'EL123456789' }, 'DE').reverseCharge).toBe(true);
    // Outside the EU there is no reverse charge here.
    expect(taxAt({ countryCode: 'GB', taxIdentifier: 'GB123456789' }, 'DE').rate).toBe('0.2');
  });

  it('checks EU VAT id formats per country, offline', () => {
    for (const id of [
      'ATU12345678',
      'BE0123456789',
      'DE123456789',
      'NL123456789B01',
      'IE1234567WA',
      'ESX1234567X',
      'SE123456789001',
    ]) {
      expect(isWellFormedEuVatId(id), id).toBe(true);
    }
    for (const id of ['AT12345678', 'BE2123456789', 'DE12345678', 'NL123456789', 'XX123456789', 'SE123456789012', '']) {
      expect(isWellFormedEuVatId(id), id).toBe(false);
    }
  });

  it('reads US states and Canadian provinces by code or name, and nothing elsewhere', () => {
    expect(subdivisionOf({ countryCode: 'US', region: 'New York' })).toBe('NY');
    expect(subdivisionOf({ countryCode: 'US', region: 'US-WA' })).toBe('WA');
    expect(subdivisionOf({ countryCode: 'US', postalCode: 'not a zip' })).toBeNull();
    expect(subdivisionOf({ countryCode: 'CA', region: 'British Columbia' })).toBe('BC');
    expect(subdivisionOf({ countryCode: 'DE', region: 'Bayern', postalCode: '80331' })).toBeNull();
    expect(conventionalTaxMode('US')).toBe('external');
    expect(conventionalTaxMode('JP')).toBe('internal');
  });
});

describe('reduced rates by tax category (ADR 1436)', () => {
  const ebookAt = (countryCode: string, at = NOW, postalCode?: string) =>
    locationTax(TAX_RATE_DATASET, { countryCode, postalCode }, at, null, 'ebooks', [], REDUCED_RATES).rate.toString();

  it('takes the e-book rate where the table has one, the standard rate elsewhere and for other categories', () => {
    expect(ebookAt('GB')).toBe('0');
    expect(ebookAt('DE')).toBe('0.07');
    expect(ebookAt('IE')).toBe('0');
    expect(ebookAt('FR')).toBe('0.055');
    expect(ebookAt('DK')).toBe('0.25');
    expect(ebookAt('AU')).toBe('0.1');
    expect(
      locationTax(TAX_RATE_DATASET, { countryCode: 'DE' }, NOW, null, 'saas', [], REDUCED_RATES).rate.toString(),
    ).toBe('0.19');
  });

  it('follows the table’s dates: Ireland 9% in 2022, the UK’s standard rate before May 2020', () => {
    expect(ebookAt('IE', '2022-06-01T00:00:00Z')).toBe('0.09');
    expect(ebookAt('IE', '2018-06-01T00:00:00Z')).toBe('0.23');
    expect(ebookAt('GB', '2020-04-30T22:59:59Z')).toBe('0.2');
    expect(ebookAt('GB', '2020-04-30T23:00:00Z')).toBe('0');
    expect(ebookAt('DE', '2020-09-01T00:00:00Z')).toBe('0.05');
  });

  it('leaves regions with their own rates to the dataset (Canary Islands)', () => {
    expect(ebookAt('ES')).toBe('0.04');
    expect(ebookAt('ES', NOW, '35001')).toBe(
      locationTax(
        TAX_RATE_DATASET,
        { countryCode: 'ES', postalCode: '35001' },
        NOW,
        null,
        'standard',
        [],
        REDUCED_RATES,
      ).rate.toString(),
    );
  });

  it('still reverse charges an EU business buying e-books', () => {
    const tax = locationTax(
      TAX_RATE_DATASET,
      { countryCode: 'DE', taxIdentifier: 'DE123456789' },
      NOW,
      null,
      'ebooks',
      [],
      REDUCED_RATES,
    );
    expect(tax).toMatchObject({ reverseCharge: true });
    expect(tax.rate.toString()).toBe('0');
  });
});

describe('a register check of the tax id decides the reverse charge (ADR 1437)', () => {
  const french = { countryCode: 'FR', taxIdentifier: 'FR40303265045' };
  const withCheck = (
    status: 'valid' | 'invalid' | 'unverified',
    reverseChargeWhenUnverified = true,
    id = 'FR40303265045',
  ) =>
    locationTax(
      TAX_RATE_DATASET,
      { ...french, taxIdCheck: { taxIdentifier: id, status, reverseChargeWhenUnverified } },
      NOW,
      'DE',
      null,
      [],
      REDUCED_RATES,
    );

  it('reverse charges a valid id, charges VAT for an invalid one', () => {
    expect(withCheck('valid').reverseCharge).toBe(true);
    expect(withCheck('invalid').reverseCharge).toBe(false);
    expect(withCheck('invalid').rate.toString()).toBe('0.2');
  });

  it('follows the fallback for an unverified id', () => {
    expect(withCheck('unverified', true).reverseCharge).toBe(true);
    expect(withCheck('unverified', false).reverseCharge).toBe(false);
  });

  it('ignores a verdict on another id and never reverse charges a malformed id', () => {
    expect(withCheck('invalid', true, 'FR11111111111').reverseCharge).toBe(true);
    expect(
      locationTax(
        TAX_RATE_DATASET,
        {
          countryCode: 'FR',
          taxIdentifier: 'FR-nope',
          taxIdCheck: { taxIdentifier: 'FR-nope', status: 'valid', reverseChargeWhenUnverified: true },
        },
        NOW,
        'DE',
        null,
        [],
        REDUCED_RATES,
      ).reverseCharge,
    ).toBe(false);
  });
});

describe('location overrides (ADR 1467)', () => {
  const override = (entry: Partial<LocationRateOverride> & { rate: string }): LocationRateOverride => ({
    countryCode: 'US',
    region: null,
    postalCodePrefix: null,
    taxCategory: null,
    ...entry,
  });
  const overrides = [
    override({ rate: '0.01' }),
    override({ region: 'CA', rate: '0.09' }),
    override({ region: 'CA', taxCategory: 'saas', rate: '0' }),
    override({ postalCodePrefix: '941', rate: '0.085' }),
    override({ postalCodePrefix: '94105', rate: '0.08625' }),
    override({ countryCode: 'GB', postalCodePrefix: 'BT', rate: '0.2' }),
  ];
  const rate = (location: TaxLocation, category: TaxCategory = 'standard') =>
    locationTax(TAX_RATE_DATASET, location, NOW, null, category, overrides, REDUCED_RATES).rate.toString();

  it('takes the most specific match: the category first, then the longest postal prefix, then a region', () => {
    expect(rate({ countryCode: 'US', postalCode: '94105-1804' })).toBe('0.08625');
    expect(rate({ countryCode: 'US', postalCode: '94110' })).toBe('0.085');
    // California exempts SaaS in every ZIP code: the category's rule beats a place's.
    expect(rate({ countryCode: 'US', postalCode: '94110' }, 'saas')).toBe('0');
    expect(rate({ countryCode: 'US', postalCode: '90012' })).toBe('0.09');
    expect(rate({ countryCode: 'US', postalCode: '90012' }, 'saas')).toBe('0');
    expect(rate({ countryCode: 'US', region: 'Oregon' })).toBe('0.01');
    expect(rate({ countryCode: 'GB', postalCode: 'bt1 1aa' })).toBe('0.2');
  });

  it('leaves the dataset’s rate where nothing matches, and the reverse charge before any override', () => {
    expect(rate({ countryCode: 'DE' })).toBe(TAX_RATE_DATASET.countries.DE?.rate);
    const euOverride = [override({ countryCode: 'FR', rate: '0.1' })];
    const business = locationTax(
      TAX_RATE_DATASET,
      { countryCode: 'FR', taxIdentifier: 'FR40303265045' },
      NOW,
      'DE',
      'standard',
      euOverride,
      REDUCED_RATES,
    );
    expect(business).toMatchObject({ reverseCharge: true });
    expect(business.rate.toString()).toBe('0');
  });
});
