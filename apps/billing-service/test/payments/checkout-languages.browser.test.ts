import { axeViolations, type BillingHarness, chromiumLaunchOptions, startBillingHarness } from '@drawdown/testkit';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, harnessClients } from '../support/api-client.js';
import { createPrice, createProduct, unique } from '../support/catalogue-fixtures.js';
import { createTransaction } from '../transactions/transaction-fixtures.js';
import { CARDS } from './checkout-client.js';

const NBSP = '\u00a0';

describe('the hosted checkout in the portal’s languages, in Chromium', () => {
  let harness: BillingHarness;
  let sandbox: ApiClient;
  let browser: Browser;
  let priceId: string;

  async function expectNoAxeViolations(page: Page, label: string): Promise<void> {
    expect(await axeViolations(page), label).toEqual([]);
  }

  async function newCheckout(): Promise<{ url: string; createdAt: string }> {
    const customer = await sandbox.post('/customers', { email: `${unique('lang')}@example.com` });
    expect(customer.status, customer.text).toBe(201);
    const transaction = await createTransaction(sandbox, {
      items: [{ price_id: priceId, quantity: 1 }],
      customer_id: customer.id,
    });
    return { url: String((transaction.checkout as { url: string }).url), createdAt: String(transaction.created_at) };
  }

  async function statusOf(url: string): Promise<string> {
    const id = new URL(url).searchParams.get('_ptxn') ?? '';
    return String((await sandbox.get(`/transactions/${id}`)).entity.status);
  }

  beforeAll(async () => {
    harness = await startBillingHarness({ engine: 'sqlite' });
    ({ sandbox } = harnessClients(harness));
    const taxes = await sandbox.patch('/tax-settings', { country_rates: [{ country_code: 'DE', rate: '0.19' }] });
    expect(taxes.status, taxes.text).toBe(200);
    const productId = await createProduct(sandbox, { name: 'Analytics plan' });
    priceId = String(
      (await createPrice(sandbox, productId, { unit_price: { amount: '2500', currency_code: 'EUR' } })).id,
    );
    browser = await chromium.launch(chromiumLaunchOptions());
  });
  afterAll(async () => {
    await browser?.close();
    await harness?.close();
  });

  it('speaks German to a German browser: select, amounts, date, refusal, 3-D Secure and the receipt', async () => {
    const context = await browser.newContext({ viewport: { width: 1024, height: 900 }, locale: 'de-DE' });
    const page = await context.newPage();
    try {
      const { url, createdAt } = await newCheckout();
      await page.goto(url);
      await expect(page.title()).resolves.toBe('Kasse: Test account');
      await expect(page.locator('html').getAttribute('lang')).resolves.toBe('de');
      const date = new Intl.DateTimeFormat('de-DE', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(createdAt));
      await expect(page.locator('#order-date').textContent()).resolves.toBe(`Bestellung vom ${date}`);
      await expect(page.locator('#due').textContent()).resolves.toBe(`25,00${NBSP}€`);
      const country = page.getByLabel('Land');
      await expect(country.evaluate((element) => element.tagName)).resolves.toBe('SELECT');
      await expect(country.locator('option[value="DE"]').textContent()).resolves.toBe('Deutschland');
      await expect(country.locator('option[value="US"]').textContent()).resolves.toBe('Vereinigte Staaten');
      await expectNoAxeViolations(page, 'de details');
      await country.selectOption('DE');
      await page.getByLabel('Postleitzahl').fill('10115');
      await page.getByLabel('Ort').fill('Berlin');
      await page.getByRole('button', { name: 'Weiter' }).click();
      await page.waitForSelector('#payment-heading');
      await expect(page.locator('#tax').textContent()).resolves.toBe(`4,75${NBSP}€`);
      await expect(page.getByRole('button', { name: `29,75${NBSP}€ bezahlen` }).count()).resolves.toBe(1);

      await page.getByLabel('Name auf der Karte').fill('Grace Hopper');
      await page.getByLabel('Kartennummer').fill('5555 5555 5555 4444');
      await page.getByLabel('Ablaufdatum (MM/JJ)').fill('12/39');
      await page.getByLabel('Prüfnummer').fill('123');
      await page.getByRole('button', { name: /bezahlen$/ }).click();
      await page.waitForSelector('#checkout-error');
      await expect(page.locator('#checkout-error').textContent()).resolves.toBe(
        'Prüfen Sie die markierten Felder und versuchen Sie es erneut.',
      );
      await expect(page.locator('#field-card_number-error').textContent()).resolves.toBe(
        'Die Sandbox nimmt nur die oben genannten Testkarten an.',
      );
      await expectNoAxeViolations(page, 'de refused');

      await page.getByLabel('Kartennummer').fill(CARDS.challenge);
      await page.getByLabel('Ablaufdatum (MM/JJ)').fill('12/39');
      await page.getByLabel('Prüfnummer').fill('123');
      await page.getByRole('button', { name: /bezahlen$/ }).click();
      await page.waitForSelector('text=Diese Zahlung bestätigen');
      await expect(page.locator('html').getAttribute('lang')).resolves.toBe('de');
      await expect(page.locator('main p').last().textContent()).resolves.toContain(`Zahlung von 29,75${NBSP}€`);
      await expectNoAxeViolations(page, 'de challenge');
      await page.getByRole('button', { name: 'Authentifizierung abschließen' }).click();
      await page.waitForSelector('#checkout-message.success');
      await expect(page.locator('#checkout-message').textContent()).resolves.toBe(
        `Zahlung erhalten: 29,75${NBSP}€, bezahlt mit Visa mit Endziffern 0446. Vielen Dank. Ihr Abonnement ist aktiv.`,
      );
      await expectNoAxeViolations(page, 'de completed');
      expect(await statusOf(url)).toBe('completed');
    } finally {
      await context.close();
    }
  });

  it('follows ?locale=ja over an English browser, asks a US buyer for the ZIP code or state, and keeps Japanese through the forms', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-US' });
    const page = await context.newPage();
    try {
      const { url } = await newCheckout();
      await page.goto(`${url}&locale=ja`);
      await expect(page.locator('html').getAttribute('lang')).resolves.toBe('ja');
      await expect(page.locator('#order-date').textContent()).resolves.toMatch(/^\d{4}年\d{1,2}月\d{1,2}日 のご注文$/);
      const country = page.getByLabel('国', { exact: true });
      await expect(country.locator('option[value="US"]').textContent()).resolves.toBe('アメリカ合衆国');
      await expectNoAxeViolations(page, 'ja details');
      await country.selectOption('US');
      await page.getByRole('button', { name: '次へ' }).click();
      await page.waitForSelector('#checkout-error');
      expect(new URL(page.url()).searchParams.get('locale')).toBe('ja');
      await expect(page.locator('#field-postal_code-error').textContent()).resolves.toBe(
        '州またはZIP コードを入力してください。アメリカ合衆国 の税額はそれによって決まります。',
      );
      await expect(page.getByLabel('ZIP コード').getAttribute('aria-invalid')).resolves.toBe('true');
      await expectNoAxeViolations(page, 'ja refused');
      expect(await statusOf(url)).toBe('draft');

      await page.getByLabel('ZIP コード').fill('10001');
      await page.getByRole('button', { name: '次へ' }).click();
      await page.waitForSelector('#payment-heading');
      await expect(page.locator('#payment-heading').textContent()).resolves.toBe('2. お支払い');
      expect(new URL(page.url()).searchParams.get('locale')).toBe('ja');
      await expect(page.locator('#due').textContent()).resolves.toBe('€25.00');
      await page.getByLabel('カード名義').fill('Grace Hopper');
      await page.getByLabel('カード番号').fill(CARDS.decline);
      await page.getByLabel('有効期限（MM/YY）').fill('12/39');
      await page.getByLabel('セキュリティコード').fill('123');
      await page.getByRole('button', { name: '€25.00 を支払う' }).click();
      await page.waitForSelector('#checkout-error');
      await expect(page.locator('#checkout-error').textContent()).resolves.toBe(
        'カードが拒否されました。請求は発生していません。もう一度お試しいただくか、別のカードをご利用ください。',
      );
      await expectNoAxeViolations(page, 'ja declined');
      expect(await statusOf(url)).toBe('ready');
    } finally {
      await context.close();
    }
  });
});
