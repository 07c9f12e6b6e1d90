/**
 * The SDK's `changeStatement` against a real service, on both engines, on a frozen wall clock
 * (time moves only through the account's sandbox clock, so a preview and its change are priced at
 * the same instant). The statement the billing portal shows is read from the preview; these tests
 * hold it to what the change then does (ADR 1448):
 * - over every proration mode and random changes: "charged now" is the immediate transaction's
 *   grand total, "added to the next bill" is the change of `next_transaction`'s total, and the
 *   credit balance moves by what was credited less what was drawn, to the unit;
 * - a credit for unused time gives back the tax paid on the original charge, not the rate of the
 *   address the subscription bills today (ADR 1447);
 * - `next_transaction` is null while a pause or a cancellation is scheduled, as the public API
 *   documents, and the recurring price is still shown.
 */
import {
  changeStatement,
  Drawdown,
  type ProrationBillingMode,
  type SubscriptionUpdatePreview,
  type SubscriptionWithIncludes,
  type Transaction,
} from '@drawdown/sdk';
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { fc } from '@fast-check/vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unique } from '../support/fixtures.js';

const T0 = Date.parse('2026-03-01T00:00:00.000Z');
const DAY_SECONDS = 86_400;
const MODES: readonly ProrationBillingMode[] = [
  'prorated_immediately',
  'prorated_next_billing_period',
  'full_immediately',
  'full_next_billing_period',
  'do_not_bill',
];
const AMOUNTS = ['1000', '2999', '333'] as const;

describe.each(ENGINES)('%s: change statements say what the change does', (engine) => {
  let harness: BillingHarness;
  let drawdown: Drawdown;
  let prices: string[];

  beforeAll(async () => {
    harness = await startBillingHarness({ engine, clock: { now: () => T0 } });
    drawdown = new Drawdown(harness.sandboxKey, { baseUrl: harness.sandboxUrl });
    await drawdown.taxSettings.update({
      rateSource: 'account',
      defaultTaxMode: 'external',
      defaultRate: '0.2',
      countryRates: [
        { countryCode: 'US', rate: '0.08875' },
        { countryCode: 'GB', rate: '0.2' },
      ],
    });
    const product = await drawdown.products.create({ name: 'Plan', taxCategory: 'standard' });
    prices = [];
    for (const amount of [...AMOUNTS, '4900']) {
      const price = await drawdown.prices.create({
        productId: product.id,
        description: `Monthly ${amount}`,
        unitPrice: { amount, currencyCode: 'USD' },
        billingCycle: { interval: 'month', frequency: 1 },
        quantity: { minimum: 1, maximum: 10 },
      });
      prices.push(price.id);
    }
  });
  afterAll(() => harness.close());

  async function subscribe(items: readonly { priceId: string; quantity: number }[], country = 'US') {
    const customer = await drawdown.customers.create({ email: `${unique('buyer')}@example.com` });
    const address = await drawdown.addresses.create(customer.id, { countryCode: country });
    const checkout = await drawdown.transactions.create({ customerId: customer.id, addressId: address.id, items });
    const paid = await drawdown.transactions.simulatePayment(checkout.id, 'success');
    return { customerId: customer.id, subscriptionId: String(paid.subscriptionId) };
  }

  function withIncludes(subscriptionId: string): Promise<SubscriptionWithIncludes> {
    return drawdown.subscriptions.get(subscriptionId, {
      include: ['next_transaction', 'recurring_transaction_details'],
    }) as Promise<SubscriptionWithIncludes>;
  }

  async function changeCharges(subscriptionId: string): Promise<Transaction[]> {
    return drawdown.transactions
      .list({ subscriptionId: [subscriptionId], origin: ['subscription_update'], perPage: 50 })
      .next();
  }

  async function availableCredit(customerId: string): Promise<bigint> {
    const response = await fetch(`${harness.sandboxUrl}/customers/${customerId}/credit-balances?currency_code=USD`, {
      headers: { authorization: `Bearer ${harness.sandboxKey}` },
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: { balance: { available: string } }[] };
    return BigInt(body.data[0]?.balance.available ?? '0');
  }

  const itemSet = fc
    .uniqueArray(fc.nat({ max: AMOUNTS.length - 1 }), { minLength: 1, maxLength: AMOUNTS.length })
    .chain((indexes) =>
      fc.tuple(...indexes.map((index) => fc.integer({ min: 1, max: 3 }).map((quantity) => ({ index, quantity })))),
    );
  const change = fc.record({ items: itemSet, mode: fc.constantFrom(...MODES), days: fc.integer({ min: 0, max: 9 }) });

  it('over every proration mode, the statement equals the charge, the next bill and the credit, to the unit', async () => {
    const seen = new Set<string>();
    const property = fc.asyncProperty(
      itemSet,
      fc.array(change, { minLength: 1, maxLength: 2 }),
      async (initial, changes) => {
        const requested = (items: readonly { index: number; quantity: number }[]) =>
          items.map((item) => ({ priceId: prices[item.index] ?? '', quantity: item.quantity }));
        const { customerId, subscriptionId } = await subscribe(requested(initial));
        for (const step of changes) {
          if (step.days > 0) await drawdown.sandboxClock.advance({ seconds: step.days * DAY_SECONDS });
          const input = { items: requested(step.items), prorationBillingMode: step.mode };
          const before = await withIncludes(subscriptionId);
          const creditBefore = await availableCredit(customerId);
          const chargesBefore = await changeCharges(subscriptionId);
          const preview = (await drawdown.subscriptions.previewUpdate(
            subscriptionId,
            input,
          )) as SubscriptionUpdatePreview;
          const statement = changeStatement(before, preview, step.mode);
          await drawdown.subscriptions.update(subscriptionId, input);

          const issued = (await changeCharges(subscriptionId)).filter(
            (charge) => !chargesBefore.some((old) => old.id === charge.id),
          );
          expect(issued).toHaveLength(preview.immediateTransaction ? 1 : 0);
          const [charge] = issued;
          const total = BigInt(charge?.details.totals.total ?? '0');
          expect(statement.chargedNow).toBe(total > 0n ? BigInt(charge?.details.totals.grandTotal ?? '0') : 0n);
          expect(statement.creditedNow).toBe(BigInt(charge?.details.totals.creditToBalance ?? '0'));
          expect(statement.creditApplied).toBe(total > 0n ? BigInt(charge?.details.totals.credit ?? '0') : 0n);
          const after = await withIncludes(subscriptionId);
          expect(statement.nextBillChange).toBe(
            BigInt(after.nextTransaction?.details.totals.total ?? '0') -
              BigInt(before.nextTransaction?.details.totals.total ?? '0'),
          );
          expect(await availableCredit(customerId)).toBe(
            creditBefore + statement.creditedNow - statement.creditApplied,
          );
          // The lines stated are the change's own: they sum to what moves now, or to what the next bill gains from them.
          const stated = statement.lines.reduce(
            (sum, line) => sum + (line.kind === 'credit' ? -line.amount : line.amount),
            0n,
          );
          if (statement.when === 'now') expect(stated).toBe(total);
          if (statement.when === 'never') expect(statement.lines).toEqual([]);
          seen.add(`${statement.when}:${statement.chargedNow > 0n}:${statement.creditedNow > 0n}`);
        }
      },
    );
    // Two fixed examples besides the random runs: an upgrade charged now and a downgrade credited
    // now, and a change left for the next bill.
    const one = [{ index: 0, quantity: 1 }];
    await fc.assert(property, {
      numRuns: engine === 'sqlite' ? 6 : 4,
      examples: [
        [
          one,
          [
            { items: [{ index: 1, quantity: 2 }], mode: 'prorated_immediately', days: 3 },
            { items: [{ index: 2, quantity: 1 }], mode: 'full_immediately', days: 1 },
          ],
        ],
        [one, [{ items: [{ index: 1, quantity: 1 }], mode: 'prorated_next_billing_period', days: 5 }]],
      ],
    });
    // The runs reached a charge now, a credit now and a next-bill change (the property held on each).
    expect([...seen].some((key) => key.startsWith('now:true'))).toBe(true);
    expect(seen.has('now:false:true')).toBe(true);
    expect([...seen].some((key) => key.startsWith('next_bill'))).toBe(true);
  });

  it('credits unused time with the tax paid on it, not the rate of the address billed today', async () => {
    const [, , , fortyNine] = prices;
    const [ten] = prices;
    const { customerId, subscriptionId } = await subscribe([{ priceId: fortyNine ?? '', quantity: 1 }]);
    const [checkout] = await drawdown.transactions.list({ subscriptionId: [subscriptionId], perPage: 5 }).next();
    // 49.00 plus New York's 8.875% (the account's US rate): 53.35 paid.
    expect(checkout?.details.totals.grandTotal).toBe('5335');
    const london = await drawdown.addresses.create(customerId, { countryCode: 'GB' });
    await drawdown.subscriptions.update(subscriptionId, { addressId: london.id });

    const input = {
      items: [{ priceId: ten ?? '', quantity: 1 }],
      prorationBillingMode: 'full_immediately' as const,
    };
    const before = await withIncludes(subscriptionId);
    const preview = (await drawdown.subscriptions.previewUpdate(subscriptionId, input)) as SubscriptionUpdatePreview;
    const lines = preview.immediateTransaction?.details.lineItems ?? [];
    expect(lines.map((line) => [line.quantity, line.taxRate, line.totals.total])).toEqual([
      [-1, '0.08875', '-5335'],
      [1, '0.2', '1200'],
    ]);
    const statement = changeStatement(before, preview, 'full_immediately');
    expect(statement).toMatchObject({ chargedNow: 0n, creditedNow: 4135n });
    expect(statement.taxes).toEqual([
      { rate: '0.08875', amount: -435n },
      { rate: '0.2', amount: 200n },
    ]);
    await drawdown.subscriptions.update(subscriptionId, input);
    expect(await availableCredit(customerId)).toBe(4135n);
  });

  it('shows no next transaction while a pause or a cancellation is scheduled, and the recurring price still', async () => {
    const [price] = prices;
    for (const action of ['pause', 'cancel'] as const) {
      const { subscriptionId } = await subscribe([{ priceId: price ?? '', quantity: 2 }]);
      expect((await withIncludes(subscriptionId)).nextTransaction?.details.totals.total).toBe('2178');
      if (action === 'pause') await drawdown.subscriptions.pause(subscriptionId);
      else await drawdown.subscriptions.cancel(subscriptionId);
      const scheduled = await withIncludes(subscriptionId);
      expect(scheduled.scheduledChange?.action).toBe(action);
      expect(scheduled.nextTransaction).toBeNull();
      expect(scheduled.recurringTransactionDetails?.totals.total).toBe('2178');
      // Dropping the scheduled change brings the next charge back.
      if (action === 'pause') await drawdown.subscriptions.resume(subscriptionId);
      else await drawdown.subscriptions.update(subscriptionId, { scheduledChange: null });
      expect((await withIncludes(subscriptionId)).nextTransaction?.details.totals.total).toBe('2178');
    }
  });
});
