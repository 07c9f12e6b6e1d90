/**
 * Answers the official SDK got wrong (issue 36), on both engines: a transaction or pricing
 * preview whose price has no amount in the asked currency is refused with
 * `transaction_currency_conversion_not_supported` and writes nothing (ADR 1477); products and
 * prices are listed in each documented `order_by` order, page after page, ties broken by id;
 * every entity the public API gives `import_meta` has it (null), in answers and in event data; a
 * subscription started by the sandbox's simulated payment saves its card, so the payment-method
 * calls and the payment-method change work without a browser; with no portal configured (the
 * shipped default) portal links lead to the service's own `/portal`, which refuses with
 * `customer_portal_not_configured`, as a portal session is refused (ADR 1472).
 */
import { type BillingHarness, ENGINES, startBillingHarness, startSandboxSubscription } from '@drawdown/testkit';
import type { Paddle } from '@paddle/paddle-node-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, harnessClients } from '../support/api-client.js';
import { officialSdk, sdkRefusal } from '../support/official-sdk.js';
import { type Buyer, createBuyer, createOneOffPrice } from '../transactions/transaction-fixtures.js';

describe.each(ENGINES)('%s: issue 36 answers through the official SDK', (engine) => {
  let harness: BillingHarness;
  let paddle: Paddle;
  let sandbox: ApiClient;
  let buyer: Buyer;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine });
    ({ sandbox } = harnessClients(harness));
    paddle = officialSdk(harness.sandboxKey, harness.sandboxUrl);
    buyer = await createBuyer(sandbox, 'DE');
  });
  afterAll(() => harness.close());

  /** Every item of every page, following the SDK's own `next` cursor. */
  async function everyPage<Item>(collection: AsyncIterable<Item>): Promise<Item[]> {
    const items: Item[] = [];
    for await (const item of collection) items.push(item);
    return items;
  }

  /** Ids in (key, id) order, both in `direction`, as the list must page them. */
  function expectedOrder(rows: readonly (readonly [string, string | bigint])[], direction: 'asc' | 'desc'): string[] {
    const sign = direction === 'asc' ? 1 : -1;
    const compare = (a: string | bigint, b: string | bigint) => (a < b ? -1 : a > b ? 1 : 0);
    return [...rows].sort((a, b) => sign * (compare(a[1], b[1]) || compare(a[0], b[0]))).map((row) => row[0]);
  }

  it('pages products in each documented order_by field, ties broken by id', async () => {
    const specs = [
      { name: 'apple', description: 'b', customData: { k: 'b' } },
      { name: 'Zed', description: null, customData: null },
      { name: 'émile', description: 'a', customData: { k: 'a' } },
      { name: 'apple', description: 'c', customData: null },
      { name: 'mango', description: 'a', customData: { k: 'c' } },
    ];
    const made: { id: string; name: string; description: string; customData: string }[] = [];
    for (const spec of specs) {
      const product = await paddle.products.create({
        name: spec.name,
        taxCategory: 'standard',
        ...(spec.description === null ? {} : { description: spec.description }),
        ...(spec.customData === null ? {} : { customData: spec.customData }),
      });
      made.push({
        id: product.id,
        name: spec.name,
        description: spec.description ?? '',
        customData: spec.customData === null ? '' : JSON.stringify(spec.customData),
      });
    }
    const ids = made.map((product) => product.id);
    for (const [field, direction] of [
      ['name', 'asc'],
      ['name', 'desc'],
      ['description', 'asc'],
      ['custom_data', 'asc'],
    ] as const) {
      const key = field === 'custom_data' ? 'customData' : field;
      const orderBy = `${field}[${direction.toUpperCase()}]` as never;
      const listed = await everyPage(paddle.products.list({ id: ids, orderBy, perPage: 2 }));
      expect(
        listed.map((product) => product.id),
        `${field} ${direction}`,
      ).toEqual(
        expectedOrder(
          made.map((product) => [product.id, product[key]]),
          direction,
        ),
      );
    }
    // The other documented fields are accepted, on either side.
    for (const field of ['image_url', 'status', 'tax_category', 'updated_at', 'created_at', 'id']) {
      const listed = await everyPage(paddle.products.list({ id: ids, orderBy: `${field}[ASC]` as never, perPage: 2 }));
      expect(listed.map((product) => product.id).sort(), field).toEqual([...ids].sort());
    }
  });

  it('pages prices by amount (as a number), billing cycle and quantity; refuses an undocumented field', async () => {
    const product = await paddle.products.create({ name: 'Ordered prices', taxCategory: 'standard' });
    const specs = [
      { amount: '900', frequency: 1, minimum: 3 },
      { amount: '10000', frequency: null, minimum: 1 },
      { amount: '25', frequency: 12, minimum: 2 },
      { amount: '10000', frequency: 3, minimum: 1 },
      { amount: '0', frequency: 1, minimum: 10 },
    ];
    const made: { id: string; amount: bigint; frequency: bigint; minimum: bigint }[] = [];
    for (const spec of specs) {
      const price = await paddle.prices.create({
        productId: product.id,
        description: `Costs ${spec.amount}`,
        unitPrice: { amount: spec.amount, currencyCode: 'EUR' },
        quantity: { minimum: spec.minimum, maximum: 100 },
        ...(spec.frequency === null ? {} : { billingCycle: { interval: 'month' as const, frequency: spec.frequency } }),
      });
      // A one-time price has no billing cycle: it sorts first ascending (frequency -1 here).
      made.push({
        id: price.id,
        amount: BigInt(spec.amount),
        frequency: BigInt(spec.frequency ?? -1),
        minimum: BigInt(spec.minimum),
      });
    }
    for (const [field, key, direction] of [
      ['unit_price.amount', 'amount', 'desc'],
      ['unit_price.amount', 'amount', 'asc'],
      ['billing_cycle.frequency', 'frequency', 'asc'],
      ['quantity.minimum', 'minimum', 'desc'],
    ] as const) {
      const orderBy = `${field}[${direction.toUpperCase()}]` as never;
      const listed = await everyPage(paddle.prices.list({ productId: [product.id], orderBy, perPage: 2 }));
      expect(
        listed.map((price) => price.id),
        `${field} ${direction}`,
      ).toEqual(
        expectedOrder(
          made.map((price) => [price.id, price[key]]),
          direction,
        ),
      );
    }
    for (const field of [
      'billing_cycle.interval',
      'product_id',
      'quantity.maximum',
      'status',
      'tax_mode',
      'unit_price.currency_code',
    ]) {
      const listed = await everyPage(
        paddle.prices.list({ productId: [product.id], orderBy: `${field}[DESC]` as never, perPage: 3 }),
      );
      expect(listed, field).toHaveLength(specs.length);
    }
    for (const path of [
      '/prices?order_by=unit_price[ASC]',
      '/prices?order_by=name[ASC]',
      '/prices?order_by=unit_price.amount',
      '/products?order_by=unit_price.amount[ASC]',
      '/products?order_by=type[ASC]',
    ]) {
      const refused = await sandbox.get(path);
      expect(refused.status, path).toBe(400);
      expect(refused.body.error?.code, path).toBe('invalid_field');
      expect(
        refused.body.error?.errors?.map((error) => error.field),
        path,
      ).toEqual(['order_by']);
    }
  });

  it('refuses a currency the price has no amount in, with a specific code, writing nothing', async () => {
    const usd = await createOneOffPrice(sandbox, '1000', 'USD');
    const before = (await sandbox.get('/transactions?per_page=200')).list.length;
    const items = [{ priceId: usd, quantity: 1 }];
    expect(
      await sdkRefusal(
        paddle.transactions.create({
          items,
          customerId: buyer.customerId,
          addressId: buyer.addressId,
          currencyCode: 'EUR',
        }),
      ),
    ).toBe('transaction_currency_conversion_not_supported');
    expect(
      await sdkRefusal(paddle.pricingPreview.preview({ items, currencyCode: 'EUR', address: { countryCode: 'DE' } })),
    ).toBe('transaction_currency_conversion_not_supported');
    expect((await sandbox.get('/transactions?per_page=200')).list.length).toBe(before);
    // The price's own currency is billed as before.
    const created = await paddle.transactions.create({ items, customerId: buyer.customerId, currencyCode: 'USD' });
    expect(created.currencyCode).toBe('USD');
  });

  it('gives import_meta (null) to products, prices, customers, addresses and subscriptions, and their events', async () => {
    const product = await paddle.products.create({ name: 'Imported nothing', taxCategory: 'standard' });
    const price = await paddle.prices.create({
      productId: product.id,
      description: 'Monthly',
      unitPrice: { amount: '500', currencyCode: 'USD' },
      billingCycle: { interval: 'month', frequency: 1 },
    });
    const subscriptionId = await startSandboxSubscription(harness, {
      customerId: buyer.customerId,
      items: [{ priceId: price.id, quantity: 1 }],
    });
    for (const path of [
      `/products/${product.id}`,
      `/prices/${price.id}`,
      `/customers/${buyer.customerId}`,
      `/customers/${buyer.customerId}/addresses/${buyer.addressId}`,
      `/subscriptions/${subscriptionId}`,
    ]) {
      const answer = await sandbox.get(path);
      expect(answer.status, answer.text).toBe(200);
      expect(answer.entity, path).toHaveProperty('import_meta', null);
    }
    const subscription = (await sandbox.get(`/subscriptions/${subscriptionId}`)).entity as {
      items: { price: object; product: object }[];
    };
    expect(subscription.items[0]?.price).toHaveProperty('import_meta', null);
    expect(subscription.items[0]?.product).toHaveProperty('import_meta', null);
    for (const type of [
      'product.created',
      'price.created',
      'customer.created',
      'address.created',
      'subscription.created',
    ]) {
      const events = (await sandbox.get(`/events?event_type=${type}&per_page=1`)).list;
      expect(events[0]?.data, type).toHaveProperty('import_meta', null);
      // No destination is set up here: no notification was made for it.
      expect(events[0], type).toHaveProperty('notification_id', null);
    }
  });

  it('saves the card a simulated payment starts a subscription with; the method calls and a method change work', async () => {
    const price = await paddle.prices.create({
      productId: (await paddle.products.create({ name: 'Simulated card', taxCategory: 'standard' })).id,
      description: 'Monthly',
      unitPrice: { amount: '1200', currencyCode: 'EUR' },
      billingCycle: { interval: 'month', frequency: 1 },
    });
    const customer = await createBuyer(sandbox, 'DE');
    const checkout = await paddle.transactions.create({
      items: [{ priceId: price.id, quantity: 1 }],
      customerId: customer.customerId,
      addressId: customer.addressId,
    });
    const paid = await sandbox.post(`/transactions/${checkout.id}/simulate-payment`, { outcome: 'success' });
    expect(paid.status, paid.text).toBe(200);
    const completed = await paddle.transactions.get(checkout.id);
    expect(completed.status).toBe('completed');
    const subscriptionId = String(completed.subscriptionId);
    const methodId = completed.payments[0]?.paymentMethodId;
    expect(methodId).toMatch(/^paymtd_/);
    expect(completed.payments[0]?.methodDetails?.card?.last4).toBe('4242');

    const listed = await paddle.paymentMethods.list(customer.customerId).next();
    expect(listed.map((method) => method.id)).toEqual([methodId]);
    const method = await paddle.paymentMethods.get(customer.customerId, String(methodId));
    expect(method.origin).toBe('subscription');
    expect(method.card?.last4).toBe('4242');

    // The payment-method change: its zero transaction, paid by simulation, saves the new card,
    // which the subscription's next charge then uses.
    const change = await paddle.subscriptions.getPaymentMethodChangeTransaction(subscriptionId);
    expect(change.origin).toBe('subscription_payment_method_change');
    const changed = await sandbox.post(`/transactions/${change.id}/simulate-payment`, { outcome: 'success' });
    expect(changed.status, changed.text).toBe(200);
    const methods = await paddle.paymentMethods.list(customer.customerId).next();
    const newer = methods.map((saved) => saved.id).filter((id) => id !== methodId);
    expect(newer).toHaveLength(1);
    const oneOff = await createOneOffPrice(sandbox, '300', 'EUR');
    await paddle.subscriptions.createOneTimeCharge(subscriptionId, {
      effectiveFrom: 'immediately',
      items: [{ priceId: oneOff, quantity: 1 }],
    });
    const charges = await paddle.transactions
      .list({ subscriptionId: [subscriptionId], origin: ['subscription_charge'] })
      .next();
    expect(charges.map((charge) => charge.payments[0]?.paymentMethodId)).toEqual([newer[0]]);

    await paddle.paymentMethods.delete(customer.customerId, String(methodId));
    const remaining = await paddle.paymentMethods.list(customer.customerId).next();
    expect(remaining.map((saved) => saved.id)).toEqual(newer);
  });

  it('with no portal configured, refuses a portal session and serves a clear refusal where management URLs lead', async () => {
    const price = await paddle.prices.create({
      productId: (await paddle.products.create({ name: 'Portal-less', taxCategory: 'standard' })).id,
      description: 'Monthly',
      unitPrice: { amount: '700', currencyCode: 'USD' },
      billingCycle: { interval: 'month', frequency: 1 },
    });
    const subscriptionId = await startSandboxSubscription(harness, {
      customerId: buyer.customerId,
      items: [{ priceId: price.id, quantity: 1 }],
    });
    expect(await sdkRefusal(paddle.customerPortalSessions.create(buyer.customerId, [subscriptionId]))).toBe(
      'customer_portal_not_configured',
    );
    const subscription = await paddle.subscriptions.get(subscriptionId);
    const base = `${harness.sandboxUrl.replace(/\/+$/, '')}/portal/subscriptions/${subscriptionId}`;
    expect(subscription.managementUrls).toEqual({
      updatePaymentMethod: `${base}/payment-method`,
      cancel: `${base}/cancel`,
    });
    for (const url of [subscription.managementUrls?.cancel, `${harness.liveUrl.replace(/\/+$/, '')}/portal`]) {
      const answer = await fetch(String(url));
      expect(answer.status, url).toBe(404);
      expect(((await answer.json()) as { error: { code: string } }).error.code, url).toBe(
        'customer_portal_not_configured',
      );
    }
  });
});
