/**
 * Cardless trials (`trial_period.requires_payment_method: false`, ADR 1010), through the official
 * SDK on both engines, on a frozen wall clock moved only by each account's sandbox clock: a
 * transaction created through the API completes at once and starts a trialing subscription with
 * no payment method; what needs a method is refused until one is added; the trial's end cancels
 * a subscription without one and charges one with one.
 */
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARDS, type CheckoutClient, checkoutClient } from '../payments/checkout-client.js';
import { expectError, type WireObject } from '../support/api-client.js';
import { type ChangeWorld, DAY_SECONDS, frozenClock, newChangeWorld } from './change-fixtures.js';

const TRIAL_END = '2026-03-15T00:00:00.000Z';
const CARDLESS = { trial_period: { interval: 'day', frequency: 14, requires_payment_method: false } };

const instant = (value: unknown) => new Date(Date.parse(String(value))).toISOString();

describe.each(ENGINES)('%s: cardless trials', (engine) => {
  let harness: BillingHarness;
  let checkout: CheckoutClient;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine, clock: frozenClock });
    checkout = checkoutClient(harness.sandboxUrl);
  });
  afterAll(() => harness.close());

  async function world(): Promise<ChangeWorld & { cardless: string }> {
    const base = await newChangeWorld(harness);
    return { ...base, cardless: await base.price('2500', CARDLESS) };
  }

  /** Creates the transaction through the SDK, as the public API's cardless-trial guide does. */
  async function startCardless(w: ChangeWorld & { cardless: string }) {
    const transaction = await w.paddle.transactions.create({
      customerId: w.buyer.customerId,
      addressId: w.buyer.addressId,
      items: [{ priceId: w.cardless, quantity: 1 }],
    });
    return { transaction, subscriptionId: String(transaction.subscriptionId) };
  }

  const subscriptionOf = async (w: ChangeWorld, id: string) => (await w.api.get(`/subscriptions/${id}`)).entity;

  it('stores requires_payment_method, false as sent and true by default', async () => {
    const w = await world();
    const cardless = await w.paddle.prices.get(w.cardless);
    expect(cardless.trialPeriod).toEqual({ interval: 'day', frequency: 14, requiresPaymentMethod: false });
    const carded = await w.price('2500', { trial_period: { interval: 'day', frequency: 7 } });
    expect((await w.paddle.prices.get(carded)).trialPeriod?.requiresPaymentMethod).toBe(true);
    const updated = await w.paddle.prices.update(carded, {
      trialPeriod: { interval: 'day', frequency: 7, requiresPaymentMethod: false },
    });
    expect(updated.trialPeriod?.requiresPaymentMethod).toBe(false);
    expectError(
      await w.api.post('/prices', {
        product_id: cardless.productId,
        description: 'Bad trial',
        unit_price: { amount: '100', currency_code: 'USD' },
        billing_cycle: { interval: 'month', frequency: 1 },
        trial_period: { interval: 'day', frequency: 7, requires_payment_method: 'no' },
      }),
      400,
      'invalid_field',
    );
  });

  it('the API transaction completes at once and starts a trialing subscription without a payment', async () => {
    const w = await world();
    const { transaction, subscriptionId } = await startCardless(w);
    expect(transaction.status).toBe('completed');
    expect(transaction.details?.totals?.grandTotal).toBe('0');
    expect(transaction.payments).toEqual([]);
    expect(subscriptionId).toMatch(/^sub_/);
    const subscription = await w.paddle.subscriptions.get(subscriptionId);
    expect(subscription.status).toBe('trialing');
    expect(instant(subscription.nextBilledAt)).toBe(TRIAL_END);
    expect(subscription.items[0]?.price.trialPeriod?.requiresPaymentMethod).toBe(false);
    const events = (await w.api.get('/events?per_page=200')).list.map((event) => event.event_type);
    expect(events).toEqual(
      expect.arrayContaining(['transaction.completed', 'subscription.created', 'subscription.trialing']),
    );
  });

  it('refuses what needs a payment method with the public API’s codes; nothing changes', async () => {
    const w = await world();
    const { subscriptionId } = await startCardless(w);
    const carded = await w.price('2500');
    const oneOff = await w.api.post('/prices', {
      product_id: (await w.paddle.prices.get(w.cardless)).productId,
      description: 'Setup',
      unit_price: { amount: '900', currency_code: 'USD' },
    });
    const before = await subscriptionOf(w, subscriptionId);
    const path = `/subscriptions/${subscriptionId}`;
    expectError(await w.api.post(`${path}/pause`, {}), 400, 'subscription_pausing_not_allowed_for_cardless_trial');
    expectError(
      await w.api.post(`${path}/cancel`, { effective_from: 'next_billing_period' }),
      400,
      'subscription_scheduled_change_not_allowed_for_cardless_trial',
    );
    expectError(
      await w.api.post(`${path}/charge`, {
        effective_from: 'immediately',
        items: [{ price_id: oneOff.id, quantity: 1 }],
      }),
      400,
      'subscription_one_off_charges_not_allowed_on_cardless_trial',
    );
    expectError(await w.api.post(`${path}/activate`, {}), 400, 'subscription_missing_payment_method_cannot_activate');
    expectError(
      await w.api.patch(path, { items: [{ price_id: carded, quantity: 1 }], proration_billing_mode: 'do_not_bill' }),
      400,
      'subscription_price_requires_payment_method_on_cardless_trial',
    );
    expect(await subscriptionOf(w, subscriptionId)).toEqual(before);
    // Its own cardless price at another quantity is fine, and it can be canceled at once.
    const more = await w.api.patch(path, {
      items: [{ price_id: w.cardless, quantity: 2 }],
      proration_billing_mode: 'prorated_immediately',
    });
    expect(more.status, more.text).toBe(200);
    const canceled = await w.api.post(`${path}/cancel`, { effective_from: 'immediately' });
    expect(canceled.entity.status).toBe('canceled');
  });

  it('the trial’s end cancels a subscription that never got a payment method; nothing is charged', async () => {
    const w = await world();
    const { subscriptionId } = await startCardless(w);
    await w.advance(14 * DAY_SECONDS + 60);
    const subscription = await subscriptionOf(w, subscriptionId);
    expect(subscription.status).toBe('canceled');
    expect(instant(subscription.canceled_at)).toBe(TRIAL_END);
    expect(await w.transactionsOf(subscriptionId, 'subscription_recurring')).toEqual([]);
    const events = (await w.api.get('/events?event_type=subscription.canceled')).list;
    expect(events.map((event) => (event.data as WireObject).id)).toEqual([subscriptionId]);
  });

  it('a payment method added through its update-payment-method checkout makes it an ordinary trial', async () => {
    const w = await world();
    const { subscriptionId } = await startCardless(w);
    const change = await w.paddle.subscriptions.getPaymentMethodChangeTransaction(subscriptionId);
    expect(change.details?.totals?.grandTotal).toBe('0');
    const saved = await checkout.pay(change.id, CARDS.success);
    expect(saved.status, saved.text).toBe(303);
    expect((await w.paddle.transactions.get(change.id)).status).toBe('completed');

    await w.advance(14 * DAY_SECONDS + 60);
    const subscription = await subscriptionOf(w, subscriptionId);
    expect(subscription.status).toBe('active');
    const [first] = await w.transactionsOf(subscriptionId, 'subscription_recurring');
    expect(first).toMatchObject({ status: 'completed' });
    expect((first?.details as { totals: WireObject }).totals).toMatchObject({ grand_total: '2500' });
    expect((first?.payments as WireObject[])[0]).toMatchObject({ status: 'captured' });
  });

  it('manual collection completes when billed; a payable item keeps it waiting for payment', async () => {
    const w = await world();
    const manual = await w.api.post('/transactions', {
      customer_id: w.buyer.customerId,
      address_id: w.buyer.addressId,
      items: [{ price_id: w.cardless, quantity: 1 }],
      collection_mode: 'manual',
      billing_details: { payment_terms: { interval: 'day', frequency: 14 } },
    });
    expect(manual.entity).toMatchObject({ status: 'ready', subscription_id: null });
    const billed = await w.api.patch(`/transactions/${manual.id}`, { status: 'billed' });
    expect(billed.status, billed.text).toBe(200);
    expect(billed.entity.status).toBe('completed');
    expect(billed.entity.subscription_id).toMatch(/^sub_/);

    const fee = await w.api.post('/prices', {
      product_id: (await w.paddle.prices.get(w.cardless)).productId,
      description: 'Onboarding',
      unit_price: { amount: '900', currency_code: 'USD' },
    });
    const payable = await w.api.post('/transactions', {
      customer_id: w.buyer.customerId,
      address_id: w.buyer.addressId,
      items: [
        { price_id: w.cardless, quantity: 1 },
        { price_id: fee.id, quantity: 1 },
      ],
    });
    expect(payable.entity).toMatchObject({ status: 'ready', subscription_id: null });
  });
});
