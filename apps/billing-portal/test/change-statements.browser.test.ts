/**
 * The portal's change preview for each proration mode a host may choose (`selfService.changeBilling`,
 * ADR 1448), in real headless Chromium against a real billing service on a frozen wall clock, at
 * desktop and phone widths: the mode's own sentence, one sentence for each sum of money that moves
 * (and none for a sum that does not), every figure equal to the SDK's `changeStatement` of the
 * service's preview, and after confirming, the charge made equal to the charge stated. axe finds
 * no violations and nothing is wider than the screen.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  changeStatement,
  Drawdown,
  formatAmount,
  type ProrationBillingMode,
  type SubscriptionWithIncludes,
} from '@drawdown/sdk';
import { axeViolations, type BillingHarness, chromiumLaunchOptions, startBillingHarness } from '@drawdown/testkit';
import { serve } from '@hono/node-server';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBillingPortal } from '../src/index.js';

const T0 = Date.parse('2026-03-01T00:00:00.000Z');
const MODES: readonly ProrationBillingMode[] = [
  'prorated_immediately',
  'full_immediately',
  'prorated_next_billing_period',
  'full_next_billing_period',
  'do_not_bill',
];
const SENTENCES: Readonly<Record<ProrationBillingMode, RegExp>> = {
  prorated_immediately: /^The change is billed now, for the rest of this billing period \(.+ to .+\)\.$/,
  full_immediately: /^The change is billed now, for a whole billing period, without proration\.$/,
  prorated_next_billing_period: /^The change is billed with your next bill, for the rest of this billing period/,
  full_next_billing_period: /^The change is billed with your next bill, for a whole billing period\.$/,
  do_not_bill: /^The change is not billed: nothing is charged or credited/,
};
const DESKTOP = { width: 1100, height: 900 };
const PHONE = { width: 320, height: 700 };
/** Every mode at desktop width; at the narrowest phone width, a mode that charges now and one that bills nothing. */
const CASES = [
  ...MODES.map((mode) => ({ mode, width: 'desktop', viewport: DESKTOP })),
  { mode: 'prorated_immediately' as const, width: 'phone', viewport: PHONE },
  { mode: 'do_not_bill' as const, width: 'phone', viewport: PHONE },
];

describe('the change preview states each proration mode’s money, in Chromium', () => {
  let harness: BillingHarness;
  let admin: Drawdown;
  let browser: Browser;
  let server: Server;
  let baseUrl: string;
  let plans: { basic: string; pro: string };

  beforeAll(async () => {
    harness = await startBillingHarness({ engine: 'sqlite', clock: { now: () => T0 } });
    admin = new Drawdown(harness.sandboxKey, { baseUrl: harness.sandboxUrl });
    await admin.taxSettings.update({ rateSource: 'account', defaultTaxMode: 'external', defaultRate: '0.2' });
    const product = await admin.products.create({ name: 'Analytics', taxCategory: 'standard' });
    const price = async (amount: string, name: string) =>
      (
        await admin.prices.create({
          productId: product.id,
          name,
          description: name,
          unitPrice: { amount, currencyCode: 'USD' },
          billingCycle: { interval: 'month', frequency: 1 },
          quantity: { minimum: 1, maximum: 10 },
        })
      ).id;
    plans = { basic: await price('1000', 'Basic'), pro: await price('3100', 'Pro') };
    // One portal per mode, each under its own path; the host's session is a cookie naming the customer.
    const portals = new Map(
      MODES.map((mode) => [
        mode,
        createBillingPortal({
          client: admin,
          basePath: `/${mode}`,
          resolveCustomerId: async (request) => /customer=(ctm_\w+)/.exec(request.headers.get('cookie') ?? '')?.[1],
          selfService: { changeBilling: mode },
          logError: () => {},
        }),
      ]),
    );
    server = serve({
      fetch: (request: Request) => {
        const mode = new URL(request.url).pathname.split('/')[1] as ProrationBillingMode;
        const portal = portals.get(mode);
        return portal ? portal(request) : Promise.resolve(new Response('not found', { status: 404 }));
      },
      port: 0,
      hostname: '127.0.0.1',
    }) as Server;
    await new Promise<void>((resolve) => (server.listening ? resolve() : server.once('listening', () => resolve())));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch(chromiumLaunchOptions());
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await harness?.close();
  });

  async function subscriber(): Promise<{ customerId: string; subscriptionId: string }> {
    const customer = await admin.customers.create({
      email: `statement-${Math.random().toString(36).slice(2)}@example.com`,
    });
    const address = await admin.addresses.create(customer.id, { countryCode: 'US' });
    const checkout = await admin.transactions.create({
      customerId: customer.id,
      addressId: address.id,
      items: [{ priceId: plans.basic, quantity: 1 }],
    });
    const paid = await admin.transactions.simulatePayment(checkout.id, 'success');
    return { customerId: customer.id, subscriptionId: String(paid.subscriptionId) };
  }

  const usd = (amount: bigint) => formatAmount(amount.toString(), 'USD', 'en-US');

  it.each(CASES)('$mode at $width width: the mode’s sentence and only the money that moves, as charged', async ({
    mode,
    viewport,
  }) => {
    const { customerId, subscriptionId } = await subscriber();
    // Ten days into a 31-day period: prorated lines bill 21/31 of it.
    await admin.sandboxClock.advance({ seconds: 10 * 86_400 });
    const context = await browser.newContext({ viewport, locale: 'en-US' });
    try {
      await context.addCookies([{ name: 'customer', value: customerId, url: baseUrl }]);
      const page = await context.newPage();
      const before = (await admin.subscriptions.get(subscriptionId, {
        include: ['next_transaction', 'recurring_transaction_details'],
      })) as SubscriptionWithIncludes;
      const input = { items: [{ priceId: plans.pro, quantity: 2 }], prorationBillingMode: mode };
      const statement = changeStatement(before, await admin.subscriptions.previewUpdate(subscriptionId, input), mode);

      await page.goto(
        `${baseUrl}/${mode}/subscriptions/${subscriptionId}/change/preview?price_id=${plans.pro}&quantity=2`,
      );
      expect(await page.locator('[data-part="mode"]').textContent()).toMatch(SENTENCES[mode]);
      const parts = await page
        .locator('[data-part="statement"] li')
        .evaluateAll((items) => items.map((item) => [item.getAttribute('data-part'), item.textContent]));
      const expected: [string, string][] = [];
      if (statement.chargedNow > 0n) {
        expected.push(['charged-now', `Charged now to your payment method: ${usd(statement.chargedNow)}.`]);
      }
      if (statement.nextBillChange > 0n && statement.nextBill) {
        expect(parts.find(([part]) => part === 'added-next')?.[1]).toContain(usd(statement.nextBillChange));
        expected.push(['added-next', parts.find(([part]) => part === 'added-next')?.[1] ?? '']);
      }
      if (expected.length === 0) expected.push(['nothing-now', 'Nothing is charged now.']);
      expect(parts).toEqual(expected);
      // The modes bill what they say: now, with the next bill, or nothing at all.
      if (mode.endsWith('immediately')) expect(statement.chargedNow).toBeGreaterThan(0n);
      if (mode.endsWith('next_billing_period')) expect(statement.chargedNow).toBe(0n);
      if (mode === 'do_not_bill') expect(await page.locator('[data-part="breakdown"]').count()).toBe(0);
      else expect(await page.locator('[data-part="breakdown"] tr[data-kind="credit"]').count()).toBe(1);
      expect(await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')).toBeLessThanOrEqual(0);
      expect(await axeViolations(page), `${mode} preview`).toEqual([]);

      await page.locator('form[action$="/change"] button').click();
      await page.waitForURL(/done=change/);
      const charges = await admin.transactions
        .list({ subscriptionId: [subscriptionId], origin: ['subscription_update'] })
        .next();
      expect(charges.map((charge) => BigInt(charge.details.totals.grandTotal))).toEqual(
        statement.chargedNow > 0n ? [statement.chargedNow] : [],
      );
      const after = (await admin.subscriptions.get(subscriptionId, {
        include: ['next_transaction'],
      })) as SubscriptionWithIncludes;
      expect(
        BigInt(after.nextTransaction?.details.totals.total ?? '0') -
          BigInt(before.nextTransaction?.details.totals.total ?? '0'),
      ).toBe(statement.nextBillChange);
    } finally {
      await context.close();
    }
  });
});
