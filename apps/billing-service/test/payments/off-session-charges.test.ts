/**
 * `chargeSavedMethod`, the off-session charge a live provider's renewals go through (ADR 1411),
 * exercised with the sandbox provider on both engines: a renewal whose first attempt failed
 * (`renewal_payments: failure`) is charged again with the subscription's saved card, once, and
 * the subscription comes back from past due; a card that declines off-session leaves both past
 * due; a second charge of a settled transaction is refused. Each payment names the saved card as the
 * documented card summary, declined ones too, and so does a renewal the sandbox clock charges.
 */
import type { Caller } from '@drawdown/billing-core';
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, harnessClients } from '../support/api-client.js';
import { createPrice, createProduct } from '../support/catalogue-fixtures.js';
import { createBuyer, createTransaction } from '../transactions/transaction-fixtures.js';
import { CARDS, checkoutClient } from './checkout-client.js';

describe.each(ENGINES)('%s: off-session charges of saved methods', (engine) => {
  let harness: BillingHarness;
  let sandbox: ApiClient;
  let caller: Caller;
  let priceId: string;

  /** A subscription bought at the checkout with `card`, then renewed with a failed payment: past due. */
  async function unpaidRenewal(card: string): Promise<{ subscriptionId: string; renewalId: string }> {
    const buyer = await createBuyer(sandbox, 'GB');
    const created = await createTransaction(sandbox, {
      items: [{ price_id: priceId, quantity: 1 }],
      customer_id: buyer.customerId,
      address_id: buyer.addressId,
    });
    const paid = await checkoutClient(harness.sandboxUrl).pay(String(created.id), card);
    expect(paid.status, paid.text).toBe(303);
    const subscriptionId = String((await sandbox.get(`/transactions/${created.id}`)).entity.subscription_id);
    const advanced = await sandbox.post('/sandbox-clock/advance', {
      seconds: 32 * 86_400,
      renewal_payments: 'failure',
    });
    expect(advanced.status, advanced.text).toBe(200);
    expect((await sandbox.get(`/subscriptions/${subscriptionId}`)).entity.status).toBe('past_due');
    const renewals = await sandbox.get(
      `/transactions?subscription_id=${subscriptionId}&origin=subscription_recurring&status=past_due`,
    );
    expect(renewals.list, renewals.text).toHaveLength(1);
    return { subscriptionId, renewalId: String(renewals.list[0]?.id) };
  }

  beforeAll(async () => {
    harness = await startBillingHarness({ engine });
    ({ sandbox } = harnessClients(harness));
    caller = {
      account: await harness.services.useCases.requireAccount(harness.accountId),
      scope: { accountId: harness.accountId, environment: 'sandbox' },
    };
    const productId = await createProduct(sandbox, { name: 'Renewing plan' });
    priceId = String(
      (await createPrice(sandbox, productId, { unit_price: { amount: '900', currency_code: 'GBP' } })).id,
    );
  });
  afterAll(() => harness.close());

  it('charges the saved card once, completes the renewal and revives the subscription', async () => {
    const { subscriptionId, renewalId } = await unpaidRenewal(CARDS.success);
    const charged = await harness.services.useCases.chargeSavedMethod(caller, renewalId);
    expect(charged.status).toBe('completed');
    expect(charged.payments.map((payment) => payment.status)).toEqual(['error', 'captured']);
    expect(charged.payments[1]).toMatchObject({ status: 'captured', methodDetails: { card: { last4: '4242' } } });
    expect(charged.payments[1]?.paymentMethodId).toMatch(/^paymtd_/);
    expect((await sandbox.get(`/subscriptions/${subscriptionId}`)).entity.status).toBe('active');
    await expect(harness.services.useCases.chargeSavedMethod(caller, renewalId)).rejects.toMatchObject({
      code: 'transaction_not_payable',
    });
  });

  it('leaves the renewal and the subscription past due when the card declines off-session', async () => {
    const { subscriptionId, renewalId } = await unpaidRenewal(CARDS.laterDecline);
    const charged = await harness.services.useCases.chargeSavedMethod(caller, renewalId);
    expect(charged.status).toBe('past_due');
    expect(charged.payments).toMatchObject([{ status: 'error' }, { status: 'error', errorCode: 'declined' }]);
    expect(charged.payments[1]?.paymentMethodId).toMatch(/^paymtd_/);
    // The declined payment names the saved card, as the documented card summary (ADR 1451).
    const wire = (await sandbox.get(`/transactions/${renewalId}`)).entity.payments as { method_details: unknown }[];
    expect(wire[1]?.method_details).toMatchObject({
      type: 'card',
      card: { type: 'visa', last4: '3184', expiry_month: 12 },
    });
    expect((await sandbox.get(`/subscriptions/${subscriptionId}`)).entity.status).toBe('past_due');
  });

  it('names the saved card on a renewal the sandbox clock charges automatically', async () => {
    const buyer = await createBuyer(sandbox, 'GB');
    const created = await createTransaction(sandbox, {
      items: [{ price_id: priceId, quantity: 1 }],
      customer_id: buyer.customerId,
      address_id: buyer.addressId,
    });
    expect((await checkoutClient(harness.sandboxUrl).pay(String(created.id), CARDS.success)).status).toBe(303);
    const subscriptionId = String((await sandbox.get(`/transactions/${created.id}`)).entity.subscription_id);
    const advanced = await sandbox.post('/sandbox-clock/advance', { seconds: 32 * 86_400 });
    expect(advanced.status, advanced.text).toBe(200);
    const renewals = await sandbox.get(
      `/transactions?subscription_id=${subscriptionId}&origin=subscription_recurring&status=completed`,
    );
    expect(renewals.list, renewals.text).toHaveLength(1);
    expect(renewals.list[0]?.payments).toMatchObject([
      { status: 'captured', method_details: { type: 'card', card: { type: 'visa', last4: '4242', expiry_month: 12 } } },
    ]);
  });

  it('charges concurrently requested renewals once', async () => {
    const { renewalId } = await unpaidRenewal(CARDS.success);
    const results = await Promise.allSettled(
      [1, 2, 3].map(() => harness.services.useCases.chargeSavedMethod(caller, renewalId)),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).not.toHaveLength(0);
    for (const result of results) {
      if (result.status === 'rejected') {
        expect((result.reason as { code: string }).code).toMatch(/^transaction_(payment_in_progress|not_payable)$/);
      }
    }
    const renewal = await sandbox.get(`/transactions/${renewalId}`);
    expect(renewal.entity.status).toBe('completed');
    expect(
      (renewal.entity.payments as { status: string }[]).filter((payment) => payment.status === 'captured'),
    ).toHaveLength(1);
  });
});
