/**
 * Transactions over HTTP on both engines: every status of the seed reached the way it happens
 * in practice, every transition of the lifecycle table, the totals, and refusals of bad input.
 */
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiClient,
  eventCount,
  expectError,
  expectInvalidField,
  harnessClients,
  type WireObject,
} from '../support/api-client.js';
import { createProduct, createPrice as createRecurringPrice, createUnit } from '../support/catalogue-fixtures.js';
import {
  type Buyer,
  createBuyer,
  createOneOffPrice,
  createTransaction,
  readyTransaction,
  totalsOf,
} from './transaction-fixtures.js';

async function eventTypes(api: ApiClient, transactionId: string): Promise<string[]> {
  const types: string[] = [];
  let after = '';
  for (;;) {
    const page = await api.get(`/events?per_page=200&order_by=id[ASC]${after ? `&after=${after}` : ''}`);
    for (const event of page.list) {
      const data = event.data as WireObject;
      if (data?.id === transactionId) types.push(String(event.event_type));
    }
    if (!page.body.meta?.pagination?.has_more) break;
    after = String(page.list.at(-1)?.event_id);
  }
  return types;
}

describe.each(ENGINES)('%s: transaction lifecycle', (engine) => {
  let harness: BillingHarness;
  let sandbox: ApiClient;
  let live: ApiClient;
  let buyer: Buyer;
  let priceId: string;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine });
    ({ sandbox, live } = harnessClients(harness));
    const settings = await sandbox.patch('/tax-settings', {
      default_tax_mode: 'external',
      default_rate: '0.1',
      country_rates: [{ country_code: 'DE', rate: '0.19' }],
    });
    expect(settings.status, settings.text).toBe(200);
    buyer = await createBuyer(sandbox, 'DE');
    priceId = await createOneOffPrice(sandbox, '1000', 'EUR');
  });
  afterAll(() => harness.close());

  it('creates a draft when customer or address is missing, and a ready transaction when complete', async () => {
    const draft = await createTransaction(sandbox, { items: [{ price_id: priceId, quantity: 1 }] });
    expect(draft).toMatchObject({ status: 'draft', customer_id: null, address_id: null, payments: [] });
    const ready = await readyTransaction(sandbox, buyer, priceId);
    expect(ready).toMatchObject({
      status: 'ready',
      customer_id: buyer.customerId,
      address_id: buyer.addressId,
      origin: 'api',
      collection_mode: 'automatic',
      currency_code: 'EUR',
      invoice_number: null,
      billed_at: null,
      business_id: null,
      discount_id: null,
      // Issue 14: automatically collected transactions link to the hosted checkout.
      checkout: { url: `${harness.sandboxUrl}/checkout?_ptxn=${ready.id}` },
      subscription_id: null,
    });
    expect(ready.id).toMatch(/^txn_[a-z\d]{26}$/);
    expect(await eventTypes(sandbox, String(ready.id))).toEqual(['transaction.created', 'transaction.ready']);
  });

  it('computes exclusive tax per line from the country rate, with totals consistent to the unit', async () => {
    const ready = await readyTransaction(sandbox, buyer, priceId);
    expect(totalsOf(ready)).toEqual({
      subtotal: '2000',
      discount: '0',
      tax: '380',
      total: '2380',
      credit: '0',
      credit_to_balance: '0',
      balance: '2380',
      grand_total: '2380',
      grand_total_tax: '380',
      fee: null,
      earnings: null,
      currency_code: 'EUR',
    });
    const details = ready.details as { line_items: WireObject[]; tax_rates_used: WireObject[]; payout_totals: unknown };
    expect(details.payout_totals).toBeNull();
    expect(details.line_items[0]).toMatchObject({
      price_id: priceId,
      quantity: 2,
      proration: null,
      tax_rate: '0.19',
      unit_totals: { subtotal: '1000', discount: '0', tax: '190', total: '1190' },
      totals: { subtotal: '2000', discount: '0', tax: '380', total: '2380' },
    });
    expect(String(details.line_items[0]?.id)).toMatch(/^txnitm_/);
    expect(details.tax_rates_used).toEqual([
      { tax_rate: '0.19', totals: { subtotal: '2000', discount: '0', tax: '380', total: '2380' } },
    ]);
  });

  it('computes inclusive tax (tax_mode internal) inside the price', async () => {
    const inclusive = await createOneOffPrice(sandbox, '1190', 'EUR', { tax_mode: 'internal' });
    const ready = await readyTransaction(sandbox, buyer, inclusive);
    expect(totalsOf(ready)).toMatchObject({ subtotal: '2000', tax: '380', total: '2380', grand_total: '2380' });
  });

  it('moves a draft to ready once customer and address are added', async () => {
    const draft = await createTransaction(sandbox, { items: [{ price_id: priceId, quantity: 1 }] });
    const updated = await sandbox.patch(`/transactions/${draft.id}`, {
      customer_id: buyer.customerId,
      address_id: buyer.addressId,
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.entity).toMatchObject({ status: 'ready', customer_id: buyer.customerId });
    expect(totalsOf(updated.entity).tax).toBe('190');
  });

  it('bills a manual transaction with an invoice number from the account sequence', async () => {
    const first = await readyTransaction(sandbox, buyer, priceId, { collection_mode: 'manual' });
    const second = await readyTransaction(sandbox, buyer, priceId, { collection_mode: 'manual' });
    const billedFirst = await sandbox.patch(`/transactions/${first.id}`, { status: 'billed' });
    const billedSecond = await sandbox.patch(`/transactions/${second.id}`, { status: 'billed' });
    expect(billedFirst.entity.status).toBe('billed');
    expect(billedFirst.entity.billed_at).toEqual(expect.any(String));
    const year = new Date().getUTCFullYear();
    expect(billedFirst.entity.invoice_number).toMatch(new RegExp(`^${year}-\\d{5}$`));
    const sequence = (value: unknown) => Number(String(value).split('-')[1]);
    expect(sequence(billedSecond.entity.invoice_number)).toBe(sequence(billedFirst.entity.invoice_number) + 1);
    expect(billedFirst.entity.billing_details).toMatchObject({ payment_terms: { interval: 'day', frequency: 30 } });
  });

  it('gives concurrently billed invoices distinct numbers', async () => {
    const transactions = await Promise.all(
      Array.from({ length: 6 }, () => readyTransaction(sandbox, buyer, priceId, { collection_mode: 'manual' })),
    );
    const billed = await Promise.all(
      transactions.map((transaction) => sandbox.patch(`/transactions/${transaction.id}`, { status: 'billed' })),
    );
    const numbers = billed.map((response) => response.entity.invoice_number);
    expect(new Set(numbers).size).toBe(6);
  });

  it('completes an automatic transaction on simulated payment success: paid, then completed', async () => {
    const ready = await readyTransaction(sandbox, buyer, priceId);
    const paid = await sandbox.post(`/transactions/${ready.id}/simulate-payment`, { outcome: 'success' });
    expect(paid.status, paid.text).toBe(200);
    expect(paid.entity).toMatchObject({ status: 'completed' });
    expect(paid.entity.invoice_number).toEqual(expect.any(String));
    expect(totalsOf(paid.entity)).toMatchObject({ balance: '0', grand_total: '2380', fee: '0', earnings: '2000' });
    const payments = paid.entity.payments as WireObject[];
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({ amount: '2380', status: 'captured', error_code: null });
    expect((paid.entity.details as WireObject).payout_totals).toMatchObject({
      grand_total: '2380',
      exchange_rate: '1',
    });
    expect(await eventTypes(sandbox, String(ready.id))).toEqual([
      'transaction.created',
      'transaction.ready',
      'transaction.paid',
      'transaction.updated',
      'transaction.completed',
    ]);
  });

  it('sends an automatic transaction past due when a payment fails, recording the failed attempt', async () => {
    const ready = await readyTransaction(sandbox, buyer, priceId);
    const failed = await sandbox.post(`/transactions/${ready.id}/simulate-payment`, { outcome: 'failure' });
    expect(failed.entity.status).toBe('past_due');
    expect(failed.entity.payments).toEqual([
      expect.objectContaining({ status: 'error', error_code: 'declined', captured_at: null }),
    ]);
    expect(await eventTypes(sandbox, String(ready.id))).toContain('transaction.payment_failed');
    expect(await eventTypes(sandbox, String(ready.id))).toContain('transaction.past_due');
    const again = await sandbox.post(`/transactions/${ready.id}/simulate-payment`, { outcome: 'failure' });
    expect(again.entity.status).toBe('past_due');
    expect(again.entity.payments).toHaveLength(2);
    const recovered = await sandbox.post(`/transactions/${ready.id}/simulate-payment`, { outcome: 'success' });
    expect(recovered.entity.status).toBe('completed');
  });

  it('keeps a manual invoice billed after a failed attempt, and completes it when paid in parts', async () => {
    const ready = await readyTransaction(sandbox, buyer, priceId, { collection_mode: 'manual' });
    await sandbox.patch(`/transactions/${ready.id}`, { status: 'billed' });
    const failed = await sandbox.post(`/transactions/${ready.id}/simulate-payment`, { outcome: 'failure' });
    expect(failed.entity.status).toBe('billed');
    const part = await sandbox.post(`/transactions/${ready.id}/payments`, {
      amount: '1000',
      method_type: 'bank_transfer',
      provider_reference: 'wire-001',
    });
    expect(part.status, part.text).toBe(201);
    expect(part.entity.status).toBe('billed');
    expect(totalsOf(part.entity)).toMatchObject({ grand_total: '2380', balance: '1380' });
    const rest = await sandbox.post(`/transactions/${ready.id}/payments`, {
      method_type: 'bank_transfer',
      provider_reference: 'wire-002',
    });
    expect(rest.entity.status).toBe('completed');
    expect(totalsOf(rest.entity).balance).toBe('0');
  });

  it('records payments reported by the provider in live, where simulation is refused', async () => {
    const liveBuyer = await createBuyer(live, 'FR');
    const livePrice = await createOneOffPrice(live, '500', 'EUR');
    const ready = await readyTransaction(live, liveBuyer, livePrice);
    expectError(
      await live.post(`/transactions/${ready.id}/simulate-payment`, { outcome: 'success' }),
      400,
      'transaction_payment_simulation_sandbox_only',
    );
    const paid = await live.post(`/transactions/${ready.id}/payments`, {
      amount: '1000',
      method_type: 'card',
      provider_reference: 'ch_123',
    });
    expect(paid.entity.status).toBe('completed');
    expect(paid.entity.payments).toEqual([expect.objectContaining({ provider_reference: 'ch_123', amount: '1000' })]);
  });

  it('cancels ready and billed transactions, and nothing canceled or completed moves again', async () => {
    const ready = await readyTransaction(sandbox, buyer, priceId);
    expect((await sandbox.patch(`/transactions/${ready.id}`, { status: 'canceled' })).entity.status).toBe('canceled');
    const billed = await readyTransaction(sandbox, buyer, priceId, { collection_mode: 'manual', status: 'billed' });
    expect(billed.status).toBe('billed');
    expect((await sandbox.patch(`/transactions/${billed.id}`, { status: 'canceled' })).entity.status).toBe('canceled');
    expectError(
      await sandbox.patch(`/transactions/${billed.id}`, { status: 'billed' }),
      409,
      'transaction_status_transition_not_allowed',
    );
    expectError(
      await sandbox.post(`/transactions/${billed.id}/simulate-payment`, { outcome: 'success' }),
      409,
      'transaction_not_payable',
    );
    const completed = await readyTransaction(sandbox, buyer, priceId);
    await sandbox.post(`/transactions/${completed.id}/simulate-payment`, { outcome: 'success' });
    expectError(
      await sandbox.patch(`/transactions/${completed.id}`, { status: 'canceled' }),
      409,
      'transaction_status_transition_not_allowed',
    );
  });

  it('refuses to bill a draft, and to change items once billed', async () => {
    const draft = await createTransaction(sandbox, { items: [{ price_id: priceId, quantity: 1 }] });
    expectError(
      await sandbox.patch(`/transactions/${draft.id}`, { status: 'billed' }),
      409,
      'transaction_status_transition_not_allowed',
    );
    const billed = await readyTransaction(sandbox, buyer, priceId, { collection_mode: 'manual', status: 'billed' });
    expectError(
      await sandbox.patch(`/transactions/${billed.id}`, { items: [{ price_id: priceId, quantity: 3 }] }),
      409,
      'transaction_not_editable',
    );
  });

  it('refuses manual collection for prices with allowances', async () => {
    const unitId = await createUnit(sandbox);
    const productId = await createProduct(sandbox);
    const allowancePrice = await createRecurringPrice(sandbox, productId, {
      allowances: [{ usage_balance_unit_id: unitId, amount: '100' }],
    });
    const before = await eventCount(harness);
    expectError(
      await sandbox.post('/transactions', {
        items: [{ price_id: allowancePrice.id, quantity: 1 }],
        customer_id: buyer.customerId,
        address_id: buyer.addressId,
        collection_mode: 'manual',
      }),
      400,
      'transaction_manual_collection_not_allowed_for_allowance',
    );
    expect(await eventCount(harness)).toBe(before);
  });

  it('refuses bad bodies with a specific code and writes nothing', async () => {
    const before = await eventCount(harness);
    expectInvalidField(await sandbox.post('/transactions', { items: [] }), 'items');
    expectInvalidField(
      await sandbox.post('/transactions', { items: [{ price_id: priceId, quantity: 0 }] }),
      'items[0].quantity',
    );
    expectInvalidField(
      await sandbox.post('/transactions', { items: [{ price_id: priceId, quantity: 101 }] }),
      'items[0].quantity',
    );
    expectError(
      await sandbox.post('/transactions', { items: [{ price_id: 'pri_00000000000000000000000000', quantity: 1 }] }),
      400,
      'price_not_found',
    );
    expectInvalidField(
      await sandbox.post('/transactions', { items: [{ price_id: priceId, quantity: 1 }], status: 'paid' }),
      'status',
    );
    const usd = await createOneOffPrice(sandbox, '100', 'USD');
    const mixedBefore = await eventCount(harness);
    // Prices in two currencies: Drawdown converts none (ADR 1477).
    expectError(
      await sandbox.post('/transactions', {
        items: [
          { price_id: priceId, quantity: 1 },
          { price_id: usd, quantity: 1 },
        ],
      }),
      400,
      'transaction_currency_conversion_not_supported',
    );
    expect(await eventCount(harness)).toBe(mixedBefore);
    const other = await createBuyer(sandbox, 'FR');
    // Another customer's address is not this customer's to use (ADR 0902).
    expectError(
      await sandbox.post('/transactions', {
        items: [{ price_id: priceId, quantity: 1 }],
        customer_id: buyer.customerId,
        address_id: other.addressId,
      }),
      400,
      'address_not_found',
    );
    expect(await eventCount(harness)).toBeGreaterThanOrEqual(before);
  });

  it('answers not_found for a transaction of another environment or account', async () => {
    const ready = await readyTransaction(sandbox, buyer, priceId);
    expectError(await live.get(`/transactions/${ready.id}`), 404, 'not_found');
    const otherAccount = await harness.createAccount({ earlyAccess: false });
    const otherKey = await harness.createKey({ environment: 'sandbox', permissions: ['all'], accountId: otherAccount });
    const foreign = await fetch(`${harness.sandboxUrl}/transactions/${ready.id}`, {
      headers: { Authorization: `Bearer ${otherKey}` },
    });
    expect(foreign.status).toBe(404);
    expectError(await sandbox.get('/transactions/txn_bad'), 400, 'bad_request');
  });

  it('refuses payments above the balance', async () => {
    const ready = await readyTransaction(sandbox, buyer, priceId);
    expectError(
      await sandbox.post(`/transactions/${ready.id}/payments`, {
        amount: '999999',
        method_type: 'card',
        provider_reference: 'ch_1',
      }),
      400,
      'transaction_payment_amount_invalid',
    );
  });

  it('marks a manual invoice past due 24 hours after its due date, on the sandbox clock', async () => {
    const billed = await readyTransaction(sandbox, buyer, priceId, {
      collection_mode: 'manual',
      status: 'billed',
      billing_details: { payment_terms: { interval: 'day', frequency: 7 } },
    });
    const advance = await sandbox.post('/sandbox-clock/advance', { seconds: 7 * 86_400 + 23 * 3_600 });
    expect(advance.status, advance.text).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await sandbox.get(`/transactions/${billed.id}`)).entity.status).toBe('billed');
    await sandbox.post('/sandbox-clock/advance', { seconds: 2 * 3_600 });
    let status = '';
    // Bounded at 20 s, far beyond the overdue worker's interval, so that a loaded machine cannot fail it.
    for (let attempt = 0; attempt < 100 && status !== 'past_due'; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      status = String((await sandbox.get(`/transactions/${billed.id}`)).entity.status);
    }
    expect(status).toBe('past_due');
    const paid = await sandbox.post(`/transactions/${billed.id}/payments`, {
      method_type: 'card',
      provider_reference: 'late',
    });
    expect(paid.entity.status).toBe('completed');
  });
});
