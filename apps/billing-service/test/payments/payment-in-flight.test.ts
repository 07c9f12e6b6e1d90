/**
 * A payment in flight owns its transaction (ADR 1468), through the sandbox's 3-D Secure challenge
 * on both engines. While the challenge waits, every change of what the transaction owes or whether
 * it may be paid is refused with `transaction_payment_in_progress` and changes nothing (cancel, a
 * reported payment, a simulated payment, fewer or more items, billing it); the customer then passes
 * the challenge and the money is recorded once. An abandoned challenge never blocks the
 * transaction: a new payment supersedes it (the challenge is canceled first and can no longer pay),
 * and after 30 minutes the recovery step cancels it, after which the merchant's change goes ahead.
 */
import { applyOutcome, NO_HOOKS } from '@drawdown/billing-core';
import { type BillingHarness, ENGINES, movableClock, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, eventCount, expectError, harnessClients, type WireObject } from '../support/api-client.js';
import { type Buyer, createBuyer, createOneOffPrice, createTransaction } from '../transactions/transaction-fixtures.js';
import { CARDS, type CheckoutClient, checkoutClient } from './checkout-client.js';

const MINUTE_MS = 60_000;

describe.each(ENGINES)('%s: a sandbox payment in flight', (engine) => {
  const clock = movableClock();
  let harness: BillingHarness;
  let sandbox: ApiClient;
  let checkout: CheckoutClient;
  let buyer: Buyer;
  let priceId: string;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine, clock });
    ({ sandbox } = harnessClients(harness));
    checkout = checkoutClient(harness.sandboxUrl);
    buyer = await createBuyer(sandbox, 'DE');
    priceId = await createOneOffPrice(sandbox, '5000', 'EUR');
  });
  afterAll(() => harness.close());

  async function transaction(id: string): Promise<WireObject> {
    const response = await sandbox.get(`/transactions/${id}`);
    expect(response.status, response.text).toBe(200);
    return response.entity;
  }

  function balanceOf(entity: WireObject): string {
    return (entity.details as { totals: { grand_total: string } }).totals.grand_total;
  }

  function paymentsOf(entity: WireObject): { status: string; amount: string; error_code: string | null }[] {
    return entity.payments as { status: string; amount: string; error_code: string | null }[];
  }

  /** A ready transaction for two of the price, and a payment with the 3-D Secure card waiting on its challenge. */
  async function waitingChallenge(): Promise<{ id: string; challenge: string }> {
    const created = await createTransaction(sandbox, {
      items: [{ price_id: priceId, quantity: 2 }],
      customer_id: buyer.customerId,
      address_id: buyer.addressId,
    });
    const id = String(created.id);
    const challenged = await checkout.pay(id, CARDS.challenge);
    expect(challenged.status, challenged.text).toBe(303);
    expect(challenged.location).toMatch(/^\/checkout\/sandbox-authentication\/sbxpay_/);
    return { id, challenge: challenged.location ?? '' };
  }

  async function attemptsOf(id: string) {
    const page = await harness.services.store.paymentAttempts.list(
      { accountId: harness.accountId, environment: 'sandbox' },
      { filter: { transaction_id: [{ op: 'eq', value: id }] }, direction: 'asc', perPage: 10, countTotal: false },
    );
    return page.items;
  }

  it('refuses every change of what the transaction owes while the challenge waits, then records the payment once', async () => {
    const { id, challenge } = await waitingChallenge();
    const before = await transaction(id);
    const events = await eventCount(harness);
    const items = (quantity: number) => ({ items: [{ price_id: priceId, quantity }] });
    const refusals = [
      await sandbox.patch(`/transactions/${id}`, { status: 'canceled' }),
      await sandbox.post(`/transactions/${id}/payments`, { method_type: 'card', provider_reference: 'elsewhere' }),
      await sandbox.post(`/transactions/${id}/simulate-payment`, { outcome: 'success' }),
      await sandbox.patch(`/transactions/${id}`, items(1)),
      await sandbox.patch(`/transactions/${id}`, items(3)),
      await sandbox.patch(`/transactions/${id}`, { collection_mode: 'manual', billing_details: null }),
      await sandbox.patch(`/transactions/${id}`, { status: 'billed' }),
    ];
    for (const refusal of refusals) {
      const error = expectError(refusal, 409, 'transaction_payment_in_progress');
      expect(error.detail).toContain('30 minutes');
    }
    // Nothing changed: the same transaction, no event.
    expect(await transaction(id)).toEqual(before);
    expect(await eventCount(harness)).toBe(events);
    // What does not touch the money still changes.
    const labelled = await sandbox.patch(`/transactions/${id}`, { custom_data: { order: '42' } });
    expect(labelled.status, labelled.text).toBe(200);

    const passed = await checkout.post(challenge, { outcome: 'pass' });
    expect(passed.status).toBe(303);
    const paid = await transaction(id);
    expect(paid.status).toBe('completed');
    expect(paymentsOf(paid)).toMatchObject([{ status: 'captured', amount: balanceOf(before) }]);
    // Now the transaction is paid, the merchant's report is refused for that reason, not the payment in flight.
    const late = await sandbox.post(`/transactions/${id}/payments`, { method_type: 'card', provider_reference: 'x' });
    expectError(late, 409, 'transaction_not_payable');
  });

  it('lets a new payment supersede an abandoned challenge: canceled first, it can no longer pay', async () => {
    const { id, challenge } = await waitingChallenge();
    const paid = await checkout.pay(id, CARDS.success);
    expect(paid.status, paid.text).toBe(303);
    const completed = await transaction(id);
    expect(completed.status).toBe('completed');
    expect(paymentsOf(completed)).toMatchObject([{ status: 'captured', amount: balanceOf(completed) }]);
    const [abandoned, superseding] = await attemptsOf(id);
    expect(abandoned).toMatchObject({ status: 'canceled', errorCode: 'canceled' });
    expect(superseding).toMatchObject({ status: 'succeeded' });
    // The old challenge passed now takes nothing: one payment, as before.
    await checkout.post(challenge, { outcome: 'pass' });
    expect(paymentsOf(await transaction(id))).toHaveLength(1);
    expect((await attemptsOf(id))[0]).toMatchObject({ status: 'canceled' });
  });

  it('cancels a challenge left waiting for 30 minutes, after which the merchant may cancel the transaction', async () => {
    const { id, challenge } = await waitingChallenge();
    // Within the 30 minutes the recovery step leaves it to the customer.
    clock.advance(20 * MINUTE_MS);
    await harness.services.useCases.runDueWork('payment_recovery');
    expect((await attemptsOf(id))[0]?.status).toBe('requires_action');
    expectError(
      await sandbox.patch(`/transactions/${id}`, { status: 'canceled' }),
      409,
      'transaction_payment_in_progress',
    );

    clock.advance(11 * MINUTE_MS);
    await harness.services.useCases.runDueWork('payment_recovery');
    expect((await attemptsOf(id))[0]).toMatchObject({ status: 'canceled', errorCode: 'canceled' });
    const canceled = await sandbox.patch(`/transactions/${id}`, { status: 'canceled' });
    expect(canceled.status, canceled.text).toBe(200);
    expect(canceled.entity.status).toBe('canceled');
    // The customer who comes back to the challenge pays nothing.
    await checkout.post(challenge, { outcome: 'pass' });
    const after = await transaction(id);
    expect(after.status).toBe('canceled');
    expect(paymentsOf(after)).toEqual([]);
  });

  it('records money taken after the transaction could no longer take it, as a canceled payment refunded', async () => {
    // A provider that answers success late, for an attempt Drawdown had already ended: the core's
    // last line of defence (unreachable through the sandbox's own provider, which cancels first).
    const { id } = await waitingChallenge();
    const [attempt] = await attemptsOf(id);
    const scope = { accountId: harness.accountId, environment: 'sandbox' as const };
    await harness.services.store.paymentAttempts.update(scope, {
      ...(attempt as NonNullable<typeof attempt>),
      status: 'canceled',
    });
    const canceled = await sandbox.patch(`/transactions/${id}`, { status: 'canceled' });
    expect(canceled.status, canceled.text).toBe(200);
    const before = await eventCount(harness);
    const context = {
      store: harness.services.store,
      ids: harness.services.ids,
      clock,
      scope,
      account: await harness.services.useCases.requireAccount(harness.accountId),
    };
    const card = { type: 'visa', last4: '0446', expiryMonth: 12, expiryYear: 2039, cardholderName: 'Ada Lovelace' };
    const success = {
      status: 'succeeded' as const,
      providerPaymentRef: String(attempt?.providerPaymentRef),
      method: { providerMethodRef: 'sbxpm_late.success', type: 'card' as const, card },
    };
    const applied = await harness.services.store.transaction((tx) =>
      applyOutcome(context, tx, String(attempt?.id), success, NO_HOOKS),
    );
    expect(applied).toBe(true);
    const recorded = await transaction(id);
    expect(recorded.status).toBe('canceled');
    expect(paymentsOf(recorded)).toMatchObject([
      { status: 'canceled', amount: String(attempt?.amount), error_code: 'canceled' },
    ]);
    expect(attempt?.amount).toBe((recorded.details as { totals: { grand_total: string } }).totals.grand_total);
    expect(recorded.details).toEqual(canceled.entity.details);
    expect(await eventCount(harness)).toBeGreaterThan(before);
    expect((await attemptsOf(id))[0]).toMatchObject({ status: 'refunding', unapplied: 'transaction_canceled' });
    // The recovery step refunds it (the sandbox moves no money: at once).
    await harness.services.useCases.runDueWork('payment_recovery');
    expect((await attemptsOf(id))[0]).toMatchObject({ status: 'refunded' });
  });
});
