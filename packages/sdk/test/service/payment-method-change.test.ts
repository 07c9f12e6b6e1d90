/**
 * The Drawdown SDK's `subscriptions.getPaymentMethodChangeTransaction` against a real service, on
 * both engines: a zero-value transaction of the subscription whose hosted checkout replaces the
 * card, which the billing portal links to.
 */
import { Drawdown, DrawdownApiError } from '@drawdown/sdk';
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unique } from '../support/fixtures.js';

describe.each(ENGINES)('%s: the payment-method change transaction', (engine) => {
  let harness: BillingHarness;
  let drawdown: Drawdown;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine });
    drawdown = new Drawdown(harness.sandboxKey, { baseUrl: harness.sandboxUrl });
  });
  afterAll(() => harness.close());

  it('answers a zero-value transaction of the subscription with a checkout link, and 404s an unknown one', async () => {
    const customer = await drawdown.customers.create({ email: `${unique('buyer')}@example.com` });
    const product = await drawdown.products.create({ name: 'Plan', taxCategory: 'standard' });
    const price = await drawdown.prices.create({
      productId: product.id,
      description: 'Monthly',
      unitPrice: { amount: '1500', currencyCode: 'USD' },
      billingCycle: { interval: 'month', frequency: 1 },
    });
    const address = await drawdown.addresses.create(customer.id, { countryCode: 'US' });
    const checkout = await drawdown.transactions.create({
      customerId: customer.id,
      addressId: address.id,
      items: [{ priceId: price.id, quantity: 1 }],
    });
    const subscriptionId = String((await drawdown.transactions.simulatePayment(checkout.id, 'success')).subscriptionId);
    const transaction = await drawdown.subscriptions.getPaymentMethodChangeTransaction(subscriptionId);
    expect(transaction).toMatchObject({
      subscriptionId,
      customerId: customer.id,
      origin: 'subscription_payment_method_change',
    });
    expect(transaction.details.totals.grandTotal).toBe('0');
    expect(transaction.checkout?.url).toContain(`_ptxn=${transaction.id}`);
    const refused = await drawdown.subscriptions
      .getPaymentMethodChangeTransaction('sub_01h00000000000000000000000')
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DrawdownApiError);
    expect((refused as DrawdownApiError).code).toBe('not_found');
  });
});
