/**
 * The self-service portal in real headless Chromium against a real billing service and the demo
 * (ADR 1440, 1441), at desktop width as Ada (English) and at phone width as Grace (German, her
 * stored locale): a customer portal session link signs in, a tampered or expired one shows a
 * refusal and nothing else; the plan summary; cancel at period end and undo; pause and keep
 * running, resume a paused plan; change plan and quantity with the preview before confirming;
 * billing address, business and tax id; refunds with their credit note PDF; the outstanding
 * balance; usage past the allowance; pay links exactly where the service offers a checkout.
 * Every page visited is checked with axe (WCAG 2 A and AA rules): no violations. Each check reads
 * the result back through the API, not only from the page.
 */
import { readFileSync } from 'node:fs';
import { Drawdown, type Subscription, type SubscriptionWithIncludes } from '@drawdown/sdk';
import { axeViolations, type BillingHarness, chromiumLaunchOptions, startBillingHarness } from '@drawdown/testkit';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PortalDemo, startPortalDemo, waitForBalances } from '../src/index.js';

const PASSWORDS = { 'ada@example.com': 'ada-test-password', 'grace@example.com': 'grace-test-password' };

async function expectAccessible(page: Page): Promise<void> {
  expect(await axeViolations(page), page.url()).toEqual([]);
}

/** Lowest units as the page writes major units, by text: "2900" → "29.00" (German "29,00"). */
function majorUnits(amount: string, language: string): string {
  const lowest = amount.padStart(3, '0');
  const major = `${lowest.slice(0, -2)}.${lowest.slice(-2)}`;
  return language === 'de' ? major.replace('.', ',') : major;
}

const VIEWPORTS = [
  { name: 'desktop', who: 'ada', viewport: { width: 1100, height: 900 }, language: 'en' },
  { name: 'phone', who: 'grace', viewport: { width: 390, height: 844 }, language: 'de' },
] as const;

describe('the self-service billing portal in Chromium', () => {
  let harness: BillingHarness;
  let demo: PortalDemo;
  let admin: Drawdown;
  let browser: Browser;

  beforeAll(async () => {
    // A configured portal (ADR 1472): the portal under test takes the links' paths.
    harness = await startBillingHarness({ engine: 'sqlite', portalUrl: 'http://127.0.0.1:3000/billing' });
    admin = new Drawdown(harness.sandboxKey, { baseUrl: harness.sandboxUrl });
    demo = await startPortalDemo({
      billingSandboxUrl: harness.sandboxUrl,
      sandboxKey: harness.sandboxKey,
      port: 0,
      passwords: PASSWORDS,
      usagePollMs: 60_000,
      log: () => {},
    });
    harness.setPortalUrl(`${demo.url}/billing`);
    expect(await waitForBalances(admin, demo.seed.ada.customerId, 2, 5_000)).toBe(true);
    expect(await waitForBalances(admin, demo.seed.grace.customerId, 2, 5_000)).toBe(true);
    browser = await chromium.launch(chromiumLaunchOptions());
  });

  afterAll(async () => {
    await browser?.close();
    await demo?.close();
    await harness?.close();
  });

  async function planOf(customerId: string): Promise<Subscription> {
    const [subscription] = await admin.subscriptions
      .list({ customerId: [customerId], status: ['active', 'paused'] })
      .next();
    if (!subscription) throw new Error(`no plan for ${customerId}`);
    return subscription;
  }

  describe.each(VIEWPORTS)('$name', ({ who, viewport, language }) => {
    let context: BrowserContext;
    let page: Page;
    let customerId: string;

    beforeAll(async () => {
      customerId = demo.seed[who].customerId;
      context = await browser.newContext({ locale: 'en-US', viewport, acceptDownloads: true });
      page = await context.newPage();
    });
    afterAll(async () => {
      await context?.close();
    });

    it('signs in through a customer portal session link, in the customer’s language', async () => {
      const subscription = await planOf(customerId);
      const session = await admin.customerPortalSessions.create(customerId, { subscriptionIds: [subscription.id] });
      await page.goto(session.urls.general.overview);
      await page.waitForURL(`${demo.url}/billing/`);
      expect(await page.locator('html').getAttribute('lang')).toBe(language);
      expect(await page.locator(`#plan [data-subscription-id="${subscription.id}"]`).count()).toBe(1);
      // The token is gone from the address: the redirect dropped it.
      expect(page.url()).not.toContain('token=');
      await expectAccessible(page);

      // The deep link to cancelling opens the confirmation for that subscription.
      const [links] = session.urls.subscriptions;
      await page.goto(String(links?.cancelSubscription));
      await page.waitForURL(`${demo.url}/billing/subscriptions/${subscription.id}/cancel`);
      await expectAccessible(page);
    });

    it('shows the plan: name, price, period and next charge as the service has them', async () => {
      const subscription = await planOf(customerId);
      await page.goto(`${demo.url}/billing/`);
      const plan = page.locator(`#plan [data-subscription-id="${subscription.id}"]`);
      expect(await plan.locator('h3').textContent()).toBe('Drawdown Pro plan');
      const price = subscription.items[0]?.price.unitPrice;
      // Lowest units as major units, by text: "2900" → "29.00".
      const lowest = (price?.amount ?? '0').padStart(3, '0');
      const major = `${lowest.slice(0, -2)}.${lowest.slice(-2)}`;
      expect((await plan.locator('[data-part="price"]').textContent())?.replace(/[\u00a0\u202f]/g, ' ')).toContain(
        language === 'de' ? major.replace('.', ',') : major,
      );
      expect(await plan.locator('[data-part="period"]').count()).toBe(1);
      const next = await plan.locator('[data-part="next-charge"]').textContent();
      expect(next).toMatch(/\d/);
    });

    it('shows usage past the allowance as an overage, never as “all of it used”', async () => {
      await page.goto(`${demo.url}/billing/`);
      if (who === 'grace') {
        // 1,180 calls against an allowance of 1,000.
        const meter = page.locator('.meter.meter-over');
        expect(await meter.count()).toBeGreaterThan(0);
        const figures = (await meter.first().locator('[data-part="figures"]').textContent()) ?? '';
        expect(figures).toMatch(/1\.180/);
        expect(await meter.first().locator('[data-part="overage"]').textContent()).toBe('180');
      } else {
        expect(await page.locator('.meter [data-part="figures"]').first().textContent()).toMatch(/ of /);
      }
      // Usage by billing period: a chart with the same figures in a table, behind a disclosure.
      const periods = page.locator('.meter').first().locator('[data-part="periods"]');
      expect(await periods.count()).toBe(1);
      await periods.locator('summary').click();
      const current = periods.locator('tr.current-period');
      expect(await current.count()).toBe(1);
      const usedInPeriod = await current.locator('td').nth(1).textContent();
      expect(await page.locator('.meter').first().locator('[data-part="used"]').textContent()).toBe(usedInPeriod);
      expect(await periods.locator('svg rect.bar-used').count()).toBeGreaterThan(0);
      // Long translated figures and the open table still fit the width (no sideways scrolling).
      expect(await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')).toBeLessThanOrEqual(0);
      await expectAccessible(page);
    });

    it('cancels at the end of the period and undoes it', async () => {
      const subscription = await planOf(customerId);
      await page.goto(`${demo.url}/billing/`);
      await page.locator(`a[href$="/subscriptions/${subscription.id}/cancel"]`).click();
      await page.waitForURL(`**/subscriptions/${subscription.id}/cancel`);
      await expectAccessible(page);
      await page.locator(`form[action$="/subscriptions/${subscription.id}/cancel"] button`).click();
      await page.waitForURL(/\/billing\/\?done=cancel/);
      expect(await page.locator('#notice').count()).toBe(1);
      expect((await planOf(customerId)).scheduledChange?.action).toBe('cancel');
      const plan = page.locator(`[data-subscription-id="${subscription.id}"]`);
      expect(await plan.locator('[data-part="scheduled"]').getAttribute('data-action')).toBe('cancel');
      // No next charge is shown for a period that ends the plan: the service previews none.
      const ending = await admin.subscriptions.get(subscription.id, { include: ['next_transaction'] });
      expect((ending as { nextTransaction?: unknown }).nextTransaction).toBeNull();
      const nextCharge = (await plan.locator('[data-part="next-charge"]').textContent()) ?? '';
      expect(nextCharge).not.toMatch(/[$€£]/);
      await expectAccessible(page);

      await plan.locator(`form[action$="/subscriptions/${subscription.id}/keep"] button`).click();
      await page.waitForURL(/done=keep/);
      expect((await planOf(customerId)).scheduledChange).toBeNull();
      expect(await page.locator(`[data-subscription-id="${subscription.id}"] [data-part="scheduled"]`).count()).toBe(0);
    });

    it('pauses at the end of the period and keeps running; resumes a paused plan', async () => {
      const subscription = await planOf(customerId);
      await page.goto(`${demo.url}/billing/`);
      await page.locator(`form[action$="/subscriptions/${subscription.id}/pause"] button`).click();
      await page.waitForURL(/done=pause/);
      expect((await planOf(customerId)).scheduledChange?.action).toBe('pause');
      // The plan says it pauses and shows no next charge (the service previews none).
      const pausing = page.locator(`[data-subscription-id="${subscription.id}"]`);
      expect(await pausing.locator('[data-part="scheduled"]').getAttribute('data-action')).toBe('pause');
      expect(await pausing.locator('[data-part="next-charge"]').textContent()).not.toMatch(/[$€£]/);
      await page.locator(`form[action$="/subscriptions/${subscription.id}/keep-running"] button`).click();
      await page.waitForURL(/done=keep/);
      expect((await planOf(customerId)).scheduledChange).toBeNull();

      // Paused now (by the merchant): the customer resumes it from the portal.
      await admin.subscriptions.pause(subscription.id, { effectiveFrom: 'immediately' });
      await page.goto(`${demo.url}/billing/`);
      expect(await page.locator(`[data-subscription-id="${subscription.id}"]`).getAttribute('data-status')).toBe(
        'paused',
      );
      await expectAccessible(page);
      // Resuming starts a new period and bills it: the confirmation states the charge first.
      await page.locator(`a[href$="/subscriptions/${subscription.id}/resume"]`).click();
      await page.waitForURL(`**/subscriptions/${subscription.id}/resume`);
      await expectAccessible(page);
      const priced = (await admin.subscriptions.get(subscription.id, {
        include: ['recurring_transaction_details'],
      })) as SubscriptionWithIncludes;
      const stated = ((await page.locator('[data-part="resume-charge"]').textContent()) ?? '').replace(
        /[\u00a0\u202f]/g,
        ' ',
      );
      expect(stated).toContain(majorUnits(priced.recurringTransactionDetails?.totals.total ?? '', language));
      expect((await planOf(customerId)).status).toBe('paused');
      const transactionsBefore = await admin.transactions.list({ subscriptionId: [subscription.id] }).next();
      await page.locator(`form[action$="/subscriptions/${subscription.id}/resume"] button`).click();
      await page.waitForURL(/done=resume/);
      expect((await planOf(customerId)).status).toBe('active');
      // What was stated is what was billed.
      const billed = (await admin.transactions.list({ subscriptionId: [subscription.id] }).next()).filter(
        (transaction) => !transactionsBefore.some((old) => old.id === transaction.id),
      );
      expect(billed.map((transaction) => transaction.details.totals.total)).toEqual([
        priced.recurringTransactionDetails?.totals.total,
      ]);
    });

    it('changes plan and quantity after showing the preview, and only on confirmation', async () => {
      const subscription = await planOf(customerId);
      await page.goto(`${demo.url}/billing/subscriptions/${subscription.id}/change`);
      await expectAccessible(page);
      const options = await page
        .locator('#field-price option')
        .evaluateAll((nodes) =>
          nodes.map((node) => ({ value: node.getAttribute('value') ?? '', text: node.textContent ?? '' })),
        );
      const team = options.find((option) => option.text.startsWith('Team'));
      expect(team, JSON.stringify(options)).toBeDefined();
      await page.locator('#field-price').selectOption(String(team?.value));
      await page.locator('#field-quantity').fill('2');
      await page.locator('#field-quantity').press('Enter');
      await page.waitForURL(/\/change\/preview\?/);
      await expectAccessible(page);
      expect(await page.locator('[data-part="plan"]').textContent()).toContain('× 2');
      expect(await page.locator('[data-part="next"]').textContent()).toMatch(/\d/);
      // A plan with allowances changes with the next bill: nothing is said to be charged now.
      expect(await page.locator('[data-part="mode"]').textContent()).toBe(
        language === 'de'
          ? 'Die Änderung wird mit Ihrer nächsten Rechnung für einen ganzen Abrechnungszeitraum abgerechnet.'
          : 'The change is billed with your next bill, for a whole billing period.',
      );
      expect(await page.locator('[data-part="charged-now"]').count()).toBe(0);
      expect(await page.locator('[data-part="breakdown"] tr').count()).toBeGreaterThan(0);
      expect(await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')).toBeLessThanOrEqual(0);
      // Previewing changed nothing.
      expect((await planOf(customerId)).items[0]?.price.id).toBe(subscription.items[0]?.price.id);

      await page.locator('form[action$="/change"] button').click();
      await page.waitForURL(/done=change/);
      const changed = await planOf(customerId);
      expect(changed.items[0]?.price.id).toBe(team?.value);
      expect(changed.items[0]?.quantity).toBe(2);
    });

    it('refuses a plan the subscription cannot move to, changing nothing', async () => {
      const subscription = await planOf(customerId);
      const response = await page.goto(
        `${demo.url}/billing/subscriptions/${subscription.id}/change/preview?price_id=pri_01aaaaaaaaaaaaaaaaaaaaaaaa&quantity=1`,
      );
      expect(response?.status()).toBe(400);
      expect((await planOf(customerId)).items[0]?.price.id).toBe(subscription.items[0]?.price.id);
    });

    it('edits the billing address, business and tax id, refusing an invalid form first', async () => {
      await page.goto(`${demo.url}/billing/#details`);
      await page.locator('#field-country_code').fill('Germany');
      await page.locator('#field-tax_identifier').fill('DE123456789');
      await page.locator('#field-business_name').fill('');
      await page.locator('.details-form button[type="submit"]').click();
      await page.waitForURL(/\/billing\/billing-details$/);
      expect(await page.locator('#field-country_code').getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator('#field-business_name').getAttribute('aria-invalid')).toBe('true');
      await expectAccessible(page);
      expect((await admin.businesses.list(customerId).next()).filter((b) => b.status === 'active')).toEqual([]);

      await page.locator('#field-first_line').fill('1 Analytical Way');
      await page.locator('#field-city').fill('London');
      await page.locator('#field-postal_code').fill('EC1A 1BB');
      await page.locator('#field-country_code').fill('gb');
      await page.locator('#field-business_name').fill('Analytical Engines Ltd');
      await page.locator('#field-tax_identifier').fill('GB123456789');
      await page.locator('.details-form button[type="submit"]').click();
      await page.waitForURL(/done=details/);
      const [address] = await admin.addresses.list(customerId, { status: ['active'] }).next();
      expect(address).toMatchObject({ firstLine: '1 Analytical Way', city: 'London', countryCode: 'GB' });
      const [business] = await admin.businesses.list(customerId, { status: ['active'] }).next();
      expect(business).toMatchObject({ name: 'Analytical Engines Ltd', taxIdentifier: 'GB123456789' });
      expect(await page.locator('#field-city').inputValue()).toBe('London');
    });

    it('sums the outstanding balance of billed and past-due transactions', async () => {
      await page.goto(`${demo.url}/billing/`);
      let open = 0;
      for await (const transaction of admin.transactions.list({
        customerId: [customerId],
        status: ['billed', 'past_due'],
      })) {
        expect(transaction.customerId).toBe(customerId);
        open += 1;
      }
      expect(open).toBeGreaterThan(0);
      expect(await page.locator('#balance .balance-due .amount').count()).toBeGreaterThan(0);
      expect(await page.locator('#balance .hint').textContent()).toContain(String(open));
    });

    it('offers “pay now” exactly where the service gives a checkout', async () => {
      await page.goto(`${demo.url}/billing/`);
      const withCheckout: string[] = [];
      for await (const transaction of admin.transactions.list({
        customerId: [customerId],
        status: ['billed', 'past_due'],
      })) {
        if (transaction.checkout?.url) withCheckout.push(transaction.id);
      }
      const shown = await page
        .locator('#history-rows tr:has(a.pay-link)')
        .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-transaction-id')));
      for (const id of shown) expect(withCheckout).toContain(id);
      if (withCheckout.length === 0) expect(shown).toEqual([]);
    });

    it('lists refunds with a credit note PDF', async () => {
      await page.goto(`${demo.url}/billing/`);
      const adjustments = await admin.adjustments.list({ customerId: [customerId] }).next();
      const rows = page.locator('#adjustments tr[data-adjustment-id]');
      expect(await rows.count()).toBe(adjustments.length);
      if (adjustments.length === 0) return;
      const download = page.waitForEvent('download');
      await rows.first().locator('.credit-note-form button').click();
      const file = await download;
      expect(
        readFileSync(await file.path())
          .subarray(0, 5)
          .toString('latin1'),
      ).toBe('%PDF-');
    });

    it('keeps 30 history rows compact on a phone', async () => {
      if (viewport.width > 500) return;
      // Ada's 36 rows: sign in as her, at phone width.
      const phone = await browser.newContext({ locale: 'en-US', viewport, acceptDownloads: true });
      const phonePage = await phone.newPage();
      const ada = demo.seed.ada.customerId;
      const session = await admin.customerPortalSessions.create(ada);
      await phonePage.goto(session.urls.general.overview);
      await phonePage.waitForURL(`${demo.url}/billing/`);
      expect(await phonePage.locator('#history-rows tr').count()).toBe(30);
      const height = await phonePage.locator('#history-rows').evaluate((node) => node.getBoundingClientRect().height);
      // Cards of label/value pairs took about 287 px a row (8,600 px for 30); two compact lines
      // with the invoice button beside the status take well under 120 px a row.
      expect(height).toBeLessThan(30 * 120);
      const overflow = await phonePage.evaluate('document.documentElement.scrollWidth - window.innerWidth');
      expect(overflow).toBeLessThanOrEqual(0);
      await expectAccessible(phonePage);
      await phone.close();
    });
  });

  it('refuses a tampered or expired session link with a page that shows nothing of the customer', async () => {
    const context = await browser.newContext({ locale: 'en-US' });
    const page = await context.newPage();
    const session = await admin.customerPortalSessions.create(demo.seed.ada.customerId);
    const url = new URL(session.urls.general.overview);
    const token = url.searchParams.get('token') ?? '';
    const tampered = new URL(url);
    tampered.searchParams.set('token', `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`);
    const refused = await page.goto(tampered.href);
    expect(refused?.status()).toBe(404);
    expect(await page.locator('h1').textContent()).toBe('This link is not valid');
    expect(await page.locator('#history, #plan, #usage').count()).toBe(0);
    expect((await context.cookies()).filter((cookie) => cookie.name.includes('portal_session'))).toEqual([]);
    await expectAccessible(page);

    // An hour later on the sandbox clock, the untouched link has expired.
    await admin.sandboxClock.advance({ seconds: 3_601 });
    const expired = await page.goto(url.href);
    expect(expired?.status()).toBe(410);
    expect(await page.locator('h1').textContent()).toBe('This link has expired');
    expect(await page.locator('#history, #plan, #usage').count()).toBe(0);
    expect((await context.cookies()).filter((cookie) => cookie.name.includes('portal_session'))).toEqual([]);
    await context.close();
  });
});
