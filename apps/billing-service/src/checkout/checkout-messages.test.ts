import { BillingError } from '@drawdown/billing-core';
import { describe, expect, it } from 'vitest';
import { addressNeeds, CHECKOUT_COUNTRY_CODES, countryOptions, regionalTaxCountries } from './checkout-countries.js';
import {
  CHECKOUT_LANGUAGES,
  CHECKOUT_MESSAGE_KEYS,
  checkoutTranslator,
  localizeCheckoutError,
  pickCheckoutLocale,
} from './checkout-messages.js';

/** Words that are the same in English and in another language. */
// GST keeps its English abbreviation where these languages name the tax of a GST country.
const SAME_AS_ENGLISH = new Set([
  'de.region',
  'fr.province',
  'es.subtotal',
  'de.taxGst',
  'fr.taxGst',
  'es.taxGst',
  'ja.taxGst',
  'de.promoCode',
  'fr.promoCode',
]);

describe('the checkout’s languages', () => {
  it('has every message in every language, with the same placeholders as English', () => {
    const english = checkoutTranslator('en');
    for (const language of CHECKOUT_LANGUAGES) {
      const t = checkoutTranslator(language);
      for (const key of CHECKOUT_MESSAGE_KEYS) {
        expect(t(key).trim(), `${language}.${key}`).not.toBe('');
        const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
        expect(placeholders(t(key)), `${language}.${key}`).toEqual(placeholders(english(key)));
        if (language !== 'en' && !SAME_AS_ENGLISH.has(`${language}.${key}`) && key !== 'detailsSummary') {
          expect(t(key), `${language}.${key} is translated`).not.toBe(english(key));
        }
      }
    }
  });

  it('picks the query’s language, then the stored locale (not the default en), then Accept-Language, then English', () => {
    expect(pickCheckoutLocale({ query: 'ja', acceptLanguage: 'de-DE' }).language).toBe('ja');
    expect(pickCheckoutLocale({ query: 'xx', acceptLanguage: 'de-CH,de;q=0.9' }).language).toBe('de');
    expect(pickCheckoutLocale({ customerLocale: 'fr', acceptLanguage: 'de' }).language).toBe('fr');
    expect(pickCheckoutLocale({ customerLocale: 'en', acceptLanguage: 'es-MX, en;q=0.5' }).language).toBe('es');
    expect(pickCheckoutLocale({ acceptLanguage: 'nl-NL, ja;q=0.4, fr;q=0.8' }).language).toBe('fr');
    expect(pickCheckoutLocale({ acceptLanguage: 'nl-NL' }).language).toBe('en');
    expect(pickCheckoutLocale({}).language).toBe('en');
  });

  it('formats in the browser’s regional locale of the chosen language, else the language’s usual one', () => {
    expect(pickCheckoutLocale({ acceptLanguage: 'de-CH,de;q=0.9' }).locale).toBe('de-CH');
    expect(pickCheckoutLocale({ acceptLanguage: 'de' }).locale).toBe('de-DE');
    expect(pickCheckoutLocale({ query: 'ja', acceptLanguage: 'de-CH' }).locale).toBe('ja-JP');
    expect(pickCheckoutLocale({ acceptLanguage: 'en-GB;q=0.9, fr-CA' }).locale).toBe('fr-CA');
    expect(pickCheckoutLocale({ acceptLanguage: 'de-AT-u-nu-arab' }).locale).toBe('de-AT');
    expect(pickCheckoutLocale({ acceptLanguage: 'ja_JP' }).locale).toBe('ja-JP');
    expect(pickCheckoutLocale({ acceptLanguage: 'de-%%' }).locale).toBe('de-DE');
  });

  it('keeps only a query override in forms and redirects', () => {
    expect(pickCheckoutLocale({ query: 'es' }).querySuffix).toBe('&locale=es');
    expect(pickCheckoutLocale({ query: 'de-AT' }).querySuffix).toBe('&locale=de');
    expect(pickCheckoutLocale({ acceptLanguage: 'es' }).querySuffix).toBe('');
    expect(pickCheckoutLocale({ query: '"><script>' }).querySuffix).toBe('');
  });

  it('shows refusals by code and field in the page’s language, never the API’s English detail', () => {
    const t = checkoutTranslator('de');
    const options = { sandbox: true, alreadyPaid: false };
    const email = localizeCheckoutError(BillingError.invalidField('email', 'must be an email address'), t, options);
    expect(email).toEqual({ text: t('errorSummary'), fields: { email: t('errEmail') } });
    const mismatch = BillingError.invalidField('email', 'must be the email of the customer this transaction is for');
    expect(localizeCheckoutError(mismatch, t, options).fields.email).toBe(t('errEmailMismatch'));
    const card = new BillingError('payment_method_input_invalid', 'x', [{ field: 'card_number', message: 'x' }]);
    expect(localizeCheckoutError(card, t, options).fields.card_number).toBe(t('errTestCard'));
    expect(localizeCheckoutError(card, t, { ...options, sandbox: false }).fields.card_number).toBe(t('errCardNumber'));
    const stale = BillingError.invalidField('submission_key', 'belongs to another checkout');
    expect(localizeCheckoutError(stale, t, options)).toEqual({ text: t('errStale'), fields: {} });
    const paid = new BillingError('transaction_not_payable', 'Transaction txn_1 is already paid.');
    expect(localizeCheckoutError(paid, t, { ...options, alreadyPaid: true }).text).toBe(t('errAlreadyPaid'));
    expect(localizeCheckoutError(paid, t, options).text).toBe(t('errNotPayable'));
    const changed = new BillingError('transaction_checkout_amount_changed', 'now owes 5');
    expect(localizeCheckoutError(changed, t, options).text).toBe(t('errAmountChanged'));
    const unknown = new BillingError('internal_error', 'Something in English');
    expect(localizeCheckoutError(unknown, t, options).text).toBe(t('errGeneric'));
  });
});

describe('the checkout’s countries', () => {
  it('names every ISO 3166-1 code and Kosovo in every page language, sorted by that language', () => {
    expect(CHECKOUT_COUNTRY_CODES).toHaveLength(250);
    expect(countryOptions('en-GB').find((option) => option.code === 'XK')?.name).toBe('Kosovo');
    for (const locale of ['en-US', 'de-DE', 'fr-FR', 'es-ES', 'ja-JP']) {
      const names = new Intl.DisplayNames([locale], { type: 'region', fallback: 'none' });
      for (const code of CHECKOUT_COUNTRY_CODES) expect(names.of(code), `${locale} ${code}`).toBeTruthy();
      const options = countryOptions(locale);
      const collator = new Intl.Collator(locale);
      for (let index = 1; index < options.length; index += 1) {
        expect(collator.compare(options[index - 1]?.name ?? '', options[index]?.name ?? '')).toBeLessThanOrEqual(0);
      }
    }
    expect(countryOptions('de-DE').find((option) => option.code === 'DE')?.name).toBe('Deutschland');
    expect(countryOptions('ja-JP').find((option) => option.code === 'JP')?.name).toBe('日本');
  });

  it('asks for the region or postal code where the dataset splits the tax by region', () => {
    expect(regionalTaxCountries()).toEqual(['CA', 'ES', 'US']);
    expect(addressNeeds('US')).toEqual({ regionOrPostalRequired: true, regionKind: 'state', postalKind: 'zip' });
    expect(addressNeeds('CA')).toEqual({ regionOrPostalRequired: true, regionKind: 'province', postalKind: 'postal' });
    expect(addressNeeds('DE')).toEqual({ regionOrPostalRequired: false, regionKind: 'region', postalKind: 'postal' });
    expect(addressNeeds(null).regionOrPostalRequired).toBe(false);
  });
});
