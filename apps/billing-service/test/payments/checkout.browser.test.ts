/**
 * The hosted checkout as a customer uses it, in real headless Chromium (Debian's, driven by
 * playwright-core) against a real billing service: buy a subscription with the success card,
 * fail with the decline card then succeed on retry, pass the 3-D Secure challenge. axe-core
 * checks every page state for accessibility violations. Screenshots go to test-artifacts/.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { axeViolations, type BillingHarness, chromiumLaunchOptions, startBillingHarness } from '@drawdown/testkit';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, harnessClients } from '../support/api-client.js';
import { createPrice, createProduct, unique } from '../support/catalogue-fixtures.js';
import { LOGO_PNG_BASE64 } from '../support/images.js';
import { createTransaction } from '../transactions/transaction-fixtures.js';
import { CARDS } from './checkout-client.js';

const ARTIFACTS = resolve(import.meta.dirname, '../../../../test-artifacts');

describe('the hosted checkout in Chromium', () => {
  let harness: BillingHarness;
  let sandbox: ApiClient;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let priceId: string;

  async function expectNoAxeViolations(label: string): Promise<void> {
    expect(await axeViolations(page), label).toEqual([]);
  }

  async function newCheckout(): Promise<string> {
    const customer = await sandbox.post('/customers', { email: `${unique('browser')}@example.com` });
    expect(customer.status, customer.text).toBe(201);
    const transaction = await createTransaction(sandbox, {
      items: [{ price_id: priceId, quantity: 1 }],
      customer_id: customer.id,
    });
    expect(transaction.status).toBe('draft');
    return String((transaction.checkout as { url: string }).url);
  }

  async function fillDetails(): Promise<void> {
    await page.getByLabel('Country').selectOption('DE');
    await page.getByLabel('Postal code').fill('10115');
    await page.getByLabel('City').fill('Berlin');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForSelector('#payment-heading');
  }

  async function fillCard(number: string): Promise<void> {
    await page.getByLabel('Name on card').fill('Grace Hopper');
    await page.getByLabel('Card number').fill(number);
    await page.getByLabel('Expiry (MM/YY)').fill('12/39');
    await page.getByLabel('Security code').fill('123');
  }

  interface TransactionSeen {
    status: string;
    subscription_id: string | null;
    customer_id: string;
    business_id: string | null;
    payments: unknown[];
    details: { totals: { tax: string; grand_total: string } };
  }

  async function transactionStatus(url: string): Promise<TransactionSeen> {
    const id = new URL(url).searchParams.get('_ptxn') ?? '';
    return (await sandbox.get(`/transactions/${id}`)).entity as unknown as TransactionSeen;
  }

  /** "Then €29.75 per month from 28 December 2026." (ADR 1114), the date a month from today. */
  function recurringTerms(amount: string): RegExp {
    return new RegExp(`^Then ${amount.replace('.', '\\.')} per month from \\d{1,2} [A-Z][a-z]+ \\d{4}\\.$`);
  }

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    harness = await startBillingHarness({ engine: 'sqlite' });
    ({ sandbox } = harnessClients(harness));
    // Location tax (ADR 1430): Germany's 19%, France's 20%, and reverse charge for an EU business abroad.
    const taxes = await sandbox.patch('/tax-settings', {
      rate_source: 'location',
      country_rates: [{ country_code: 'DE', rate: '0.19' }],
    });
    expect(taxes.status, taxes.text).toBe(200);
    const productId = await createProduct(sandbox, { name: 'Analytics plan' });
    priceId = String(
      (await createPrice(sandbox, productId, { unit_price: { amount: '2500', currency_code: 'EUR' } })).id,
    );
    browser = await chromium.launch(chromiumLaunchOptions());
    context = await browser.newContext({ viewport: { width: 1024, height: 900 }, locale: 'en-GB' });
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await harness?.close();
  });

  it('buys a subscription with the success card', async () => {
    const url = await newCheckout();
    await page.goto(url);
    await expect(page.title()).resolves.toBe('Checkout: Test account');
    await expectNoAxeViolations('details step');
    await fillDetails();
    // The German address's 19% tax is shown before paying, named with its rate.
    await expect(page.locator('#tax').textContent()).resolves.toBe('€4.75');
    await expect(page.locator('tr:has(#tax) th').textContent()).resolves.toBe('VAT 19%');
    await expect(page.locator('#due').textContent()).resolves.toBe('€29.75');
    await expectNoAxeViolations('payment step');
    await fillCard(CARDS.success);
    await page.getByRole('button', { name: 'Pay €29.75' }).click();
    await page.waitForSelector('#checkout-message.success');
    await expect(page.locator('#checkout-message').textContent()).resolves.toContain('Your subscription is active');
    await expectNoAxeViolations('completed');
    await page.screenshot({ path: resolve(ARTIFACTS, 'checkout-completed.png'), fullPage: true });
    const transaction = await transactionStatus(url);
    expect(transaction.status).toBe('completed');
    expect(transaction.subscription_id).toMatch(/^sub_/);
  });

  it('fails with the decline card, then succeeds on retry', async () => {
    const url = await newCheckout();
    await page.goto(url);
    await fillDetails();
    await fillCard(CARDS.decline);
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.waitForSelector('#checkout-error');
    await expect(page.locator('#checkout-error').textContent()).resolves.toContain('Your card was declined');
    await expectNoAxeViolations('declined');
    expect((await transactionStatus(url)).status).toBe('ready');
    // The name on the card is kept for the next card; the card's own fields are not.
    await expect(page.getByLabel('Name on card').inputValue()).resolves.toBe('Grace Hopper');
    await expect(page.getByLabel('Card number').inputValue()).resolves.toBe('');
    await fillCard(CARDS.success);
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.waitForSelector('#checkout-message.success');
    expect((await transactionStatus(url)).status).toBe('completed');
  });

  it('takes a promo code (a refused one said next to the field, a good one lowering the total), then leads back to the seller', async () => {
    const code = `BROWSER${unique('b')
      .replace(/[^A-Za-z0-9]/g, '')
      .slice(-8)}`;
    const discount = await sandbox.post('/discounts', {
      description: 'Five off',
      type: 'flat',
      amount: '500',
      currency_code: 'EUR',
      enabled_for_checkout: true,
      code,
    });
    expect(discount.status, discount.text).toBe(201);
    const url = await newCheckout();
    await page.goto(url);
    await fillDetails();
    await page.getByLabel('Code', { exact: true }).fill('NOTACODE');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForSelector('#field-code[aria-invalid="true"]');
    await expect(page.locator('#checkout-error').textContent()).resolves.toContain('Check the marked fields');
    await expectNoAxeViolations('refused code');
    await page.getByLabel('Code', { exact: true }).fill(code.toLowerCase());
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForSelector('#discount');
    // €25.00 less €5.00, then DE's 19%: €20.00 + €3.80.
    await expect(page.locator('#discount').textContent()).resolves.toBe('−€5.00');
    await expect(page.locator('#due').textContent()).resolves.toBe('€23.80');
    await expectNoAxeViolations('code applied');
    await fillCard(CARDS.success);
    await page.getByRole('button', { name: 'Pay €23.80' }).click();
    await page.waitForSelector('#checkout-message.success');
    expect((await transactionStatus(url)).status).toBe('completed');
    // The link's own return_url, on the origin of the account's (ADR 1112), leads back from the finished page.
    const returnUrl = 'https://shop.example/orders/7';
    const settings = await sandbox.patch('/checkout-settings', { return_url: 'https://shop.example/' });
    expect(settings.status, settings.text).toBe(200);
    try {
      await page.goto(`${url}&return_url=${encodeURIComponent(returnUrl)}`);
      const back = page.getByRole('link', { name: 'Back to Test account' });
      await expect(back.getAttribute('href')).resolves.toBe(returnUrl);
      await expectNoAxeViolations('finished, with its way back');
    } finally {
      await sandbox.patch('/checkout-settings', { return_url: null });
    }
  });

  it('passes the 3-D Secure challenge', async () => {
    const url = await newCheckout();
    await page.goto(url);
    await fillDetails();
    await fillCard(CARDS.challenge);
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.waitForSelector('text=Confirm this payment');
    expect(page.url()).toContain('/checkout/sandbox-authentication/');
    await expectNoAxeViolations('challenge');
    expect((await transactionStatus(url)).status).toBe('ready');
    await page.getByRole('button', { name: 'Complete authentication' }).click();
    await page.waitForSelector('#checkout-message.success');
    expect((await transactionStatus(url)).status).toBe('completed');
  });

  it('shows a refused form in words, next to the field, and keeps what was typed (never the card number)', async () => {
    const url = await newCheckout();
    await page.goto(url);
    await fillDetails();
    await fillCard('1234 5678 9012 3456');
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.waitForSelector('#checkout-error');
    await expect(page.locator('#checkout-error').getAttribute('role')).resolves.toBe('alert');
    await expect(page.getByLabel('Card number').getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(page.getByLabel('Card number').inputValue()).resolves.toBe('');
    await expect(page.getByLabel('Name on card').inputValue()).resolves.toBe('Grace Hopper');
    await expectNoAxeViolations('refused');
    expect((await transactionStatus(url)).status).toBe('ready');
  });

  it('names the seller by its legal name and the tax by its name and rate, at phone width too', async () => {
    const named = await sandbox.patch('/seller-details', { legal_name: 'Analytical Engines GmbH' });
    expect(named.status, named.text).toBe(200);
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'de-DE' });
    try {
      const phonePage = await phone.newPage();
      const url = await newCheckout();
      await phonePage.goto(url);
      await expect(phonePage.title()).resolves.toBe('Kasse: Analytical Engines GmbH');
      await expect(phonePage.locator('.merchant').textContent()).resolves.toBe('Zahlung an Analytical Engines GmbH');
      await phonePage.locator('#field-country_code').selectOption('DE');
      await phonePage.locator('#field-postal_code').fill('10115');
      await phonePage.locator('#field-city').fill('Berlin');
      await phonePage.locator('form[action^="/checkout/details"] button').click();
      await phonePage.waitForSelector('#payment-heading');
      const taxLabel = (await phonePage.locator('tr:has(#tax) th').textContent())?.replace(/[\u00a0\u202f]/g, ' ');
      expect(taxLabel).toBe('USt. 19 %');
      expect(await phonePage.evaluate('document.documentElement.scrollWidth - window.innerWidth')).toBeLessThanOrEqual(
        0,
      );
      expect(await axeViolations(phonePage), 'phone, named seller and tax').toEqual([]);
    } finally {
      await phone.close();
      const restored = await sandbox.patch('/seller-details', { legal_name: null });
      expect(restored.status, restored.text).toBe(200);
    }
  });

  it('re-taxes a country changed in the one payment form before paying: nothing charged, the new total to confirm', async () => {
    const url = await newCheckout();
    await page.goto(url);
    await fillDetails();
    await expect(page.locator('#recurring-terms').textContent()).resolves.toMatch(recurringTerms('€29.75'));
    // One form, one submit: the details and the card go together (ADR 1115).
    await expect(page.locator('form[action^="/checkout/details"]').count()).resolves.toBe(0);
    await expect(page.locator('form[action^="/checkout/pay"] button[type="submit"]').count()).resolves.toBe(1);
    await page.getByLabel('Country').selectOption('FR');
    await page.getByLabel('Postal code').fill('75001');
    await page.getByLabel('City').fill('Paris');
    await fillCard(CARDS.success);
    await page.getByRole('button', { name: 'Pay €29.75' }).click();
    await page.waitForSelector('#checkout-message.notice');
    await expect(page.locator('#checkout-message').textContent()).resolves.toContain(
      'Your details changed the total to €30.00. Nothing was charged',
    );
    await expect(page.locator('tr:has(#tax) th').textContent()).resolves.toBe('VAT 20%');
    await expect(page.locator('#due').textContent()).resolves.toBe('€30.00');
    await expect(page.locator('#recurring-terms').textContent()).resolves.toMatch(recurringTerms('€30.00'));
    await expect(page.getByLabel('Name on card').inputValue()).resolves.toBe('Grace Hopper');
    const waiting = await transactionStatus(url);
    expect(waiting).toMatchObject({ status: 'ready', payments: [], details: { totals: { grand_total: '3000' } } });
    await expectNoAxeViolations('re-taxed, to confirm');
    await fillCard(CARDS.success);
    await page.getByRole('button', { name: 'Pay €30.00' }).click();
    await page.waitForSelector('#checkout-message.success');
    expect(await transactionStatus(url)).toMatchObject({
      status: 'completed',
      details: { totals: { tax: '500', grand_total: '3000' } },
    });
  });

  it('buys as a business with a VAT number at phone width: a bad number refused, reverse charge shown and charged, the seller’s logo and links', async () => {
    const links = {
      terms_url: 'https://engines.example/terms',
      privacy_url: 'https://engines.example/privacy',
      refund_policy_url: 'https://engines.example/refunds',
      contact_url: 'https://engines.example/contact',
    };
    const seller = await sandbox.patch('/seller-details', {
      legal_name: 'Analytical Engines Ltd',
      logo: { data: LOGO_PNG_BASE64 },
      ...links,
    });
    expect(seller.status, seller.text).toBe(200);
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-GB' });
    try {
      const phonePage = await phone.newPage();
      const url = await newCheckout();
      await phonePage.goto(url);
      await expect(phonePage.getByRole('img', { name: 'Analytical Engines Ltd logo' }).count()).resolves.toBe(1);
      for (const [id, href] of [
        ['#terms-link', links.terms_url],
        ['#privacy-link', links.privacy_url],
        ['#refund-link', links.refund_policy_url],
        ['#contact-link', links.contact_url],
      ] as const) {
        await expect(phonePage.locator(id).getAttribute('href')).resolves.toBe(href);
      }
      await phonePage.getByLabel('Country').selectOption('FR');
      await phonePage.getByLabel('Postal code').fill('75001');
      await phonePage.getByLabel('City').fill('Paris');
      await phonePage.getByRole('button', { name: 'Continue' }).click();
      await phonePage.waitForSelector('#payment-heading');
      await expect(phonePage.locator('#due').textContent()).resolves.toBe('€30.00');
      // A number of the wrong shape is refused next to its field, and nothing changes.
      await phonePage.getByLabel('A business').check();
      await phonePage.getByLabel('Company name').fill('Analytical Engines SARL');
      await phonePage.getByLabel('VAT or tax number').fill('FR123');
      await phonePage.getByLabel('Name on card').fill('Ada Lovelace');
      await phonePage.getByLabel('Card number').fill(CARDS.success);
      await phonePage.getByLabel('Expiry (MM/YY)').fill('12/39');
      await phonePage.getByLabel('Security code').fill('123');
      await phonePage.getByRole('button', { name: 'Pay €30.00' }).click();
      await phonePage.waitForSelector('#field-tax_identifier[aria-invalid="true"]');
      await expect(phonePage.locator('#field-tax_identifier-error').textContent()).resolves.toBe(
        'This is not a VAT or tax number of the country you chose. Check it and try again.',
      );
      expect(await transactionStatus(url)).toMatchObject({ status: 'ready', business_id: null, payments: [] });
      // A French VAT number: re-taxed before paying, reverse charged, the new total to confirm.
      await phonePage.getByLabel('VAT or tax number').fill('FR 40 303 265 045');
      await phonePage.getByLabel('Card number').fill(CARDS.success);
      await phonePage.getByLabel('Expiry (MM/YY)').fill('12/39');
      await phonePage.getByLabel('Security code').fill('123');
      await phonePage.getByRole('button', { name: 'Pay €30.00' }).click();
      await phonePage.waitForSelector('#checkout-message.notice');
      await expect(phonePage.locator('#checkout-message').textContent()).resolves.toContain(
        'Your details changed the total to €25.00',
      );
      await expect(phonePage.locator('tr:has(#tax) th').textContent()).resolves.toBe('Reverse charge');
      await expect(phonePage.locator('#tax').textContent()).resolves.toBe('€0.00');
      await expect(phonePage.locator('#reverse-charge-note').textContent()).resolves.toBe(
        'No VAT is charged: the reverse charge applies, and Analytical Engines SARL accounts for the VAT in France.',
      );
      await expect(phonePage.locator('#recurring-terms').textContent()).resolves.toMatch(recurringTerms('€25.00'));
      expect(await phonePage.evaluate('document.documentElement.scrollWidth - window.innerWidth')).toBeLessThanOrEqual(
        0,
      );
      expect(await axeViolations(phonePage), 'phone, reverse charged').toEqual([]);
      await phonePage.getByLabel('Card number').fill(CARDS.success);
      await phonePage.getByLabel('Expiry (MM/YY)').fill('12/39');
      await phonePage.getByLabel('Security code').fill('123');
      await phonePage.getByRole('button', { name: 'Pay €25.00' }).click();
      await phonePage.waitForSelector('#checkout-message.success');
      const paid = await transactionStatus(url);
      expect(paid).toMatchObject({ status: 'completed', details: { totals: { tax: '0', grand_total: '2500' } } });
      // The business is the public API's entity, on the customer.
      const business = await sandbox.get(`/customers/${paid.customer_id}/businesses/${paid.business_id}`);
      expect(business.entity).toMatchObject({
        name: 'Analytical Engines SARL',
        tax_identifier: 'FR40303265045',
        status: 'active',
      });
    } finally {
      await phone.close();
      await sandbox.patch('/seller-details', {
        legal_name: null,
        logo: null,
        terms_url: null,
        privacy_url: null,
        refund_policy_url: null,
        contact_url: null,
      });
    }
  });
});
