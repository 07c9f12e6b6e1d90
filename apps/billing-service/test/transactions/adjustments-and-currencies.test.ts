/**
 * Adjustments on both engines (credits and refunds moving `credit`, `balance` and adjusted
 * totals as the seed defines) and the public currency list.
 */
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiClient,
  expectError,
  expectInvalidField,
  harnessClients,
  type WireObject,
} from '../support/api-client.js';
import { type Buyer, createBuyer, createOneOffPrice, readyTransaction, totalsOf } from './transaction-fixtures.js';

function lineId(transaction: WireObject, index = 0): string {
  return String((transaction.details as { line_items: WireObject[] }).line_items[index]?.id);
}

describe.each(ENGINES)('%s: adjustments', (engine) => {
  let harness: BillingHarness;
  let sandbox: ApiClient;
  let buyer: Buyer;
  let priceId: string;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine });
    ({ sandbox } = harnessClients(harness));
    await sandbox.patch('/tax-settings', { default_rate: '0.2' });
    buyer = await createBuyer(sandbox, 'GB');
    priceId = await createOneOffPrice(sandbox, '1000', 'GBP');
  });
  afterAll(() => harness.close());

  it('credits part of an unpaid invoice: credit rises, grand total and balance fall', async () => {
    const invoice = await readyTransaction(sandbox, buyer, priceId, { collection_mode: 'manual', status: 'billed' });
    expect(totalsOf(invoice)).toMatchObject({ total: '2400', tax: '400', balance: '2400' });
    const credit = await sandbox.post('/adjustments', {
      action: 'credit',
      transaction_id: invoice.id,
      reason: 'Service outage',
      items: [{ item_id: lineId(invoice), type: 'partial', amount: '600' }],
    });
    expect(credit.status, credit.text).toBe(201);
    expect(credit.entity).toMatchObject({
      action: 'credit',
      status: 'approved',
      customer_id: buyer.customerId,
      totals: { subtotal: '500', tax: '100', total: '600', currency_code: 'GBP' },
    });
    const after = (await sandbox.get(`/transactions/${invoice.id}`)).entity;
    expect(totalsOf(after)).toMatchObject({
      total: '2400',
      credit: '600',
      grand_total: '1800',
      grand_total_tax: '300',
      balance: '1800',
    });
    expect(after.status).toBe('billed');
    expect((after.details as WireObject).adjusted_totals).toMatchObject({ total: '1800', tax: '300' });
  });

  it('completes an invoice whose balance a credit settles', async () => {
    const invoice = await readyTransaction(sandbox, buyer, priceId, { collection_mode: 'manual', status: 'billed' });
    await sandbox.post('/adjustments', {
      action: 'credit',
      transaction_id: invoice.id,
      reason: 'Goodwill',
      type: 'full',
    });
    const after = (await sandbox.get(`/transactions/${invoice.id}`)).entity;
    expect(after.status).toBe('completed');
    expect(totalsOf(after)).toMatchObject({ credit: '2400', grand_total: '0', balance: '0' });
  });

  it('refunds a completed transaction: adjusted totals fall, the charged totals stay', async () => {
    const ready = await readyTransaction(sandbox, buyer, priceId);
    await sandbox.post(`/transactions/${ready.id}/simulate-payment`, { outcome: 'success' });
    const refund = await sandbox.post('/adjustments', {
      action: 'refund',
      transaction_id: ready.id,
      reason: 'Customer request',
      items: [{ item_id: lineId(ready), type: 'full' }],
    });
    expect(refund.status, refund.text).toBe(201);
    const after = (await sandbox.get(`/transactions/${ready.id}`)).entity;
    expect(totalsOf(after)).toMatchObject({ grand_total: '2400', balance: '0', credit: '0' });
    expect((after.details as WireObject).adjusted_totals).toMatchObject({ total: '0', tax: '0', subtotal: '0' });
    expectError(
      await sandbox.post('/adjustments', {
        action: 'refund',
        transaction_id: ready.id,
        reason: 'Again',
        items: [{ item_id: lineId(ready), type: 'partial', amount: '1' }],
      }),
      400,
      'adjustment_amount_above_remaining',
    );
    const listed = await sandbox.get(`/adjustments?transaction_id=${ready.id}`);
    expect(listed.list.map((item) => item.id)).toEqual([refund.id]);
  });

  it('refuses refunds of unpaid transactions, unknown transactions and foreign line items', async () => {
    const ready = await readyTransaction(sandbox, buyer, priceId);
    expectError(
      await sandbox.post('/adjustments', { action: 'refund', transaction_id: ready.id, reason: 'x', type: 'full' }),
      409,
      'adjustment_transaction_status_not_allowed',
    );
    expectError(
      await sandbox.post('/adjustments', {
        action: 'credit',
        transaction_id: 'txn_00000000000000000000000000',
        reason: 'x',
        type: 'full',
      }),
      400,
      'transaction_not_found',
    );
    const invoice = await readyTransaction(sandbox, buyer, priceId, { collection_mode: 'manual', status: 'billed' });
    expectInvalidField(
      await sandbox.post('/adjustments', {
        action: 'credit',
        transaction_id: invoice.id,
        reason: 'x',
        items: [{ item_id: lineId(ready), type: 'full' }],
      }),
      'items[0].item_id',
    );
    expectInvalidField(
      await sandbox.post('/adjustments', { action: 'chargeback', transaction_id: invoice.id, reason: 'x' }),
      'action',
    );
  });
});

describe('the currency list', () => {
  let harness: BillingHarness;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine: ENGINES[0] ?? 'sqlite' });
  });
  afterAll(() => harness.close());

  it('answers without an API key, unpaginated, cacheable for a day, with ISO 4217 decimal places', async () => {
    const response = await fetch(`${harness.sandboxUrl}/currencies`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=86400');
    const body = (await response.json()) as { data: WireObject[]; meta: WireObject };
    expect(body.meta.pagination).toBeUndefined();
    expect(body.data).toHaveLength(33);
    const byCode = new Map(body.data.map((currency) => [currency.code, currency]));
    expect(byCode.get('HUF')).toMatchObject({ decimal_places: 2, name: 'Forint', can_be_balance: true });
    expect(byCode.get('JPY')).toMatchObject({ decimal_places: 0, can_be_balance: false });
    expect(byCode.get('KRW')?.decimal_places).toBe(0);
    expect(byCode.get('USD')).toMatchObject({ decimal_places: 2, minimum_payment_amount: '1' });
    expect(byCode.get('EUR')?.applicable_countries).toEqual(expect.arrayContaining(['DE', 'FR', 'IE']));
    expect((await fetch(`${harness.liveUrl}/currencies`)).status).toBe(200);
  });
});
