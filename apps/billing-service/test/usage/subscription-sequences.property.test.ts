/**
 * Random sequences of subscription operations (start, time passing with its renewals and
 * scheduled changes, plan and quantity changes, pauses, resumes of either kind, cancels now or at
 * period end, and usage) run through the core use cases on a real store of each engine, with a
 * clock the test moves. After every operation every invariant of the seed holds.
 */

import {
  type Account,
  allowancesByUnit,
  applyEntry,
  applyPendingDrawdowns,
  BillingError,
  balanceTotals,
  cancelSubscription,
  createAccount,
  createCustomer,
  createMeter,
  createPrice,
  createProduct,
  createUsageBalanceUnit,
  Decimal,
  defaultRenewalPayment,
  EMPTY_BALANCE,
  nextDueAt,
  type OnResume,
  type OperationContext,
  pauseSubscription,
  recordUsageEvents,
  replayLedger,
  resumeSubscription,
  runDueSubscriptions,
  type Scope,
  type Subscription,
  startSubscription,
  type UsageBalance,
  updateSubscription,
} from '@drawdown/billing-core';
import { type CoreServices, composeServices } from '@drawdown/billing-service';
import { createTestStorage, ENGINES, fixedClock, type TestStorage } from '@drawdown/testkit';
import { fc, test } from '@fast-check/vitest';
import { afterAll, beforeAll, describe, expect } from 'vitest';

const DAY_MS = 86_400_000;
const PRICES = 3;
const UNITS = 2;

type Operation =
  | { readonly kind: 'start'; readonly price: number; readonly quantity: number }
  | { readonly kind: 'time'; readonly days: number }
  | {
      readonly kind: 'change';
      readonly subscription: number;
      readonly price: number;
      readonly quantity: number;
      readonly mode: 'full_immediately' | 'full_next_billing_period';
    }
  | { readonly kind: 'quantity'; readonly subscription: number; readonly quantity: number }
  | {
      readonly kind: 'pause';
      readonly subscription: number;
      readonly immediately: boolean;
      readonly onResume: OnResume;
    }
  | { readonly kind: 'resume'; readonly subscription: number; readonly onResume: OnResume }
  | { readonly kind: 'cancel'; readonly subscription: number; readonly immediately: boolean }
  | { readonly kind: 'usage'; readonly unit: number; readonly quantity: string };

const onResume = fc.constantFrom<OnResume>('start_new_billing_period', 'continue_existing_billing_period');
const index = fc.nat({ max: 3 });
const operation: fc.Arbitrary<Operation> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('start' as const),
      price: fc.nat({ max: PRICES - 1 }),
      quantity: fc.integer({ min: 1, max: 3 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('time' as const), days: fc.integer({ min: 1, max: 75 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('change' as const),
      subscription: index,
      price: fc.nat({ max: PRICES - 1 }),
      quantity: fc.integer({ min: 1, max: 3 }),
      mode: fc.constantFrom('full_immediately' as const, 'full_next_billing_period' as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('quantity' as const),
      subscription: index,
      quantity: fc.integer({ min: 1, max: 4 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('pause' as const),
      subscription: index,
      immediately: fc.boolean(),
      onResume,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('resume' as const), subscription: index, onResume }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('cancel' as const), subscription: index, immediately: fc.boolean() }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('usage' as const),
      unit: fc.nat({ max: UNITS - 1 }),
      quantity: fc
        .integer({ min: 1, max: 400 })
        .map((tenths) => Decimal.parse(`${Math.floor(tenths / 10)}.${tenths % 10}`).toString()),
    }),
  },
);

const d = (text: string) => Decimal.parse(text);
let eventSequence = 0;

describe.each(ENGINES)('%s: random sequences of subscription operations', (engine) => {
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

  /** A fresh account with two units (meters at rates 1 and 2.5), three monthly prices and a customer. */
  async function world(start: number) {
    const clock = fixedClock(start);
    const account: Account = await createAccount(services, { name: 'Property', earlyAccess: true });
    const scope: Scope = { accountId: account.id, environment: 'sandbox' };
    const context: OperationContext = {
      store: services.store,
      ids: services.ids,
      clock,
      scope,
      account,
    };
    const units = [
      (await createUsageBalanceUnit(context, { name: 'Calls', unitName: 'calls' })).id,
      (await createUsageBalanceUnit(context, { name: 'Credits', unitName: 'credits' })).id,
    ];
    const actions = ['use_calls', 'use_credits'];
    for (const [position, unitId] of units.entries()) {
      await createMeter(context, {
        usageBalanceUnitId: unitId,
        name: 'Meter',
        action: actions[position] ?? '',
        unitName: 'use',
        rate: position === 0 ? '1' : '2.5',
      });
    }
    const productId = (await createProduct(context, { name: 'Plan', taxCategory: 'saas' })).id;
    const allowances = [
      [{ usageBalanceUnitId: units[0] ?? '', amount: '10' }],
      [
        { usageBalanceUnitId: units[0] ?? '', amount: '25' },
        { usageBalanceUnitId: units[1] ?? '', amount: '4' },
      ],
      [],
    ];
    const prices: string[] = [];
    for (const granted of allowances) {
      const price = await createPrice(context, {
        productId,
        description: 'Monthly',
        unitPrice: { amount: '1000', currencyCode: 'USD' },
        billingCycle: { interval: 'month', frequency: 1 },
        allowances: granted,
      });
      prices.push(price.id);
    }
    const customerId = (await createCustomer(context, { email: `p${clock.now()}@example.com` })).id;
    return { context, scope, units, actions, prices, customerId, advance: clock.advance, now: clock.now };
  }

  type World = Awaited<ReturnType<typeof world>>;

  async function subscriptionsOf(w: World): Promise<Subscription[]> {
    const page = await services.store.subscriptions.list(w.scope, {
      filter: { customer_id: [{ op: 'in', values: [w.customerId] }] },
      perPage: 200,
      direction: 'asc',
    });
    return [...page.items];
  }

  async function balancesOf(w: World): Promise<UsageBalance[]> {
    const page = await services.store.usageBalances.list(w.scope, {
      filter: { customer_id: [{ op: 'in', values: [w.customerId] }] },
      perPage: 200,
      direction: 'asc',
    });
    return [...page.items];
  }

  async function drain(w: World): Promise<void> {
    const dependencies = { store: services.store, ids: services.ids, now: () => w.now() };
    while ((await applyPendingDrawdowns(dependencies, { limit: 100, scope: w.scope })) > 0) {
      // keep applying
    }
  }

  async function apply(w: World, op: Operation, subscriptions: readonly Subscription[]): Promise<void> {
    const pick = (position: number) => subscriptions[position % Math.max(subscriptions.length, 1)]?.id;
    const id = 'subscription' in op ? pick(op.subscription) : undefined;
    switch (op.kind) {
      case 'start':
        await services.store.transaction((tx) =>
          startSubscription(w.context, tx, {
            customerId: w.customerId,
            addressId: null,
            currencyCode: 'USD',
            collectionMode: 'automatic',
            items: [{ priceId: w.prices[op.price] ?? '', quantity: op.quantity }],
            transactionId: null,
          }),
        );
        return;
      case 'time':
        w.advance(op.days * DAY_MS);
        await runDueSubscriptions(w.context, Number.POSITIVE_INFINITY, defaultRenewalPayment(w.context.scope), () =>
          Promise.resolve(),
        );
        return;
      case 'usage': {
        eventSequence += 1;
        const [result] = await recordUsageEvents(
          w.context,
          [
            {
              eventKey: `key-${eventSequence}`,
              customerId: w.customerId,
              action: w.actions[op.unit] ?? '',
              quantity: op.quantity,
              occurredAt: new Date(w.now()).toISOString(),
            },
          ],
          (error) => {
            throw error;
          },
        );
        expect(result?.status).toBe('accepted');
        await drain(w);
        return;
      }
    }
    if (id === undefined) return;
    switch (op.kind) {
      case 'change':
        await updateSubscription(w.context, id, {
          items: [{ priceId: w.prices[op.price] ?? '', quantity: op.quantity }],
          prorationBillingMode: op.mode,
        });
        return;
      case 'quantity': {
        const current = subscriptions.find((subscription) => subscription.id === id);
        await updateSubscription(w.context, id, {
          items: (current?.items ?? []).map((item) => ({ priceId: item.price.id, quantity: op.quantity })),
          prorationBillingMode: 'full_immediately',
        });
        return;
      }
      case 'pause':
        await pauseSubscription(w.context, id, {
          effectiveFrom: op.immediately ? 'immediately' : 'next_billing_period',
          onResume: op.onResume,
        });
        return;
      case 'resume':
        await resumeSubscription(w.context, id, { effectiveFrom: 'immediately', onResume: op.onResume });
        return;
      case 'cancel':
        await cancelSubscription(w.context, id, {
          effectiveFrom: op.immediately ? 'immediately' : 'next_billing_period',
        });
        return;
    }
  }

  test.prop([fc.array(operation, { minLength: 1, maxLength: 14 })], { numRuns: engine === 'sqlite' ? 25 : 12 })(
    'keeps every invariant of the seed after every operation',
    async (operations) => {
      const w = await world(Date.now());
      // What each unit's drawdowns must add up to: usage drawn while a balance of the unit existed.
      const expectedDrawn = w.units.map(() => Decimal.zero);
      for (const op of operations) {
        const subscriptionsBefore = await subscriptionsOf(w);
        const balancesBefore = await balancesOf(w);
        const heldUnits = new Set(balancesBefore.map((balance) => balance.usageBalanceUnitId));
        try {
          await apply(w, op, subscriptionsBefore);
        } catch (error) {
          if (!(error instanceof BillingError)) throw error;
          // A refusal changes nothing.
          expect(await subscriptionsOf(w)).toEqual(subscriptionsBefore);
          expect(await balancesOf(w)).toEqual(balancesBefore);
          continue;
        }
        if (op.kind === 'usage') {
          const unitId = w.units[op.unit] ?? '';
          if (heldUnits.has(unitId)) {
            const rate = op.unit === 0 ? '1' : '2.5';
            expectedDrawn[op.unit] = (expectedDrawn[op.unit] ?? Decimal.zero).add(d(op.quantity).multiply(d(rate)));
          }
        }

        const subscriptions = await subscriptionsOf(w);
        const now = new Date(w.now()).toISOString();
        for (const subscription of subscriptions) {
          // Nothing is left due: time passing ran every renewal and scheduled change.
          const due = nextDueAt(subscription);
          if (op.kind === 'time' && due !== null) expect(due > now).toBe(true);
          if (subscription.status === 'paused' || subscription.status === 'canceled') {
            expect(subscription.currentBillingPeriod).toBeNull();
          } else {
            expect(subscription.currentBillingPeriod).not.toBeNull();
          }
        }
        // The allowance of each unit is what the customer's running subscriptions grant.
        const granted = allowancesByUnit(
          subscriptions
            .filter((subscription) => subscription.status !== 'canceled')
            .flatMap((subscription) => subscription.items),
        );
        const depletedEvents = (
          await services.store.events.list(w.scope, {
            filter: { event_type: [{ op: 'in', values: ['usage_balance.depleted'] }] },
            perPage: 200,
            direction: 'asc',
          })
        ).items;

        for (const balance of await balancesOf(w)) {
          const ledger = await services.store.usageBalances.ledger(w.scope, balance.id);
          expect(replayLedger(ledger)).toEqual(balance.state);
          const totals = balanceTotals(balance.state);
          expect(d(totals.remaining).isNegative()).toBe(false);
          expect(d(totals.used).isNegative()).toBe(false);
          expect(d(totals.overage).isNegative()).toBe(false);
          expect(d(totals.allowance).equals(d(totals.used).add(d(totals.remaining)))).toBe(true);
          expect(d(totals.allowance).equals(granted.get(balance.usageBalanceUnitId) ?? Decimal.zero)).toBe(true);

          // Every accepted event drew exactly once.
          const position = w.units.indexOf(balance.usageBalanceUnitId);
          const drawn = ledger
            .filter((entry) => entry.kind === 'drawdown')
            .reduce((sum, entry) => sum.add(d(entry.amount)), Decimal.zero);
          expect(drawn.toString()).toBe((expectedDrawn[position] ?? Decimal.zero).toString());

          // One depletion event for each drawdown that took remaining from above 0 to 0.
          let state = EMPTY_BALANCE;
          let depletions = 0;
          for (const entry of ledger) {
            const outcome = applyEntry(state, entry);
            if (outcome.depleted) depletions += 1;
            state = outcome.state;
          }
          const events = depletedEvents.filter(
            (event) => (event.entity as UsageBalance).usageBalanceUnitId === balance.usageBalanceUnitId,
          );
          expect(events).toHaveLength(depletions);
          for (const event of events) expect(balanceTotals((event.entity as UsageBalance).state).remaining).toBe('0');

          // A renewal (or a resume into a new period) of a subscription granting the unit clears overage.
          if (op.kind === 'time' || op.kind === 'resume') {
            const renewed = subscriptions.some((subscription) => {
              const before = subscriptionsBefore.find((candidate) => candidate.id === subscription.id);
              return (
                subscription.status === 'active' &&
                subscription.currentBillingPeriod !== null &&
                subscription.currentBillingPeriod.startsAt !== before?.currentBillingPeriod?.startsAt &&
                subscription.currentBillingPeriod.startsAt !== before?.internal.pausedPeriod?.startsAt &&
                subscription.items.some((item) =>
                  item.price.allowances.some(
                    (allowance) => allowance.usageBalanceUnitId === balance.usageBalanceUnitId,
                  ),
                )
              );
            });
            if (renewed) expect(totals.overage).toBe('0');
          }
        }
      }
    },
    120_000,
  );
});
