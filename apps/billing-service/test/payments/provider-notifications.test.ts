/**
 * A live provider that answers asynchronously, through the payment-provider port (ADR 1410), on
 * both engines: the checkout's attempt waits (`pending`), the provider's notification settles it
 * once, a replayed notification changes nothing, a notification for an unknown payment is
 * answered and ignored, and one whose signature does not verify is refused. The provider here
 * is a stand-in for a remote one (the Stripe adapter's own tests speak Stripe's wire format),
 * configured for every account; its webhooks use the one route every provider's do
 * (`/payment-providers/{provider}/webhooks/{account_id}`, ADR 1425).
 */
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, harnessClients } from '../support/api-client.js';
import { createBuyer, createOneOffPrice, createTransaction } from '../transactions/transaction-fixtures.js';
import { CARDS, checkoutClient } from './checkout-client.js';
import { remoteProvider } from './remote-provider.js';

describe.each(ENGINES)('%s: provider notifications', (engine) => {
  let harness: BillingHarness;
  let live: ApiClient;
  let priceId: string;

  async function pendingCheckout(): Promise<{ id: string; ref: string }> {
    const buyer = await createBuyer(live, 'GB');
    const created = await createTransaction(live, {
      items: [{ price_id: priceId, quantity: 1 }],
      customer_id: buyer.customerId,
      address_id: buyer.addressId,
    });
    const checkout = checkoutClient(harness.liveUrl);
    const paid = await checkout.pay(String(created.id), CARDS.success);
    expect(paid.status, paid.text).toBe(303);
    expect((await checkout.open(String(created.id))).text).toContain('being processed');
    const attempts = await harness.services.store.paymentAttempts.list(
      { accountId: harness.accountId, environment: 'live' },
      { filter: { transaction_id: [{ op: 'eq', value: String(created.id) }] }, perPage: 1, direction: 'asc' },
    );
    return { id: String(created.id), ref: String(attempts.items[0]?.providerPaymentRef) };
  }

  function notify(body: Record<string, string>, signature = 'valid') {
    return fetch(`${harness.liveUrl}/payment-providers/remotepay/webhooks/${harness.accountId}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Remotepay-Signature': signature },
      body: JSON.stringify(body),
    });
  }

  beforeAll(async () => {
    harness = await startBillingHarness({ engine, livePaymentProvider: remoteProvider });
    ({ live } = harnessClients(harness));
    priceId = await createOneOffPrice(live, '1500', 'GBP');
  });
  afterAll(() => harness.close());

  it('settles a pending payment once, whatever the provider repeats', async () => {
    const { id, ref } = await pendingCheckout();
    expect((await live.get(`/transactions/${id}`)).entity.status).toBe('ready');
    const forged = await notify({ id: 'evt_1', type: 'succeeded', ref }, 'forged');
    expect(forged.status).toBe(400);
    expect(((await forged.json()) as { error: { code: string } }).error.code).toBe('provider_notification_invalid');
    expect((await live.get(`/transactions/${id}`)).entity.status).toBe('ready');

    const first = await notify({ id: 'evt_1', type: 'succeeded', ref });
    expect(await first.json()).toMatchObject({
      data: { notification_id: 'evt_1', kind: 'payment_succeeded', outcome: 'applied' },
    });
    const replay = await notify({ id: 'evt_1', type: 'succeeded', ref });
    expect(await replay.json()).toMatchObject({ data: { outcome: 'duplicate' } });
    const late = await notify({ id: 'evt_2', type: 'declined', ref });
    expect(await late.json()).toMatchObject({ data: { outcome: 'ignored' } });
    const completed = (await live.get(`/transactions/${id}`)).entity;
    expect(completed.status).toBe('completed');
    expect(completed.payments).toMatchObject([
      { status: 'captured', method_details: { type: 'card', card: { type: 'mastercard', last4: '4444' } } },
    ]);
  });

  it('records a declined notification and keeps the checkout payable; ignores unknown payments', async () => {
    const { id, ref } = await pendingCheckout();
    const declined = await notify({ id: 'evt_3', type: 'declined', ref });
    expect(await declined.json()).toMatchObject({ data: { kind: 'payment_declined', outcome: 'applied' } });
    const after = (await live.get(`/transactions/${id}`)).entity;
    expect(after.status).toBe('ready');
    expect(after.payments).toMatchObject([{ status: 'error', error_code: 'declined' }]);
    const unknown = await notify({ id: 'evt_4', type: 'succeeded', ref: 'rp_payatt_unknown' });
    expect(unknown.status).toBe(200);
    expect(await unknown.json()).toMatchObject({ data: { outcome: 'unknown_payment' } });
    const noSuchProvider = await fetch(`${harness.liveUrl}/payment-providers/nopay/webhooks/${harness.accountId}`, {
      method: 'POST',
      body: '{}',
    });
    expect(noSuchProvider.status).toBe(404);
    // The route Drawdown had for providers configured for every account is gone (ADR 1425): it is
    // an unknown API path now, refused without a key like any other.
    const oldRoute = await fetch(`${harness.liveUrl}/payment-providers/remotepay/notifications`, {
      method: 'POST',
      body: '{}',
    });
    expect(oldRoute.status).toBe(403);
  });
});
