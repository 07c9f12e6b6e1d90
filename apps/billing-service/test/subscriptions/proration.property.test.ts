/**
 * Properties of subscription changes, for random change sequences on a real store of each
 * engine, with a clock the test moves:
 * - every preview equals the change it previews (amounts, lines, the subscription after);
 * - a change and its exact reversal at the same instant net to zero;
 * - no prorated line exceeds the same line for a full period;
 * - the sum of a subscription's transactions equals what its price history owes, to within the
 *   half unit per prorated line that rounding once per line allows (ADR 1000).
 */
import {
  type Account,
  createAccount,
  createAddress,
  createCustomer,
  createPrice,
  createProduct,
  type OperationContext,
  type ProrationBillingMode,
  previewSubscriptionUpdate,
  type Scope,
  startSubscription,
  type Transaction,
  updateSubscription,
  updateTaxSettings,
} from '@drawdown/billing-core';
import { type CoreServices, composeServices } from '@drawdown/billing-service';
import { createTestStorage, ENGINES, fixedClock, type TestStorage } from '@drawdown/testkit';
import { fc, test } from '@fast-check/vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const DAY_MS = 86_400_000;
const START = Date.parse('2026-01-31T09:30:00.000Z');
const AMOUNTS = ['1000', '2999', '333'] as const;
const IMMEDIATE: readonly ProrationBillingMode[] = ['prorated_immediately', 'full_immediately'];
const ALL_MODES: readonly ProrationBillingMode[] = [
  'prorated_immediately',
  'prorated_next_billing_period',
  'full_immediately',
  'full_next_billing_period',
  'do_not_bill',
];

interface Items {
  readonly priceIndex: number;
  readonly quantity: number;
}

const itemSet: fc.Arbitrary<Items[]> = fc
  .uniqueArray(fc.nat({ max: AMOUNTS.length - 1 }), { minLength: 1, maxLength: AMOUNTS.length })
  .chain((indexes) =>
    fc.tuple(
      ...indexes.map((priceIndex) => fc.integer({ min: 1, max: 5 }).map((quantity) => ({ priceIndex, quantity }))),
    ),
  );

/** Milliseconds into the period: whole days or arbitrary instants. */
const offset = fc.oneof(
  fc.integer({ min: 0, max: 27 }).map((days) => days * DAY_MS),
  fc.integer({ min: 0, max: 27 * DAY_MS }),
);

function amountsOf(transaction: Transaction) {
  const { balance: _balance, fee: _fee, earnings: _earnings, ...totals } = transaction.details.totals;
  return {
    totals,
    lines: transaction.details.lineItems.map(({ id: _id, ...line }) => line),
    items: transaction.items,
  };
}

describe.each(ENGINES)('%s: properties of subscription changes', (engine) => {
  let storage: TestStorage;
  let services: CoreServices;

  beforeAll(async () => {
    storage = await createTestStorage(engine);
    services = await composeServices({ dataDir: storage.dataDir, databaseUrl: storage.databaseUrl });
  });
  afterAll(async () => {
    await services.store.close();
    await storage.dispose();
  });

  /** An account with three monthly prices, a taxed customer with an address, and a subscription. */
  async function world(initial: readonly Items[], taxRate: string) {
    const clock = fixedClock(START);
    const account: Account = await createAccount(services, { name: 'Proration property', earlyAccess: true });
    const scope: Scope = { accountId: account.id, environment: 'sandbox' };
    const context: OperationContext = {
      store: services.store,
      ids: services.ids,
      clock,
      scope,
      account,
    };
    await updateTaxSettings(context, { defaultRate: taxRate, defaultTaxMode: 'external' });
    const productId = (await createProduct(context, { name: 'Plan', taxCategory: 'saas' })).id;
    const prices: string[] = [];
    for (const amount of AMOUNTS) {
      const price = await createPrice(context, {
        productId,
        description: `Monthly ${amount}`,
        unitPrice: { amount, currencyCode: 'USD' },
        billingCycle: { interval: 'month', frequency: 1 },
        quantity: { minimum: 1, maximum: 10 },
      });
      prices.push(price.id);
    }
    const customerId = (await createCustomer(context, { email: `p${clock.now()}-${Math.random()}@example.com` })).id;
    const addressId = (await createAddress(context, customerId, { countryCode: 'US' })).id;
    const requested = (items: readonly Items[]) =>
      items.map((item) => ({ priceId: prices[item.priceIndex] ?? '', quantity: item.quantity }));
    const subscription = await services.store.transaction((tx) =>
      startSubscription(context, tx, {
        customerId,
        addressId,
        currencyCode: 'USD',
        collectionMode: 'automatic',
        items: requested(initial),
        transactionId: null,
      }),
    );
    const transactionsOf = async (origin?: string): Promise<Transaction[]> => {
      const page = await services.store.transactions.list(scope, {
        filter: {
          subscription_id: [{ op: 'in', values: [subscription.id] }],
          ...(origin ? { origin: [{ op: 'in' as const, values: [origin] }] } : {}),
        },
        perPage: 200,
        direction: 'asc',
      });
      return [...page.items];
    };
    return {
      context,
      subscriptionId: subscription.id,
      requested,
      transactionsOf,
      setNow: clock.set,
    };
  }

  const runs = engine === 'sqlite' ? 20 : 10;

  it('every preview equals the change it previews', async () => {
    // Changes that issued an immediate transaction, whose amounts were compared with the preview's.
    let charged = 0;
    const changeSequence = fc.array(fc.record({ at: offset, items: itemSet, mode: fc.constantFrom(...ALL_MODES) }), {
      minLength: 1,
      maxLength: 5,
    });
    const property = fc.asyncProperty(
      itemSet,
      changeSequence,
      fc.constantFrom('0', '0.2', '0.075'),
      async (initial, changes, taxRate) => {
        const w = await world(initial, taxRate);
        const sorted = [...changes].sort((left, right) => left.at - right.at);
        for (const change of sorted) {
          w.setNow(START + change.at);
          const input = { items: w.requested(change.items), prorationBillingMode: change.mode };
          const before = await w.transactionsOf();
          const preview = await previewSubscriptionUpdate(w.context, w.subscriptionId, input);
          expect(await w.transactionsOf()).toEqual(before);
          const subscription = await updateSubscription(w.context, w.subscriptionId, input);
          const after = await w.transactionsOf('subscription_update');
          const issued = after.filter((transaction) => !before.some((old) => old.id === transaction.id));
          expect(issued.length).toBe(preview.immediateTransaction ? 1 : 0);
          if (preview.immediateTransaction && issued[0]) {
            charged += 1;
            expect(amountsOf(issued[0])).toEqual(amountsOf(preview.immediateTransaction));
          }
          const { version: _v1, ...internalAfter } = subscription.internal;
          const { version: _v2, ...internalPreview } = preview.subscription.internal;
          expect({ ...subscription, internal: internalAfter }).toEqual({
            ...preview.subscription,
            internal: internalPreview,
          });
        }
      },
    );
    await fc.assert(property, { numRuns: runs });
    expect(charged).toBeGreaterThan(0);
  });

  test.prop([itemSet, itemSet, offset, fc.constantFrom(...IMMEDIATE), fc.constantFrom('0', '0.2')], {
    numRuns: runs,
  })('a change and its exact reversal at the same instant net to zero', async (from, to, at, mode, taxRate) => {
    const w = await world(from, taxRate);
    w.setNow(START + at);
    await updateSubscription(w.context, w.subscriptionId, { items: w.requested(to), prorationBillingMode: mode });
    await updateSubscription(w.context, w.subscriptionId, { items: w.requested(from), prorationBillingMode: mode });
    const charges = await w.transactionsOf('subscription_update');
    const sum = (key: 'subtotal' | 'tax' | 'total') =>
      charges.reduce((total, charge) => total + BigInt(charge.details.totals[key]), 0n);
    expect({ subtotal: sum('subtotal'), tax: sum('tax'), total: sum('total') }).toEqual({
      subtotal: 0n,
      tax: 0n,
      total: 0n,
    });
  });

  test.prop([itemSet, itemSet, offset, fc.constantFrom('0', '0.2', '0.075')], { numRuns: runs })(
    'no prorated line exceeds the same line for a full period',
    async (from, to, at, taxRate) => {
      const w = await world(from, taxRate);
      w.setNow(START + at);
      const preview = await previewSubscriptionUpdate(w.context, w.subscriptionId, {
        items: w.requested(to),
        prorationBillingMode: 'prorated_immediately',
      });
      const full = await previewSubscriptionUpdate(w.context, w.subscriptionId, {
        items: w.requested(to),
        prorationBillingMode: 'full_immediately',
      });
      const prorated = preview.immediateTransaction?.details.lineItems ?? [];
      const whole = full.immediateTransaction?.details.lineItems ?? [];
      expect(prorated.map((line) => [line.priceId, line.quantity])).toEqual(
        whole.map((line) => [line.priceId, line.quantity]),
      );
      for (const [position, line] of prorated.entries()) {
        const limit = BigInt(whole[position]?.totals.total ?? '0');
        const amount = BigInt(line.totals.total);
        expect(amount < 0n ? -amount : amount).toBeLessThanOrEqual(limit < 0n ? -limit : limit);
        expect(Number(line.proration?.rate)).toBeLessThanOrEqual(1);
      }
    },
  );

  test.prop([itemSet, fc.array(fc.record({ at: offset, items: itemSet }), { minLength: 1, maxLength: 5 })], {
    numRuns: runs,
  })(
    'the sum of a subscription’s transactions equals what its price history owes, to half a unit per prorated line',
    async (initial, changes) => {
      const w = await world(initial, '0');
      const period = { start: BigInt(START), end: BigInt(Date.parse('2026-02-28T09:30:00.000Z')) };
      const whole = period.end - period.start;
      // What the history owes, as an exact fraction over `whole`: each holding of a price, for the time it was held.
      let owed = 0n;
      let held = new Map(initial.map((item) => [item.priceIndex, item.quantity]));
      let since = period.start;
      const settle = (until: bigint) => {
        for (const [priceIndex, quantity] of held) {
          owed += BigInt(AMOUNTS[priceIndex] ?? '0') * BigInt(quantity) * (until - since);
        }
        since = until;
      };
      for (const change of [...changes].sort((left, right) => left.at - right.at)) {
        const at = BigInt(START + change.at);
        settle(at);
        w.setNow(START + change.at);
        await updateSubscription(w.context, w.subscriptionId, {
          items: w.requested(change.items),
          prorationBillingMode: 'prorated_immediately',
        });
        held = new Map(change.items.map((item) => [item.priceIndex, item.quantity]));
      }
      settle(period.end);

      // The period was paid in full at the start (as a checkout would), then every change.
      const paidAtStart = initial.reduce(
        (sum, item) => sum + BigInt(AMOUNTS[item.priceIndex] ?? '0') * BigInt(item.quantity),
        0n,
      );
      const charges = await w.transactionsOf('subscription_update');
      const billed = charges.reduce((sum, charge) => sum + BigInt(charge.details.totals.total), paidAtStart);
      const lines = charges.reduce((count, charge) => count + charge.details.lineItems.length, 0);
      // |billed − owed / whole| ≤ lines / 2, in whole-numbered arithmetic.
      const difference = billed * whole - owed;
      expect((difference < 0n ? -difference : difference) * 2n).toBeLessThanOrEqual(BigInt(lines) * whole);
    },
  );
});
