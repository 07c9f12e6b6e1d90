/**
 * Changing a subscription's billing cycle ("upgrade to the annual plan", ADR 1008) and its
 * currency (ADR 1009), through the official SDK on both engines, on a frozen wall clock so every
 * amount is computed by hand.
 *
 * A monthly price M = 3000 USD bought on 1 March 2026 (period 1 March → 1 April, 31 days); a
 * yearly price Y = 30000 USD. Changes are made on 16 March, with 16 of 31 days left:
 * 16/31 of M is 1548.387… → 1548; of 2 × M, 3096.774… → 3097 (half to even, once per line).
 */
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, type WireObject } from '../support/api-client.js';
import { type ChangeWorld, DAY_SECONDS, frozenClock, newChangeWorld, roundHalfEven } from './change-fixtures.js';

const CHANGE_AT = '2026-03-16T00:00:00.000Z';
const OLD_END = '2026-04-01T00:00:00.000Z';
const YEAR_LATER = '2027-03-16T00:00:00.000Z';
const YEARLY = { billing_cycle: { interval: 'year', frequency: 1 } };

function totals(transaction: WireObject | undefined): Record<string, string> {
  return (transaction?.details as { totals: Record<string, string> }).totals;
}

function lines(transaction: WireObject | undefined): [unknown, unknown, unknown][] {
  return (transaction?.details as { line_items: WireObject[] }).line_items.map((line) => [
    line.price_id,
    line.quantity,
    (line.totals as WireObject).total,
  ]);
}

const instant = (value: unknown) => new Date(Date.parse(String(value))).toISOString();

function periodOf(entity: WireObject | undefined): [string, string] {
  const period = entity?.current_billing_period as { starts_at: string; ends_at: string };
  return [instant(period.starts_at), instant(period.ends_at)];
}

describe.each(ENGINES)('%s: changing the billing cycle and the currency', (engine) => {
  let harness: BillingHarness;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine, clock: frozenClock });
  });
  afterAll(() => harness.close());

  async function world(
    quantity = 1,
  ): Promise<ChangeWorld & { monthly: string; yearly: string; subscriptionId: string }> {
    const base = await newChangeWorld(harness);
    const monthly = await base.price('3000');
    const yearly = await base.price('30000', YEARLY);
    const subscriptionId = await base.subscribe([{ priceId: monthly, quantity }]);
    await base.advance(15 * DAY_SECONDS);
    return { ...base, monthly, yearly, subscriptionId };
  }

  const subscription = async (w: ChangeWorld, id: string) => (await w.api.get(`/subscriptions/${id}`)).entity;

  it('hand-checks the arithmetic the tests rely on', () => {
    expect(roundHalfEven(3000n * 16n, 31n)).toBe(1548n);
    expect(roundHalfEven(6000n * 16n, 31n)).toBe(3097n);
  });

  it('prorated_immediately: credits the unused month, charges a whole year from now, and renews a year later', async () => {
    const w = await world();
    const updated = await w.paddle.subscriptions.update(w.subscriptionId, {
      items: [{ priceId: w.yearly, quantity: 1 }],
      prorationBillingMode: 'prorated_immediately',
    });
    expect(updated.billingCycle).toEqual({ interval: 'year', frequency: 1 });
    expect(instant(updated.nextBilledAt)).toBe(YEAR_LATER);
    expect(instant(updated.items[0]?.previouslyBilledAt)).toBe(CHANGE_AT);
    expect(instant(updated.items[0]?.nextBilledAt)).toBe(YEAR_LATER);
    const entity = await subscription(w, w.subscriptionId);
    expect(periodOf(entity)).toEqual([CHANGE_AT, YEAR_LATER]);

    const [change, ...rest] = await w.transactionsOf(w.subscriptionId, 'subscription_update');
    expect(rest).toHaveLength(0);
    expect(change?.status).toBe('completed');
    expect(lines(change)).toEqual([
      [w.monthly, -1, '-1548'],
      [w.yearly, 1, '30000'],
    ]);
    expect(totals(change)).toMatchObject({ total: '28452', grand_total: '28452' });
    const billed = change?.billing_period as { starts_at: string; ends_at: string };
    expect([instant(billed.starts_at), instant(billed.ends_at)]).toEqual([CHANGE_AT, YEAR_LATER]);

    // The old monthly date passes without a renewal; the next one is a year after the change.
    await w.advance(20 * DAY_SECONDS);
    expect(await w.transactionsOf(w.subscriptionId, 'subscription_recurring')).toHaveLength(0);
    await w.advance(346 * DAY_SECONDS);
    const [renewal] = await w.transactionsOf(w.subscriptionId, 'subscription_recurring');
    expect(totals(renewal)).toMatchObject({ total: '30000' });
    const period = renewal?.billing_period as { starts_at: string; ends_at: string };
    expect([instant(period.starts_at), instant(period.ends_at)]).toEqual([YEAR_LATER, '2028-03-16T00:00:00.000Z']);
  });

  it('full_immediately: charges the whole year and credits nothing', async () => {
    const w = await world();
    await w.paddle.subscriptions.update(w.subscriptionId, {
      items: [{ priceId: w.yearly, quantity: 1 }],
      prorationBillingMode: 'full_immediately',
    });
    const [change] = await w.transactionsOf(w.subscriptionId, 'subscription_update');
    expect(lines(change)).toEqual([[w.yearly, 1, '30000']]);
    expect(totals(change)).toMatchObject({ total: '30000' });
    expect(periodOf(await subscription(w, w.subscriptionId))).toEqual([CHANGE_AT, YEAR_LATER]);
  });

  it('do_not_bill: keeps the paid month; the yearly cycle starts when it ends', async () => {
    const w = await world();
    const updated = await w.paddle.subscriptions.update(w.subscriptionId, {
      items: [{ priceId: w.yearly, quantity: 1 }],
      prorationBillingMode: 'do_not_bill',
    });
    expect(updated.billingCycle).toEqual({ interval: 'year', frequency: 1 });
    expect(instant(updated.nextBilledAt)).toBe(OLD_END);
    expect(periodOf(await subscription(w, w.subscriptionId))).toEqual(['2026-03-01T00:00:00.000Z', OLD_END]);
    expect(await w.transactionsOf(w.subscriptionId, 'subscription_update')).toEqual([]);

    await w.advance(16 * DAY_SECONDS + 60);
    const [renewal] = await w.transactionsOf(w.subscriptionId, 'subscription_recurring');
    expect(lines(renewal)).toEqual([[w.yearly, 1, '30000']]);
    const period = renewal?.billing_period as { starts_at: string; ends_at: string };
    expect([instant(period.starts_at), instant(period.ends_at)]).toEqual([OLD_END, '2027-04-01T00:00:00.000Z']);
  });

  it('bills the lines a next-period change left for the old cycle’s renewal with the immediate change', async () => {
    const w = await world();
    await w.paddle.subscriptions.update(w.subscriptionId, {
      items: [{ priceId: w.monthly, quantity: 2 }],
      prorationBillingMode: 'prorated_next_billing_period',
    });
    await w.paddle.subscriptions.update(w.subscriptionId, {
      items: [{ priceId: w.yearly, quantity: 1 }],
      prorationBillingMode: 'prorated_immediately',
    });
    const [change] = await w.transactionsOf(w.subscriptionId, 'subscription_update');
    expect(lines(change)).toEqual([
      [w.monthly, 1, '1548'],
      [w.monthly, -2, '-3097'],
      [w.yearly, 1, '30000'],
    ]);
    expect(totals(change)).toMatchObject({ total: '28451' });
    // Nothing is left over for the yearly renewal but the yearly price.
    const next = await w.api.get(`/subscriptions/${w.subscriptionId}?include=next_transaction`);
    const nextTransaction = next.entity.next_transaction as WireObject;
    expect(totals(nextTransaction as WireObject)).toMatchObject({ total: '30000' });
  });

  it('previewUpdate shows exactly the change it previews and writes nothing', async () => {
    const w = await world();
    const request = {
      items: [{ priceId: w.yearly, quantity: 1 }],
      prorationBillingMode: 'prorated_immediately' as const,
    };
    const before = await subscription(w, w.subscriptionId);
    const preview = await w.paddle.subscriptions.previewUpdate(w.subscriptionId, request);
    expect(preview.immediateTransaction?.details.totals).toMatchObject({ total: '28452' });
    expect(instant(preview.nextBilledAt)).toBe(YEAR_LATER);
    expect(await subscription(w, w.subscriptionId)).toEqual(before);
    await w.paddle.subscriptions.update(w.subscriptionId, request);
    const [change] = await w.transactionsOf(w.subscriptionId, 'subscription_update');
    expect(totals(change).total).toBe(preview.immediateTransaction?.details.totals.total);
  });

  it('refuses the next-period modes, and a cycle change while a cancellation is scheduled; nothing changes', async () => {
    const w = await world();
    const before = await subscription(w, w.subscriptionId);
    for (const mode of ['prorated_next_billing_period', 'full_next_billing_period']) {
      expectError(
        await w.api.patch(`/subscriptions/${w.subscriptionId}`, {
          items: [{ price_id: w.yearly, quantity: 1 }],
          proration_billing_mode: mode,
        }),
        400,
        'subscription_invalid_billing_mode_for_billing_cycle_change',
      );
    }
    expectError(
      await w.api.patch(`/subscriptions/${w.subscriptionId}`, { items: [{ price_id: w.yearly, quantity: 1 }] }),
      400,
      'subscription_items_update_missing_proration_billing_mode',
    );
    expect(await subscription(w, w.subscriptionId)).toEqual(before);

    await w.api.post(`/subscriptions/${w.subscriptionId}/cancel`, { effective_from: 'next_billing_period' });
    const scheduled = await subscription(w, w.subscriptionId);
    expectError(
      await w.api.patch(`/subscriptions/${w.subscriptionId}`, {
        items: [{ price_id: w.yearly, quantity: 1 }],
        proration_billing_mode: 'prorated_immediately',
      }),
      409,
      'subscription_scheduled_change_pending',
    );
    // The public API's rule for any item change: no renewal follows a scheduled cancellation to bill it.
    expectError(
      await w.api.patch(`/subscriptions/${w.subscriptionId}`, {
        items: [{ price_id: w.monthly, quantity: 2 }],
        proration_billing_mode: 'prorated_next_billing_period',
      }),
      400,
      'subscription_invalid_billing_mode_for_scheduled_change',
    );
    expect(await subscription(w, w.subscriptionId)).toEqual(scheduled);
    const allowed = await w.api.patch(`/subscriptions/${w.subscriptionId}`, {
      items: [{ price_id: w.monthly, quantity: 2 }],
      proration_billing_mode: 'prorated_immediately',
    });
    expect(allowed.status, allowed.text).toBe(200);
    expect(lines((await w.transactionsOf(w.subscriptionId, 'subscription_update'))[0])).toEqual([
      [w.monthly, 1, '1548'],
    ]);
  });

  describe('currency_code', () => {
    /** A monthly price of 3000 USD with a German price of 2800 EUR, and a German address for the buyer. */
    async function euroWorld() {
      const w = await newChangeWorld(harness);
      const price = await w.price('3000', {
        unit_price_overrides: [{ country_codes: ['DE'], unit_price: { amount: '2800', currency_code: 'EUR' } }],
      });
      const subscriptionId = await w.subscribe([{ priceId: price, quantity: 2 }]);
      const german = await w.api.post(`/customers/${w.buyer.customerId}/addresses`, {
        country_code: 'DE',
        postal_code: '10115',
      });
      expect(german.status, german.text).toBe(201);
      return { ...w, priceId: price, subscriptionId, germanAddressId: german.id };
    }

    it('moves to the German address and bills its renewals in EUR at the German price', async () => {
      const w = await euroWorld();
      const updated = await w.paddle.subscriptions.update(w.subscriptionId, {
        addressId: w.germanAddressId,
        currencyCode: 'EUR',
      });
      expect(updated.currencyCode).toBe('EUR');
      expect(updated.addressId).toBe(w.germanAddressId);
      await w.advance(31 * DAY_SECONDS + 60);
      const [renewal] = await w.transactionsOf(w.subscriptionId, 'subscription_recurring');
      expect(renewal?.currency_code).toBe('EUR');
      expect((renewal?.details as { line_items: WireObject[] }).line_items[0]).toMatchObject({
        quantity: 2,
        totals: { subtotal: '5600' },
      });
    });

    it('refuses a currency or an address its prices are not priced in there, alone; nothing changes', async () => {
      const w = await euroWorld();
      const before = await subscription(w, w.subscriptionId);
      const alone = expectError(
        await w.api.patch(`/subscriptions/${w.subscriptionId}`, { currency_code: 'EUR' }),
        400,
        'subscription_currency_mismatch',
      );
      expect(alone.detail).toContain('priced in USD for US');
      expectError(
        await w.api.patch(`/subscriptions/${w.subscriptionId}`, { address_id: w.germanAddressId }),
        400,
        'subscription_currency_mismatch',
      );
      for (const code of ['XYZ', 'eur']) {
        const invalid = expectError(
          await w.api.patch(`/subscriptions/${w.subscriptionId}`, { currency_code: code }),
          400,
          'invalid_field',
        );
        expect(invalid.errors?.[0]?.field).toBe('currency_code');
      }
      expect(await subscription(w, w.subscriptionId)).toEqual(before);
    });

    it('follows the public API’s credit rules: not with pending credits, not with a change that credits', async () => {
      const w = await euroWorld();
      await w.advance(15 * DAY_SECONDS);
      expectError(
        await w.api.patch(`/subscriptions/${w.subscriptionId}`, {
          address_id: w.germanAddressId,
          currency_code: 'EUR',
          items: [{ price_id: w.priceId, quantity: 1 }],
          proration_billing_mode: 'prorated_immediately',
        }),
        400,
        'subscription_currency_update_and_actions_creating_credits_not_allowed',
      );
      const downgrade = await w.api.patch(`/subscriptions/${w.subscriptionId}`, {
        items: [{ price_id: w.priceId, quantity: 1 }],
        proration_billing_mode: 'prorated_next_billing_period',
      });
      expect(downgrade.status, downgrade.text).toBe(200);
      const before = await subscription(w, w.subscriptionId);
      expectError(
        await w.api.patch(`/subscriptions/${w.subscriptionId}`, {
          address_id: w.germanAddressId,
          currency_code: 'EUR',
        }),
        400,
        'subscription_currency_update_not_allowed',
      );
      expect(await subscription(w, w.subscriptionId)).toEqual(before);
    });
  });
});
