/**
 * The portal as a person uses it, in real headless Chromium (Debian's, driven by playwright-core)
 * against a real billing service and the demo server: sign in with the keyboard, see only the
 * own transactions, load the second page, download an invoice PDF, read amounts in de-DE, ja-JP
 * and a malformed locale, and watch the usage bars move when usage events arrive. One browser
 * and one context for the whole file; screenshots go to test-artifacts/.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { BILLING_HISTORY_STATUSES, Drawdown } from '@drawdown/sdk';
import { axeViolations, type BillingHarness, chromiumLaunchOptions, startBillingHarness } from '@drawdown/testkit';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PortalDemo, startPortalDemo, waitForBalances } from '../src/index.js';

const ARTIFACTS = resolve(import.meta.dirname, '../../../test-artifacts');
const ADA_PASSWORD = 'ada-test-password';

/** The few browser globals the page checks use: the tests build without the DOM library. */
interface BrowserGlobals {
  getComputedStyle(element: unknown, pseudo?: string): { outlineStyle: string; content: string };
  readonly document: { readonly documentElement: { readonly scrollWidth: number } };
  readonly innerWidth: number;
}

/**
 * Runs in the page: the lowest contrast ratio (WCAG 2 formula) between any visible text and the
 * first opaque background behind it, and which text that is.
 */
const LOWEST_CONTRAST = `(() => {
  const channel = (value) => { const c = value / 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  const parse = (color) => (color.match(/[\\d.]+/g) || []).map(Number);
  const luminance = ([r = 0, g = 0, b = 0]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  const background = (element) => {
    for (let node = element; node; node = node.parentElement) {
      const parts = parse(getComputedStyle(node).backgroundColor);
      if (parts.length === 3 || (parts[3] || 0) > 0) return parts;
    }
    return [255, 255, 255];
  };
  let worst = { ratio: 21, text: '' };
  for (const element of document.querySelectorAll('h1, h2, h3, th, td, span, p, dt, dd, button, a')) {
    if (!element.textContent.trim() || element.closest('.visually-hidden, [hidden]')) continue;
    const fg = luminance(parse(getComputedStyle(element).color));
    const bg = luminance(background(element));
    const ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
    if (ratio < worst.ratio) worst = { ratio, text: element.textContent.trim().slice(0, 40) };
  }
  return worst;
})()`;

/** A two-decimal lowest-unit amount written out by hand, independent of Intl: `grouped('123456', ',', '.')` is `1,234.56`. */
function grouped(lowestUnits: string, groupSeparator: string, decimalSeparator: string): string {
  const integer = lowestUnits.slice(0, -2);
  const groups: string[] = [];
  for (let end = integer.length; end > 0; end -= 3) groups.unshift(integer.slice(Math.max(0, end - 3), end));
  return `${groups.join(groupSeparator)}${decimalSeparator}${lowestUnits.slice(-2)}`;
}

describe('the billing portal in Chromium', () => {
  let harness: BillingHarness;
  let demo: PortalDemo;
  let admin: Drawdown;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let adaHistory: string[];
  let graceHistory: string[];
  /** The largest grandTotal in Ada's history (lowest units, USD): the enterprise invoice. */
  let largestUsd: string;

  async function historyOf(customerId: string): Promise<string[]> {
    const ids: string[] = [];
    const list = admin.transactions.list({ customerId: [customerId], status: [...BILLING_HISTORY_STATUSES] });
    for await (const transaction of list) ids.push(transaction.id);
    return ids.sort().reverse();
  }

  function rowIds(): Promise<string[]> {
    return page
      .locator('#history-rows tr')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-transaction-id') ?? ''));
  }

  beforeAll(async () => {
    harness = await startBillingHarness({ engine: 'sqlite' });
    admin = new Drawdown(harness.sandboxKey, { baseUrl: harness.sandboxUrl });
    demo = await startPortalDemo({
      billingSandboxUrl: harness.sandboxUrl,
      sandboxKey: harness.sandboxKey,
      port: 0,
      passwords: { 'ada@example.com': ADA_PASSWORD },
      usagePollMs: 1_000,
      log: () => {},
    });
    const ada = demo.seed.ada.customerId;
    // The seeding paid the plan through the API, which started the subscription and its balances.
    expect(await waitForBalances(admin, ada, 2, 5_000)).toBe(true);
    adaHistory = await historyOf(ada);
    graceHistory = await historyOf(demo.seed.grace.customerId);
    largestUsd = '0';
    for await (const transaction of admin.transactions.list({
      customerId: [ada],
      status: [...BILLING_HISTORY_STATUSES],
    })) {
      const total = transaction.details.totals.grandTotal;
      if (transaction.currencyCode === 'USD' && BigInt(total) > BigInt(largestUsd)) largestUsd = total;
    }
    browser = await chromium.launch(chromiumLaunchOptions());
    context = await browser.newContext({
      locale: 'en-US',
      acceptDownloads: true,
      viewport: { width: 1100, height: 900 },
    });
    page = await context.newPage();
    mkdirSync(ARTIFACTS, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    await demo?.close();
    await harness?.close();
  });

  it('signs in with the keyboard and sees only the own transactions, newest first, 30 at a time', async () => {
    await page.goto(`${demo.url}/`);
    await expect.poll(() => page.url()).toBe(`${demo.url}/login`);
    await page.getByLabel('Email').focus();
    await page.keyboard.type('ada@example.com');
    await page.keyboard.press('Tab');
    await page.keyboard.type(ADA_PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${demo.url}/billing/`);
    expect(await page.locator('html').getAttribute('lang')).toBe('en');

    const ids = await rowIds();
    expect(adaHistory.length).toBeGreaterThan(30);
    expect(ids).toEqual(adaHistory.slice(0, 30));
    for (const id of graceHistory) expect(ids).not.toContain(id);
    const statuses = await page
      .locator('#history-rows tr')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-status')));
    for (const status of statuses) expect(BILLING_HISTORY_STATUSES).toContain(status);
  });

  it('loads the second page with "load more" and then has no more', async () => {
    const invoiceCalls: string[] = [];
    page.on('request', (request) => {
      if (/\/invoice$/.test(new URL(request.url()).pathname)) invoiceCalls.push(request.url());
    });
    const more = page.getByRole('button', { name: 'Load more transactions' });
    await more.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#history-rows tr').count()).toBe(adaHistory.length);
    expect(await rowIds()).toEqual(adaHistory);
    expect(await page.locator('#load-more').count()).toBe(0);
    await expect.poll(() => page.locator('#portal-status').textContent()).toMatch(/Loaded \d+ more transactions/);
    // Links cost a call and expire: nothing asked for one yet.
    expect(invoiceCalls).toEqual([]);
  });

  it('downloads an invoice PDF only when its button is pressed', async () => {
    const noInvoice = page.locator(
      '#history-rows tr[data-status="past_due"], #history-rows tr[data-status="canceled"]',
    );
    expect(await noInvoice.count()).toBeGreaterThan(0);
    expect(await noInvoice.locator('button').count()).toBe(0);

    const row = page.locator('#history-rows tr[data-status="completed"]').first();
    const download = page.waitForEvent('download');
    await row.getByRole('button', { name: /^Download PDF/ }).click();
    const file = await download;
    const path = await file.path();
    expect(readFileSync(path).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const again = await context.request.get(file.url());
    expect(again.headers()['content-type']).toMatch(/^application\/pdf/);
    expect((await again.body()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('formats amounts for the viewer’s Accept-Language: de-DE, ja-JP, and en-US for a malformed tag', async () => {
    // Intl separates with no-break spaces; compare with plain ones.
    const amountOf = async (currency: string) =>
      (await page.locator(`#history-rows tr[data-currency="${currency}"] .amount`).allTextContents()).map((text) =>
        text.replace(/[\u00a0\u202f]/g, ' '),
      );
    // The context's locale sets Chromium's own Accept-Language, which wins over extra headers:
    // set the header on the requests themselves.
    let acceptLanguage = 'en-US';
    await page.route(`${demo.url}/**`, (route) =>
      route.continue({ headers: { ...route.request().headers(), 'accept-language': acceptLanguage } }),
    );
    const viewAs = async (tag: string) => {
      acceptLanguage = tag;
      await page.reload();
    };

    await viewAs('de-DE,de;q=0.9');
    expect(await page.locator('.amount').first().getAttribute('lang')).toBe('de-DE');
    // Ada's stored locale is the API's default (en), so the browser's language decides the page's.
    expect(await page.locator('html').getAttribute('lang')).toBe('de');
    expect(await page.locator('#history-heading').textContent()).toBe('Abrechnungsverlauf');
    for (const text of await amountOf('EUR')) expect(text).toMatch(/^\d{1,3}(\.\d{3})*,\d{2} €$/);
    // The enterprise invoice (over 40 million dollars), to the cent.
    expect(largestUsd.length).toBeGreaterThan(9);
    expect(await amountOf('USD')).toContain(`${grouped(largestUsd, '.', ',')} $`);

    for (const [tag, language, heading] of [
      ['fr-FR', 'fr', 'Historique de facturation'],
      ['es-ES,es;q=0.9', 'es', 'Historial de facturación'],
    ] as const) {
      await viewAs(tag);
      expect(await page.locator('html').getAttribute('lang')).toBe(language);
      expect(await page.locator('#history-heading').textContent()).toBe(heading);
    }

    await viewAs('ja-JP');
    expect(await page.locator('html').getAttribute('lang')).toBe('ja');
    expect(await page.locator('#history-heading').textContent()).toBe('請求履歴');
    const yen = await amountOf('JPY');
    expect(yen.length).toBeGreaterThan(0);
    for (const text of yen) expect(text).toMatch(/^[￥¥]\d{1,3}(,\d{3})*$/);

    await viewAs('!!not a language tag!!');
    expect(await page.locator('.amount').first().getAttribute('lang')).toBe('en-US');
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    expect(await amountOf('USD')).toContain(`$${grouped(largestUsd, ',', '.')}`);
    for (const text of await amountOf('JPY')) expect(text).toMatch(/^¥\d{1,3}(,\d{3})*$/);
    await page.unroute(`${demo.url}/**`);
    await page.reload();
  });

  it('redraws the usage bars, without a reload, after usage events are sent', async () => {
    const meter = page.locator('.meter', { has: page.getByRole('heading', { name: 'API calls' }) });
    const bar = meter.getByRole('meter');
    const before = Number(await bar.getAttribute('aria-valuenow'));
    const allowance = Number(await bar.getAttribute('aria-valuemax'));
    expect(allowance).toBe(1000);
    await page.screenshot({ path: resolve(ARTIFACTS, 'portal-desktop.png'), fullPage: true });

    const report = await admin.reportUsage({
      customerId: demo.seed.ada.customerId,
      action: 'api_call',
      quantity: '37',
    });
    expect(report.kind).toBe('accepted');
    await expect
      .poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 10_000 })
      .toBe(before + 37);
    expect(await meter.locator('[data-part="used"]').textContent()).toBe(String(before + 37));

    // Past the allowance: remaining stops at 0 and the bar marks the overage.
    const past = allowance - (before + 37) + 25;
    await admin.reportUsage({ customerId: demo.seed.ada.customerId, action: 'api_call', quantity: String(past) });
    await expect.poll(() => meter.locator('[data-part="overage"]').textContent(), { timeout: 10_000 }).toBe('25');
    expect(await meter.locator('[data-part="remaining"]').textContent()).toBe('0');
    expect(await meter.getAttribute('class')).toContain('meter-over');
    expect(await bar.getAttribute('aria-valuetext')).toMatch(/25 calls over the allowance/);
    expect(Number(await meter.locator('[data-part="overage-bar"]').getAttribute('width'))).toBeGreaterThan(0);
    await expect.poll(() => page.locator('#portal-status').textContent()).toMatch(/Usage updated/);
  });

  it('shows visible focus, readable contrast and a layout that fits a phone', async () => {
    const button = page.getByRole('button', { name: /^Download PDF/ }).first();
    await button.focus();
    const outline = await button.evaluate(
      (element) => (globalThis as unknown as BrowserGlobals).getComputedStyle(element).outlineStyle,
    );
    expect(outline).not.toBe('none');

    const lowest = (await page.evaluate(LOWEST_CONTRAST)) as { ratio: number; text: string };
    expect(lowest.ratio, lowest.text).toBeGreaterThanOrEqual(4.5);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    const overflow = await page.evaluate(() => {
      const browser = globalThis as unknown as BrowserGlobals;
      return browser.document.documentElement.scrollWidth - browser.innerWidth;
    });
    expect(overflow).toBeLessThanOrEqual(0);
    // Compact cards: the amount sits on the description's line, right-aligned, with no repeated labels.
    const amountCell = page.locator('#history-rows td[data-label="Amount"]').first();
    const descriptionCell = page.locator('#history-rows td[data-label="Description"]').first();
    const [amountBox, descriptionBox] = [await amountCell.boundingBox(), await descriptionCell.boundingBox()];
    expect(Math.abs((amountBox?.y ?? 0) - (descriptionBox?.y ?? 100))).toBeLessThan(24);
    expect(
      await amountCell.evaluate(
        (cell) => (globalThis as unknown as BrowserGlobals).getComputedStyle(cell, '::before').content,
      ),
    ).toBe('none');
    await page.getByRole('heading', { name: 'Billing', exact: true }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: resolve(ARTIFACTS, 'portal-phone.png') });
  });

  it('shows the captured sandbox email readably, with no axe violations, at phone width too (issue 34)', async () => {
    await page.goto(`${demo.url}/mail`);
    await page.waitForSelector('#mailbox a');
    expect(await axeViolations(page), 'mailbox').toEqual([]);
    await page.locator('#mailbox a').first().click();
    await page.waitForSelector('#mail-text');
    await expect(page.locator('#mail-text').textContent()).resolves.toMatch(/\S/);
    expect(await axeViolations(page), 'one email').toEqual([]);
    const overflow = await page.evaluate(() => {
      const browser = globalThis as unknown as BrowserGlobals;
      return browser.document.documentElement.scrollWidth - browser.innerWidth;
    });
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
