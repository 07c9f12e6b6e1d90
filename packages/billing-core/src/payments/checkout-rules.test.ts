/**
 * The checkout's pure rules (issue 35; ADRs 1113, 1114): the tax number a buyer may give per
 * country, the business refused field by field, the seller's links, and the recurring terms
 * ("then €71.36 per month from 14 April") priced by the transaction builder.
 */
import { describe, expect, it } from 'vitest';
import { aCustomer, anAddress, aPrice, aProduct, BUILT_AT } from '../../test/entities.js';
import { countingIds } from '../../test/memory-store.js';
import type { Price } from '../catalogue/entities.js';
import type { Discount } from '../discounts/discount.js';
import { sellerLinkProblem } from '../invoices/seller-details.js';
import { buildTransaction } from '../transactions/build-transaction.js';
import { DEFAULT_TAX_SETTINGS } from '../transactions/tax-settings.js';
import type { Transaction } from '../transactions/transaction.js';
import { checkCheckoutBusiness, checkoutCompanyName, checkoutTaxIdentifier } from './checkout-business.js';
import { recurringTerms } from './checkout-terms.js';

describe('the tax number a checkout takes', () => {
  it('takes an EU VAT number of the address’s country, with or without its prefix, stored with it', () => {
    expect(checkoutTaxIdentifier('DE', 'DE 123 456 789')).toEqual({ ok: true, taxIdentifier: 'DE123456789' });
    expect(checkoutTaxIdentifier('DE', '123456789')).toEqual({ ok: true, taxIdentifier: 'DE123456789' });
    expect(checkoutTaxIdentifier('FR', 'fr40-303-265-045')).toEqual({ ok: true, taxIdentifier: 'FR40303265045' });
    expect(checkoutTaxIdentifier('GR', '094014201')).toEqual({ ok: true, taxIdentifier: 'EL094014201' });
    expect(checkoutTaxIdentifier('NL', 'NL123456789B01')).toEqual({ ok: true, taxIdentifier: 'NL123456789B01' });
  });

  it('refuses an EU number of the wrong shape, of another country, or none', () => {
    expect(checkoutTaxIdentifier('DE', 'DE12345678')).toEqual({ ok: false, problem: 'format' });
    expect(checkoutTaxIdentifier('DE', 'not a number')).toEqual({ ok: false, problem: 'format' });
    expect(checkoutTaxIdentifier('DE', 'FR40303265045')).toEqual({ ok: false, problem: 'other_country' });
    expect(checkoutTaxIdentifier('DE', '  ')).toEqual({ ok: false, problem: 'missing' });
  });

  it('takes UK VAT numbers (GB or XI) in the United Kingdom and refuses other shapes', () => {
    expect(checkoutTaxIdentifier('GB', '123 4567 89')).toEqual({ ok: true, taxIdentifier: 'GB123456789' });
    expect(checkoutTaxIdentifier('GB', 'GB123456789012')).toEqual({ ok: true, taxIdentifier: 'GB123456789012' });
    expect(checkoutTaxIdentifier('GB', 'XI123456789')).toEqual({ ok: true, taxIdentifier: 'XI123456789' });
    expect(checkoutTaxIdentifier('GB', 'GBGD001')).toEqual({ ok: true, taxIdentifier: 'GBGD001' });
    expect(checkoutTaxIdentifier('GB', 'GB12345')).toEqual({ ok: false, problem: 'format' });
    expect(checkoutTaxIdentifier('GB', 'DE123456789')).toEqual({ ok: false, problem: 'format' });
  });

  it('elsewhere takes 4 to 20 letters and digits with a digit', () => {
    expect(checkoutTaxIdentifier('AU', '51 824 753 556')).toEqual({ ok: true, taxIdentifier: '51824753556' });
    expect(checkoutTaxIdentifier('CH', 'CHE-123.456.789 MWST')).toEqual({
      ok: true,
      taxIdentifier: 'CHE123456789MWST',
    });
    expect(checkoutTaxIdentifier('US', 'ABCDE')).toEqual({ ok: false, problem: 'format' });
    expect(checkoutTaxIdentifier('US', '12')).toEqual({ ok: false, problem: 'format' });
    expect(checkoutTaxIdentifier('US', '1'.repeat(21))).toEqual({ ok: false, problem: 'format' });
  });

  it('checks the company name and the number together, each refused field named', () => {
    expect(checkoutCompanyName('  Analytical   Engines GmbH ')).toBe('Analytical Engines GmbH');
    expect(checkoutCompanyName(' ')).toBeUndefined();
    expect(checkoutCompanyName('x'.repeat(201))).toBeUndefined();
    expect(checkCheckoutBusiness('DE', { name: 'Engines GmbH', taxIdentifier: '123456789' })).toEqual({
      name: 'Engines GmbH',
      taxIdentifier: 'DE123456789',
    });
    let refusal: unknown;
    try {
      checkCheckoutBusiness('DE', { name: '', taxIdentifier: 'FR40303265045' });
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toMatchObject({
      code: 'checkout_business_invalid',
      fieldErrors: [
        { field: 'company_name', message: 'must be 1 to 200 characters' },
        { field: 'tax_identifier', message: expect.stringMatching(/\(other_country\)$/) },
      ],
    });
  });
});

describe('the seller’s links', () => {
  it('takes absolute http(s) addresses and refuses every other scheme, credentials and blanks', () => {
    expect(sellerLinkProblem('https://engines.example/terms')).toBeUndefined();
    expect(sellerLinkProblem('http://localhost:8080/privacy')).toBeUndefined();
    for (const bad of [
      'javascript:alert(1)',
      'data:text/html,hi',
      'mailto:help@engines.example',
      'ftp://engines.example/terms',
      'https://user:pass@engines.example/',
      '/terms',
      'https://engines.example/a b',
      `https://engines.example/${'a'.repeat(2048)}`,
      '',
    ]) {
      expect(sellerLinkProblem(bad), bad).toMatch(/http or https/);
    }
  });
});

const NOW = BUILT_AT;

const customer = aCustomer({ name: null });
const address = anAddress({ firstLine: null });
const product = aProduct();
const monthly = aPrice();
const setupFee = aPrice({
  id: 'pri_00000000000000000000000002',
  billingCycle: null,
  unitPrice: { amount: '5000', currencyCode: 'EUR' },
});
const taxSettings = { ...DEFAULT_TAX_SETTINGS, countryRates: [{ countryCode: 'DE', rate: '0.19' }] };

function discount(recur: boolean, maximumRecurringIntervals: number | null): Discount {
  return {
    id: 'dsc_00000000000000000000000001',
    status: 'active',
    description: 'Ten percent',
    enabledForCheckout: true,
    code: 'TEN',
    mode: 'standard',
    type: 'percentage',
    amount: '10',
    currencyCode: null,
    recur,
    maximumRecurringIntervals,
    usageLimit: null,
    restrictTo: null,
    expiresAt: null,
    customData: null,
    timesUsed: 1,
    discountGroupId: null,
    importMeta: null,
    createdAt: NOW,
    updatedAt: NOW,
  };
}

function checkout(prices: readonly Price[], terms?: Discount): Transaction {
  return buildTransaction(
    {
      items: prices.map((price) => ({ price, product, quantity: 3 })),
      customer,
      address,
      collectionMode: 'automatic',
      origin: 'web',
      startsTrials: true,
      discount: terms ?? null,
    },
    { ids: countingIds(), now: NOW, taxSettings },
  );
}

const environment = { ids: countingIds(), now: NOW, taxSettings };

describe('the recurring terms a checkout states', () => {
  it('prices the first renewal of the recurring items alone, tax included, one cycle from now', () => {
    const terms = recurringTerms(
      { transaction: checkout([monthly, setupFee]), customer, address, business: null },
      environment,
    );
    // 3 × €19.99 = €59.97; DE 19% = €11.3943, rounded half to even to €11.39: €71.36. The setup fee does not recur.
    expect(terms).toEqual({
      totals: { subtotal: '5997', discount: '0', tax: '1139', total: '7136' },
      currencyCode: 'EUR',
      billingCycle: { interval: 'month', frequency: 1 },
      startsAt: '2026-04-14T09:30:00.000Z',
      afterTrial: false,
    });
  });

  it('carries a discount on only when it recurs past the first period', () => {
    const once = discount(false, null);
    const always = discount(true, null);
    const firstOnly = discount(true, 1);
    const total = (terms: Discount) =>
      recurringTerms(
        { transaction: checkout([monthly], terms), customer, address, business: null, discount: terms },
        environment,
      )?.totals.total;
    expect(total(once)).toBe('7136');
    expect(total(firstOnly)).toBe('7136');
    // €59.97 less 10% (€6.00, rounded) = €53.97, then 19%: €10.25 → €64.22.
    expect(total(always)).toBe('6422');
  });

  it('after a trial: nothing charged now for the item, the full price from the trial’s end', () => {
    const trial: Price = { ...monthly, trialPeriod: { interval: 'day', frequency: 14, requiresPaymentMethod: true } };
    const transaction = checkout([trial]);
    expect(transaction.details.totals.total).toBe('0');
    const terms = recurringTerms({ transaction, customer, address, business: null }, environment);
    expect(terms).toMatchObject({ startsAt: '2026-03-28T09:30:00.000Z', afterTrial: true });
    expect(terms?.totals.total).toBe('7136');
  });

  it('states none for one-time items, or for a transaction of an existing subscription', () => {
    expect(
      recurringTerms({ transaction: checkout([setupFee]), customer, address, business: null }, environment),
    ).toBeNull();
    const renewal = { ...checkout([monthly]), subscriptionId: 'sub_00000000000000000000000001' };
    expect(recurringTerms({ transaction: renewal, customer, address, business: null }, environment)).toBeNull();
  });
});
