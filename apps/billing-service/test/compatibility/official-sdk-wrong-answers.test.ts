/**
 * Issue 36: answers the official SDKs read wrongly before, on both engines, through the official
 * Node SDK (raw HTTP where it does not expose the field or the call): adjustments carry
 * `tax_rates_used`, completed collected transactions carry `billed_at`, documented `order_by`
 * values sort, percentage discounts accept the `currency_code` the Python SDK always sends,
 * `checkout.url` is accepted on transactions and manual invoices get a checkout link.
 */
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import type { Paddle } from '@paddle/paddle-node-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../notifications/webhook-receiver.js';
import { CARDS, checkoutClient } from '../payments/checkout-client.js';
import { type ApiClient, harnessClients, type WireObject } from '../support/api-client.js';
import { officialSdk } from '../support/official-sdk.js';
import { type Buyer, createBuyer, createOneOffPrice, readyTransaction } from '../transactions/transaction-fixtures.js';

describe.each(ENGINES)('%s: answers the official SDKs read (issue 36)', (engine) => {
  let harness: BillingHarness;
  let paddle: Paddle;
  let sandbox: ApiClient;
  let buyer: Buyer;
  let priceId: string;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine });
    ({ sandbox } = harnessClients(harness));
    paddle = officialSdk(harness.sandboxKey, harness.sandboxUrl);
    // Explicit rates: 20% in GB, 10% elsewhere, so lines at two rates can share a transaction.
    await sandbox.patch('/tax-settings', {
      default_tax_mode: 'external',
      rate_source: 'account',
      default_rate: '0.1',
      country_rates: [{ country_code: 'GB', rate: '0.2' }],
    });
    buyer = await createBuyer(sandbox, 'GB');
    priceId = await createOneOffPrice(sandbox, '1000', 'GBP');
  });
  afterAll(() => harness.close());

  describe('adjustments carry tax_rates_used', () => {
    it('on create, list and transactions.get(include=adjustments)', async () => {
      const ready = await readyTransaction(sandbox, buyer, priceId);
      await sandbox.post(`/transactions/${ready.id}/simulate-payment`, { outcome: 'success' });
      const line = (ready.details as { line_items: WireObject[] }).line_items[0] as WireObject;
      const expected = [{ tax_rate: '0.2', totals: { subtotal: '500', tax: '100', total: '600' } }];

      const created = await sandbox.post('/adjustments', {
        action: 'refund',
        transaction_id: ready.id,
        reason: 'Part refund',
        items: [{ item_id: line.id, type: 'partial', amount: '600' }],
      });
      expect(created.status, created.text).toBe(201);
      expect(created.entity.tax_rates_used).toEqual(expected);

      const sdkList = await paddle.adjustments.list({ transactionId: [String(ready.id)] }).next();
      expect(sdkList.map((adjustment) => adjustment.id)).toEqual([created.id]);
      const listed = await sandbox.get(`/adjustments?transaction_id=${ready.id}`);
      expect(listed.list.map((adjustment) => adjustment.tax_rates_used)).toEqual([expected]);

      const sdkTransaction = await paddle.transactions.get(String(ready.id), { include: ['adjustment'] });
      expect(sdkTransaction.adjustments?.map((adjustment) => adjustment.id)).toEqual([created.id]);
      const included = await sandbox.get(`/transactions/${ready.id}?include=adjustments`);
      expect((included.entity.adjustments as WireObject[]).map((adjustment) => adjustment.tax_rates_used)).toEqual([
        expected,
      ]);
    });
  });

  describe('a percentage discount with the currency_code the Python SDK sends', () => {
    it('is created, keeps the currency and discounts a transaction in another currency', async () => {
      const discount = await paddle.discounts.create({
        description: 'Ten percent',
        type: 'percentage',
        amount: '10',
        currencyCode: 'USD',
      });
      expect(discount).toMatchObject({ type: 'percentage', amount: '10', currencyCode: 'USD' });
      expect((await paddle.discounts.get(discount.id)).currencyCode).toBe('USD');
      const updated = await paddle.discounts.update(discount.id, { currencyCode: 'EUR' });
      expect(updated.currencyCode).toBe('EUR');

      const transaction = await paddle.transactions.create({
        items: [{ priceId, quantity: 1 }],
        customerId: buyer.customerId,
        addressId: buyer.addressId,
        discountId: discount.id,
      });
      // 1000 GBP less 10%, then 20% tax: the discount's currency limits nothing.
      expect(transaction.details?.totals).toMatchObject({
        subtotal: '1000',
        discount: '100',
        tax: '180',
        total: '1080',
      });

      const refused = await sandbox.post('/discounts', {
        description: 'Bad currency',
        type: 'percentage',
        amount: '10',
        currency_code: 'XXX',
      });
      expect(refused.status, refused.text).toBe(400);
      expect(refused.body.error?.code).toBe('invalid_field');
    });
  });

  describe('checkout.url chosen on transaction create and update', () => {
    it('builds the link on the given page, keeps it through changes and refuses what cannot take one', async () => {
      const created = await paddle.transactions.create({
        items: [{ priceId, quantity: 1 }],
        customerId: buyer.customerId,
        addressId: buyer.addressId,
        checkout: { url: 'https://pay.example.com/checkout?plan=pro' },
      });
      expect(created.checkout?.url).toBe(`https://pay.example.com/checkout?plan=pro&_ptxn=${created.id}`);
      const changed = await paddle.transactions.update(created.id, { items: [{ priceId, quantity: 3 }] });
      expect(changed.checkout?.url).toBe(created.checkout?.url);
      const moved = await paddle.transactions.update(created.id, { checkout: { url: 'https://shop.example.com/pay' } });
      expect(moved.checkout?.url).toBe(`https://shop.example.com/pay?_ptxn=${created.id}`);
      // A null url gives the default payment link back.
      const reset = await sandbox.patch(`/transactions/${created.id}`, { checkout: { url: null } });
      expect(reset.status, reset.text).toBe(200);
      expect((reset.entity.checkout as WireObject).url).toBe(`${harness.sandboxUrl}/checkout?_ptxn=${created.id}`);

      for (const [body, field] of [
        [{ checkout: { url: 'ftp://pay.example.com/' } }, 'checkout.url'],
        [{ checkout: { url: 'https://pay.example.com/#fragment' } }, 'checkout.url'],
        [{ checkout: { url: 'https://pay.example.com/', other: 1 } }, 'checkout.other'],
        [
          {
            collection_mode: 'manual',
            billing_details: { payment_terms: { interval: 'day', frequency: 30 } },
            checkout: { url: 'https://pay.example.com/' },
          },
          'checkout.url',
        ],
      ] as const) {
        const refused = await sandbox.post('/transactions', {
          items: [{ price_id: priceId, quantity: 1 }],
          customer_id: buyer.customerId,
          address_id: buyer.addressId,
          ...body,
        });
        expect(refused.status, refused.text).toBe(400);
        expect(
          refused.body.error?.errors?.map((error) => error.field),
          refused.text,
        ).toContain(field);
      }
    });
  });

  describe('manual invoices', () => {
    it('with enable_checkout have a checkout.url; billed with recurring items, start their subscription', async () => {
      const monthly = await createOneOffPrice(sandbox, '5000', 'GBP', {
        billing_cycle: { interval: 'month', frequency: 1 },
      });
      const invoice = await paddle.transactions.create({
        items: [{ priceId: monthly, quantity: 1 }],
        customerId: buyer.customerId,
        addressId: buyer.addressId,
        collectionMode: 'manual',
        billingDetails: { enableCheckout: true, paymentTerms: { interval: 'day', frequency: 30 } },
        status: 'billed',
      } as never);
      expect(invoice.status).toBe('billed');
      expect(invoice.checkout?.url).toBe(`${harness.sandboxUrl}/checkout?_ptxn=${invoice.id}`);
      expect(invoice.subscriptionId).toMatch(/^sub_/);
      const subscription = await paddle.subscriptions.get(String(invoice.subscriptionId));
      expect(subscription).toMatchObject({ status: 'active', collectionMode: 'manual', customerId: buyer.customerId });
      expect(invoice.billingPeriod).toEqual(subscription.currentBillingPeriod);

      // Billed later through an update: the subscription starts then, once.
      const draft = await paddle.transactions.create({
        items: [{ priceId: monthly, quantity: 1 }],
        customerId: buyer.customerId,
        addressId: buyer.addressId,
        collectionMode: 'manual',
        billingDetails: { enableCheckout: false, paymentTerms: { interval: 'day', frequency: 30 } },
      });
      expect(draft.subscriptionId).toBeNull();
      expect(draft.checkout).toBeNull();
      const billed = await paddle.transactions.update(draft.id, { status: 'billed' });
      expect(billed.subscriptionId).toMatch(/^sub_/);
      const payment = await sandbox.post(`/transactions/${billed.id}/payments`, {
        method_type: 'bank_transfer',
        provider_reference: 'wire-1',
      });
      expect(payment.status, payment.text).toBe(201);
      const paid = await paddle.transactions.get(billed.id);
      expect(paid.status).toBe('completed');
      expect(paid.subscriptionId).toBe(billed.subscriptionId);
      const subscriptions = await paddle.subscriptions.list({ customerId: [buyer.customerId] }).next();
      expect(subscriptions.filter((candidate) => candidate.id === billed.subscriptionId)).toHaveLength(1);
      expect(subscriptions.map((candidate) => candidate.id).sort()).toEqual(
        [String(invoice.subscriptionId), String(billed.subscriptionId)].sort(),
      );
    });
  });

  describe('documented order_by values', () => {
    it('orders transactions by updated_at, products and discounts by created_at; refuses the undocumented', async () => {
      const made = [];
      for (let index = 0; index < 3; index += 1) made.push(await readyTransaction(sandbox, buyer, priceId));
      // The oldest is changed last: by updated_at it comes first, descending.
      const touched = await sandbox.patch(`/transactions/${made[0]?.id}`, { custom_data: { touched: true } });
      expect(touched.status, touched.text).toBe(200);
      const byUpdated = paddle.transactions.list({ orderBy: 'updated_at[DESC]' as never, perPage: 2 } as never);
      const firstPage = await byUpdated.next();
      expect(firstPage.map((transaction) => transaction.id)).toEqual([made[0]?.id, made[2]?.id]);
      const secondPage = await byUpdated.next();
      expect(secondPage[0]?.id).toBe(made[1]?.id);
      const ascending = (await sandbox.get('/transactions?order_by=updated_at[ASC]&per_page=30')).list;
      const times = ascending.map((transaction) => String(transaction.updated_at));
      expect(times).toEqual([...times].sort());

      await createOneOffPrice(sandbox, '100', 'GBP');
      await paddle.discounts.create({ description: 'A', type: 'flat', amount: '100', currencyCode: 'GBP' });
      await paddle.discounts.create({ description: 'B', type: 'flat', amount: '200', currencyCode: 'GBP' });
      const products = await paddle.products.list({ orderBy: 'created_at[ASC]' as never }).next();
      const created = products.map((product) => product.createdAt);
      expect(created.length).toBeGreaterThanOrEqual(2);
      expect(created).toEqual([...created].sort());
      const discounts = (await sandbox.get('/discounts?order_by=created_at[DESC]')).list;
      const discountTimes = discounts.map((discount) => String(discount.created_at));
      expect(discountTimes).toEqual([...discountTimes].sort().reverse());

      for (const path of [
        '/products?order_by=price[ASC]',
        '/discounts?order_by=amount[ASC]',
        '/transactions?order_by=total[DESC]',
      ]) {
        const refused = await sandbox.get(path);
        expect(refused.status, path).toBe(400);
        expect(
          refused.body.error?.errors?.map((error) => error.field),
          path,
        ).toEqual(['order_by']);
      }
    });
  });

  // Last: it moves the sandbox clock past a renewal.
  describe('billed_at on completed automatically collected transactions', () => {
    it('is set for an API payment, a checkout payment and a renewal, in the API, events and the report', async () => {
      const apiPaid = await readyTransaction(sandbox, buyer, priceId);
      await sandbox.post(`/transactions/${apiPaid.id}/simulate-payment`, { outcome: 'success' });
      const viaCheckout = await readyTransaction(sandbox, buyer, priceId);
      expect((await checkoutClient(harness.sandboxUrl).pay(String(viaCheckout.id), CARDS.success)).status).toBe(303);
      const monthly = await createOneOffPrice(sandbox, '1000', 'GBP', {
        billing_cycle: { interval: 'month', frequency: 1 },
      });
      const first = await readyTransaction(sandbox, buyer, monthly);
      await sandbox.post(`/transactions/${first.id}/simulate-payment`, { outcome: 'success' });
      const subscriptionId = String((await sandbox.get(`/transactions/${first.id}`)).entity.subscription_id);
      const advanced = await sandbox.post('/sandbox-clock/advance', { seconds: 32 * 86_400 });
      expect(advanced.status, advanced.text).toBe(200);
      const renewals = await paddle.transactions
        .list({ subscriptionId: [subscriptionId], origin: ['subscription_recurring'] })
        .next();
      expect(renewals.map((renewal) => renewal.status)).toEqual(['completed']);

      const ids = [String(apiPaid.id), String(viaCheckout.id), String(first.id), String(renewals[0]?.id)];
      for (const id of ids) {
        const transaction = await paddle.transactions.get(id);
        expect(transaction.status).toBe('completed');
        expect(transaction.billedAt, id).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT/));
      }
      const completedEvents = await paddle.events.list({ eventType: ['transaction.completed'] as never }).next();
      for (const id of ids) {
        const event = completedEvents.find((candidate) => (candidate.data as { id?: string }).id === id);
        expect((event?.data as { billedAt?: string | null } | undefined)?.billedAt, id).toEqual(expect.any(String));
      }

      const report = await paddle.reports.create({ type: 'transactions', filters: [] });
      await eventually(
        'the report to be ready',
        async () => (await paddle.reports.get(report.id)).status !== 'pending',
      );
      const csv = await (await fetch((await paddle.reports.getReportCsv(report.id)).url)).text();
      const [header, ...rows] = csv
        .trim()
        .split('\r\n')
        .map((line) => line.split(','));
      const billedAt = header?.indexOf('billed_at') ?? -1;
      expect(billedAt).toBeGreaterThan(0);
      for (const id of ids) {
        expect(rows.find((row) => row[0] === id)?.[billedAt], id).toMatch(/^\d{4}-\d\d-\d\dT/);
      }
    });
  });
});
