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

      const sdkTransaction = await paddle.transactions.get(String(ready.id), { include: ['adjustments'] });
      expect(sdkTransaction.adjustments?.map((adjustment) => adjustment.id)).toEqual([created.id]);
      const included = await sandbox.get(`/transactions/${ready.id}?include=adjustments`);
      expect((included.entity.adjustments as WireObject[]).map((adjustment) => adjustment.tax_rates_used)).toEqual([
        expected,
      ]);
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
