/**
 * The official SDK's `paymentMethods` and `subscriptions.getPaymentMethodChangeTransaction`
 * against methods saved through the sandbox checkout, on both engines: list with the documented
 * filters, get, delete (`payment_method.saved` / `.deleted`), another customer's method refused,
 * and the update-payment-method checkout replacing the subscription's card, which the sandbox's
 * renewals then charge (a saved "subsequent decline" card sends the renewal past due).
 */
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { ApiError, type Paddle } from '@paddle/paddle-node-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, harnessClients, type WireObject } from '../support/api-client.js';
import { createPrice, createProduct } from '../support/catalogue-fixtures.js';
import { officialSdk } from '../support/official-sdk.js';
import { type Buyer, createBuyer, createOneOffPrice, createTransaction } from '../transactions/transaction-fixtures.js';
import { CARDS, type CheckoutClient, checkoutClient } from './checkout-client.js';

describe.each(ENGINES)('%s: the official SDK against payment methods', (engine) => {
  let harness: BillingHarness;
  let sandbox: ApiClient;
  let paddle: Paddle;
  let checkout: CheckoutClient;
  let buyer: Buyer;
  let other: Buyer;
  let monthlyPriceId: string;
  let oneOffPriceId: string;

  async function buy(customer: Buyer, priceId: string, card: string, extra: Record<string, string> = {}) {
    const created = await createTransaction(sandbox, {
      items: [{ price_id: priceId, quantity: 1 }],
      customer_id: customer.customerId,
      address_id: customer.addressId,
    });
    const paid = await checkout.pay(String(created.id), card, extra);
    expect(paid.status, paid.text).toBe(303);
    const response = await sandbox.get(`/transactions/${created.id}`);
    return response.entity;
  }

  async function events(type: string): Promise<WireObject[]> {
    const page = await harness.services.store.events.list(
      { accountId: harness.accountId, environment: 'sandbox' },
      { filter: { event_type: [{ op: 'eq', value: type }] }, perPage: 1000, direction: 'asc' },
    );
    return page.items.map((event) => event.entity as WireObject);
  }

  beforeAll(async () => {
    harness = await startBillingHarness({ engine });
    ({ sandbox } = harnessClients(harness));
    paddle = officialSdk(harness.sandboxKey, harness.sandboxUrl);
    checkout = checkoutClient(harness.sandboxUrl);
    buyer = await createBuyer(sandbox, 'GB');
    other = await createBuyer(sandbox, 'GB');
    const productId = await createProduct(sandbox, { name: 'Team plan' });
    monthlyPriceId = String(
      (await createPrice(sandbox, productId, { unit_price: { amount: '2000', currency_code: 'GBP' } })).id,
    );
    oneOffPriceId = await createOneOffPrice(sandbox, '500', 'GBP');
  });
  afterAll(() => harness.close());

  it('lists, gets and deletes saved methods, with their events', async () => {
    const first = await buy(buyer, oneOffPriceId, CARDS.success, { save_method: 'on' });
    await buy(buyer, oneOffPriceId, CARDS.success);
    const subscribed = await buy(buyer, monthlyPriceId, '4000 0566 5566 5556');
    await buy(other, oneOffPriceId, CARDS.success, { save_method: 'on' });

    const listed = [];
    for await (const method of paddle.paymentMethods.list(buyer.customerId)) listed.push(method);
    expect(listed).toHaveLength(2);
    const [newest, oldest] = listed;
    expect(newest).toMatchObject({
      customerId: buyer.customerId,
      addressId: buyer.addressId,
      type: 'card',
      origin: 'subscription',
      card: { type: 'visa', last4: '5556', expiryMonth: 12, expiryYear: 2039, cardholderName: 'Ada Lovelace' },
    });
    expect(oldest).toMatchObject({ origin: 'saved_during_purchase', card: { last4: '4242' } });
    const firstPayment = (first.payments as { payment_method_id: string }[])[0];
    expect(oldest?.id).toBe(firstPayment?.payment_method_id);
    expect((subscribed.payments as { payment_method_id: string }[])[0]?.payment_method_id).toBe(newest?.id);

    const paged = paddle.paymentMethods.list(buyer.customerId, { perPage: 1 });
    expect(await paged.next()).toHaveLength(1);
    expect(paged.hasMore).toBe(true);
    const ascending = await paddle.paymentMethods.list(buyer.customerId, { orderBy: 'id[ASC]' }).next();
    expect(ascending.map((method) => method.id)).toEqual([oldest?.id, newest?.id]);
    const pastNewest = await paddle.paymentMethods.list(buyer.customerId, { after: newest?.id ?? '' }).next();
    expect(pastNewest.map((method) => method.id)).toEqual([oldest?.id]);
    expect(await paddle.paymentMethods.list(buyer.customerId, { addressId: [buyer.addressId] }).next()).toHaveLength(2);
    expect(await paddle.paymentMethods.list(buyer.customerId, { addressId: [other.addressId] }).next()).toHaveLength(0);
    expect(await paddle.paymentMethods.list(buyer.customerId, { supportsCheckout: false }).next()).toHaveLength(0);
    expect(await paddle.paymentMethods.list(buyer.customerId, { supportsCheckout: true }).next()).toHaveLength(2);

    const fetched = await paddle.paymentMethods.get(buyer.customerId, oldest?.id ?? '');
    expect(fetched.card?.last4).toBe('4242');
    const crossCustomer = await paddle.paymentMethods
      .get(other.customerId, oldest?.id ?? '')
      .catch((error: unknown) => error);
    expect(crossCustomer).toBeInstanceOf(ApiError);
    expect(crossCustomer).toMatchObject({ code: 'not_found' });

    await paddle.paymentMethods.delete(buyer.customerId, oldest?.id ?? '');
    const afterDelete = await paddle.paymentMethods.list(buyer.customerId).next();
    expect(afterDelete.map((method) => method.id)).toEqual([newest?.id]);
    const again = await paddle.paymentMethods
      .delete(buyer.customerId, oldest?.id ?? '')
      .catch((error: unknown) => error);
    expect(again).toMatchObject({ code: 'not_found' });

    const saved = await events('payment_method.saved');
    expect(saved.map((entity) => entity.id)).toEqual(expect.arrayContaining([oldest?.id, newest?.id]));
    expect(saved[0]).not.toHaveProperty('internal');
    const deleted = await events('payment_method.deleted');
    expect(deleted).toEqual([expect.objectContaining({ id: oldest?.id, deletionReason: 'api' })]);
    expect(JSON.stringify([...saved, ...deleted])).not.toMatch(
      /4242424242424242|providerMethodRef|provider_method_ref/,
    );
  });

  it('refuses bad list parameters and unknown customers', async () => {
    const bad = await sandbox.get(`/customers/${buyer.customerId}/payment-methods?supports_checkout=maybe`);
    expect(bad.status).toBe(400);
    const unknownFilter = await sandbox.get(`/customers/${buyer.customerId}/payment-methods?status=saved`);
    expect(unknownFilter.status).toBe(400);
    const unknownCustomer = await sandbox.get('/customers/ctm_01hv8x1tpjfnttxddw73xnqx6s/payment-methods');
    expect(unknownCustomer.status).toBe(404);
  });

  it('updates a subscription’s card through the zero-value transaction, and renewals charge the new card', async () => {
    const customer = await createBuyer(sandbox, 'GB');
    const bought = await buy(customer, monthlyPriceId, CARDS.success);
    const subscriptionId = String(bought.subscription_id);

    const change = await paddle.subscriptions.getPaymentMethodChangeTransaction(subscriptionId);
    expect(change).toMatchObject({
      status: 'ready',
      origin: 'subscription_payment_method_change',
      subscriptionId,
      customerId: customer.customerId,
    });
    expect(change.details?.totals?.grandTotal).toBe('0');
    expect(change.checkout?.url).toBe(`${harness.sandboxUrl}/checkout?_ptxn=${change.id}`);

    const declined = await checkout.pay(change.id, CARDS.decline);
    expect(declined.status).toBe(303);
    expect((await paddle.transactions.get(change.id)).status).toBe('ready');
    const saved = await checkout.pay(change.id, CARDS.laterDecline);
    expect(saved.status, saved.text).toBe(303);
    const updated = await paddle.transactions.get(change.id);
    expect(updated.status).toBe('completed');
    const methods = await paddle.paymentMethods.list(customer.customerId).next();
    expect(methods.map((method) => method.card?.last4)).toEqual(['3184', '4242']);

    // The renewal charges the saved "initial success, subsequent decline" card: declined, past due.
    const advanced = await sandbox.post('/sandbox-clock/advance', { seconds: 32 * 86_400 });
    expect(advanced.status, advanced.text).toBe(200);
    const subscription = await paddle.subscriptions.get(subscriptionId);
    expect(subscription.status).toBe('past_due');
    const renewals = await paddle.transactions
      .list({ subscriptionId: [subscriptionId], origin: ['subscription_recurring'] })
      .next();
    expect(renewals[0]?.payments[0]).toMatchObject({
      status: 'error',
      errorCode: 'declined',
      paymentMethodId: methods[0]?.id,
      methodDetails: { card: { last4: '3184' } },
    });

    // Past due: the update transaction is the past-due renewal; paying it revives the subscription.
    const pastDue = await paddle.subscriptions.getPaymentMethodChangeTransaction(subscriptionId);
    expect(pastDue.id).toBe(renewals[0]?.id);
    const revived = await checkout.pay(pastDue.id, CARDS.success);
    expect(revived.status, revived.text).toBe(303);
    expect((await paddle.subscriptions.get(subscriptionId)).status).toBe('active');
  });

  it('refuses the update transaction for a manually collected or unknown subscription', async () => {
    const unknown = await paddle.subscriptions
      .getPaymentMethodChangeTransaction('sub_01hv8x1tpjfnttxddw73xnqx6s')
      .catch((error: unknown) => error);
    expect(unknown).toMatchObject({ code: 'not_found' });
    const manual = await createTransaction(sandbox, {
      items: [{ price_id: monthlyPriceId, quantity: 1 }],
      customer_id: other.customerId,
      address_id: other.addressId,
      collection_mode: 'manual',
      billing_details: { payment_terms: { interval: 'day', frequency: 14 } },
    });
    const billed = await sandbox.patch(`/transactions/${manual.id}`, { status: 'billed' });
    expect(billed.status, billed.text).toBe(200);
    const paid = await sandbox.post(`/transactions/${manual.id}/payments`, {
      method_type: 'bank_transfer',
      provider_reference: 'wire-1',
    });
    expect(paid.status, paid.text).toBe(201);
    expect(paid.entity.subscription_id).toMatch(/^sub_/);
    const refused = await paddle.subscriptions
      .getPaymentMethodChangeTransaction(String(paid.entity.subscription_id))
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'subscription_update_payment_method_not_allowed' });
  });
});
