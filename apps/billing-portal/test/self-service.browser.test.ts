/**
 * The self-service portal in real headless Chromium against a real billing service and the demo
 * (ADR 1440, 1441), at desktop width as Ada (English) and at phone width as Grace (German, her
 * stored locale): a customer portal session link signs in, a tampered or expired one shows a
 * refusal and nothing else; the plan summary; cancel at period end and undo; pause and keep
 * running, resume a paused plan; change plan and quantity with the preview before confirming;
 * billing address, business and tax id; refunds with their credit note PDF; the outstanding
 * balance; usage past the allowance, stated as not billed; pay links exactly where the service
 * offers a checkout, leading back to the portal; the card on file; a cancellation's reason, stored
 * and shown; plans as cards; the seller's name and logo; no clipped history row at 390 and 320 px;
 * a customer with no plan picking one and paying through checkout (issue 35, ADRs 0806-0814).
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
/** A 32 × 32 PNG, the seller's logo. */
const LOGO_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAIAAAD8GO2jAAAAKklEQVR4nGOQ9btBU8QwasGoBaMWjFowasGoBaMWjFowasGoBaMWDBULAKr5DEzgCxorAAAAAElFTkSuQmCC';
const SELLER = 'Analytical Engines plc';

/** History rows whose status runs under (overlaps) one of the row's buttons or links. */
const CLIPPED_ROWS = `(() => {
  const clipped = [];
  for (const row of document.querySelectorAll('#history-rows tr')) {
    const status = row.querySelector('.status').getBoundingClientRect();
    for (const control of row.querySelectorAll('.invoice-cell a, .invoice-cell button')) {
      const box = control.getBoundingClientRect();
      const apart = status.right <= box.left || box.right <= status.left || status.bottom <= box.top || box.bottom <= status.top;
      if (box.width > 0 && !apart) clipped.push(row.getAttribute('data-transaction-id'));
    }
  }
  return clipped;
})()`;

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
      // Enough of Ada's purchases for a full first page of 30 rows, fewer to seed than the demo's 32.
      seed: { adaPurchases: 28 },
      log: () => {},
    });
    harness.setPortalUrl(`${demo.url}/billing`);
    // The seller the portal's header names (ADR 0810).
    await admin.sellerDetails.update({ legalName: SELLER, logo: { data: LOGO_PNG } });
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

      // The seller's name and logo from seller details, the logo served from the portal's origin (ADR 0810).
      expect(await page.locator('header [data-part="seller"]').textContent()).toContain(SELLER);
      const logo = page.locator('header img.seller-logo');
      expect(await logo.getAttribute('alt')).toBe(SELLER);
      expect(await logo.evaluate((node) => (node as unknown as { naturalWidth: number }).naturalWidth)).toBe(32);

      // The card on file: the newest saved card's brand, last four and expiry (ADR 0807).
      const [newest] = (await admin.paymentMethods.list(customerId).next()).sort((left, right) =>
        right.savedAt.localeCompare(left.savedAt),
      );
      const card = (await page.locator('#card [data-part="card"]').textContent()) ?? '';
      expect(card).toContain(`Visa`);
      expect(card).toContain(String(newest?.card?.last4));
      expect(await page.locator('#card [data-part="card-expiry"]').textContent()).toContain(
        String(newest?.card?.expiryYear),
      );
      const update = page.locator(`#card a[href$="/subscriptions/${subscription.id}/payment-method"]`);
      expect(await update.count()).toBe(1);
      if (who === 'ada') {
        // The card update's checkout leads back to the portal (ADRs 1112, 0813).
        await update.click();
        await page.waitForURL(/\/checkout\?/);
        expect(new URL(page.url()).searchParams.get('return_url')).toBe(`${demo.url}/billing/`);
        await page.goto(`${demo.url}/billing/`);
      }
      // The page with these parts was checked with axe on signing in.
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
        // What the overage costs and whether the next bill includes it (ADR 0811).
        expect(await meter.first().locator('[data-part="overage-note"]').textContent()).toBe(
          '180 calls über dem Kontingent: kostenlos, und Ihre nächste Rechnung enthält es nicht.',
        );
      } else {
        expect(await page.locator('.meter [data-part="figures"]').first().textContent()).toMatch(/ of /);
        expect(await page.locator('[data-part="overage-note"]').count()).toBe(0);
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
      // A reason from the list and a comment (ADR 0806), stored with the subscription.
      await page.locator('input[name="reason"][value="too_expensive"]').check();
      await page.locator('#field-comment').fill('Over budget this year');
      await page.locator(`form[action$="/subscriptions/${subscription.id}/cancel"] button`).click();
      await page.waitForURL(/\/billing\/\?done=cancel/);
      expect(await page.locator('#notice').count()).toBe(1);
      expect((await planOf(customerId)).scheduledChange?.action).toBe('cancel');
      expect(await admin.subscriptions.cancellationReason(subscription.id)).toMatchObject({
        reason: 'too_expensive',
        comment: 'Over budget this year',
      });
      const plan = page.locator(`[data-subscription-id="${subscription.id}"]`);
      expect(await plan.locator('[data-part="scheduled"]').getAttribute('data-action')).toBe('cancel');
      expect(await plan.locator('[data-part="cancellation-reason"]').textContent()).toBe(
        language === 'de' ? 'Ihr angegebener Grund: Es ist zu teuer' : 'Reason you gave: It costs too much',
      );
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
      // Taking the cancellation back takes its reason with it.
      expect((await admin.subscriptions.cancellationReason(subscription.id)).reason).toBeNull();
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
      // Each plan a card with its price and allowances (ADR 0808).
      const cards = await page.locator('.plan-option').evaluateAll((nodes) =>
        nodes.map((node) => ({
          value: node.getAttribute('data-price-id') ?? '',
          name: node.querySelector('.plan-card-name')?.textContent ?? '',
          price: node.querySelector('[data-part="card-price"]')?.textContent ?? '',
          allowances: [...node.querySelectorAll('.allowances li')].map((item) => item.textContent ?? ''),
          checked: (node.querySelector('input') as unknown as { checked: boolean }).checked,
        })),
      );
      const team = cards.find((card) => card.name.startsWith('Team'));
      expect(team, JSON.stringify(cards)).toBeDefined();
      expect(cards.find((card) => card.checked)?.value).toBe(subscription.items[0]?.price.id);
      expect(team?.price.replace(/[\u00a0\u202f]/g, ' ')).toMatch(/\d/);
      expect(team?.allowances.join(' ')).toMatch(
        language === 'de' ? /calls pro Abrechnungszeitraum/ : /calls included/,
      );
      expect(await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')).toBeLessThanOrEqual(0);
      await page.locator(`.plan-option[data-price-id="${team?.value}"] label`).click();
      await page.locator('#field-quantity').fill('2');
      await page.locator('#field-quantity').press('Enter');
      await page.waitForURL(/\/change\/preview\?/);
      await expectAccessible(page);
      // The preview stands above the button that confirms it.
      const statementTop = await page
        .locator('[data-part="statement"]')
        .evaluate((node) => node.getBoundingClientRect().top);
      const confirmTop = await page
        .locator('form[action$="/change"] button')
        .evaluate((node) => node.getBoundingClientRect().top);
      expect(statementTop).toBeLessThan(confirmTop);
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

    it('edits name, email, address (a country from a list in the page’s language), business and tax id, refusing an invalid form first', async () => {
      await page.goto(`${demo.url}/billing/#details`);
      // The country list is named in the customer's language (ADR 0809).
      expect(await page.locator('#field-country_code option[value="GB"]').textContent()).toBe(
        language === 'de' ? 'Vereinigtes Königreich' : 'United Kingdom',
      );
      await page.locator('#field-country_code').selectOption('');
      await page.locator('#field-email').fill('not an address');
      await page.locator('#field-tax_identifier').fill('DE123456789');
      await page.locator('#field-business_name').fill('');
      await page.locator('.details-form button[type="submit"]').click();
      await page.waitForURL(/\/billing\/billing-details$/);
      expect(await page.locator('#field-country_code').getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator('#field-email').getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator('#field-business_name').getAttribute('aria-invalid')).toBe('true');
      await expectAccessible(page);
      expect((await admin.businesses.list(customerId).next()).filter((b) => b.status === 'active')).toEqual([]);
      const email = `${who}.billing@example.com`;
      expect((await admin.customers.get(customerId)).email).not.toBe(email);

      await page.locator('#field-name').fill(`${who} Billing`);
      await page.locator('#field-email').fill(email);
      await page.locator('#field-first_line').fill('1 Analytical Way');
      await page.locator('#field-city').fill('London');
      await page.locator('#field-postal_code').fill('EC1A 1BB');
      await page.locator('#field-country_code').selectOption('GB');
      await page.locator('#field-business_name').fill('Analytical Engines Ltd');
      await page.locator('#field-tax_identifier').fill('GB123456789');
      await page.locator('.details-form button[type="submit"]').click();
      await page.waitForURL(/done=details/);
      expect(await admin.customers.get(customerId)).toMatchObject({ name: `${who} Billing`, email });
      const [address] = await admin.addresses.list(customerId, { status: ['active'] }).next();
      expect(address).toMatchObject({ firstLine: '1 Analytical Way', city: 'London', countryCode: 'GB' });
      const [business] = await admin.businesses.list(customerId, { status: ['active'] }).next();
      expect(business).toMatchObject({ name: 'Analytical Engines Ltd', taxIdentifier: 'GB123456789' });
      expect(await page.locator('#field-city').inputValue()).toBe('London');
      expect(await page.locator('#field-country_code').inputValue()).toBe('GB');
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
      // Each leads back to the portal once paid (ADRs 1112, 0813).
      const hrefs = await page
        .locator('#history-rows a.pay-link')
        .evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
      for (const href of hrefs) expect(new URL(href).searchParams.get('return_url')).toBe(`${demo.url}/billing/`);
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

    it('keeps 30 history rows compact at 390 and 320 px, nothing clipped', async () => {
      if (who !== 'ada') return;
      // Ada's 36 rows, on this page resized to phone widths (no second sign-in).
      await page.goto(`${demo.url}/billing/`);
      try {
        // At 320 px descriptions and statuses wrap onto a second line more often.
        for (const [width, rowBudget] of [
          [390, 120],
          [320, 150],
        ] as const) {
          await page.setViewportSize({ width, height: 844 });
          expect(await page.locator('#history-rows tr').count()).toBe(30);
          const height = await page.locator('#history-rows').evaluate((node) => node.getBoundingClientRect().height);
          // Cards of label/value pairs took about 287 px a row (8,600 px for 30); two compact lines
          // with the invoice button beside the status take well under 120 px a row at 390 px.
          expect(height, `${width} px`).toBeLessThan(30 * rowBudget);
          const overflow = await page.evaluate('document.documentElement.scrollWidth - window.innerWidth');
          expect(overflow, `${width} px`).toBeLessThanOrEqual(0);
          // "Awaiting payment" never runs under "Download PDF" or "Pay now" (ADR 0814).
          expect(await page.locator('#history-rows tr[data-status="billed"]').count()).toBeGreaterThan(0);
          expect(await page.evaluate(CLIPPED_ROWS), `${width} px`).toEqual([]);
        }
        await expectAccessible(page);
      } finally {
        await page.setViewportSize(viewport);
      }
    });
  });

  it('lets a customer with no plan pick one as a card at 320 px, pay through checkout and come back to it', async () => {
    const customer = await admin.customers.create({ email: 'lin@example.com', name: 'Lin' });
    await admin.addresses.create(customer.id, { countryCode: 'US', postalCode: '10001', region: 'NY' });
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 320, height: 700 } });
    const page = await context.newPage();
    try {
      const session = await admin.customerPortalSessions.create(customer.id);
      await page.goto(session.urls.general.overview);
      await page.waitForURL(`${demo.url}/billing/`);
      // The host's plans as cards, each with its price and allowances (ADR 0812).
      const cards = page.locator('[data-part="offers"] .plan-card');
      expect(await cards.count()).toBe(demo.seed.offerPriceIds.length);
      const pro = page.locator(`[data-part="offers"] .plan-card[data-price-id="${demo.seed.offerPriceIds[0]}"]`);
      expect(await pro.locator('[data-part="card-price"]').textContent()).toMatch(/^\$\d+\.\d{2} every month$/);
      expect(await pro.locator('.allowances li').allTextContents()).toContain('1,000 calls included each period');
      expect(await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')).toBeLessThanOrEqual(0);
      await expectAccessible(page);

      await pro.locator('button').click();
      await page.waitForURL(`${demo.url}/billing/subscribe`);
      await expectAccessible(page);
      const href = (await page.locator('[data-part="checkout-link"]').getAttribute('href')) ?? '';
      const returnUrl = `${demo.url}/billing/?done=subscribe`;
      expect(new URL(href).searchParams.get('return_url')).toBe(returnUrl);
      const transactionId = new URL(href).searchParams.get('_ptxn') ?? '';
      const transaction = await admin.transactions.get(transactionId);
      expect(transaction).toMatchObject({ customerId: customer.id, collectionMode: 'automatic' });
      expect(transaction.items.map((item) => item.price.id)).toEqual([demo.seed.offerPriceIds[0]]);

      // The hosted checkout takes the payment (simulated here, the sandbox's card), then leads back.
      await page.locator('[data-part="checkout-link"]').click();
      await page.waitForURL(/\/checkout\?/);
      await admin.transactions.simulatePayment(transactionId, 'success');
      await page.reload();
      await page.locator(`a[href="${returnUrl}"]`).click();
      await page.waitForURL(returnUrl);
      expect(await page.locator('#notice').textContent()).toBe(
        'Thank you. Your plan starts as soon as the payment is confirmed.',
      );
      const [subscription] = await admin.subscriptions.list({ customerId: [customer.id], status: ['active'] }).next();
      expect(subscription?.items[0]?.price.id).toBe(demo.seed.offerPriceIds[0]);
      expect(await page.locator(`#plan [data-subscription-id="${subscription?.id}"]`).count()).toBe(1);
      expect(await page.locator('[data-part="offers"]').count()).toBe(0);
      // A second plan is refused: the customer changes the one they have.
      const again = await page.request.post(`${demo.url}/billing/subscribe`, {
        form: {
          price_id: String(demo.seed.offerPriceIds[1]),
          csrf_token: (await page.locator('#portal').getAttribute('data-csrf')) ?? '',
        },
        headers: { origin: demo.url },
      });
      expect(again.status()).toBe(400);
    } finally {
      await context.close();
    }
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
