/**
 * ADR 1439 on both engines, through the official SDK: an account that never chose its tax
 * settings computes tax by the buyer's location in the sandbox, as the public API does for a new
 * account; in live a charge (a ready or billed transaction) is refused with
 * `tax_settings_not_chosen` until the live settings are recorded, an explicit "no tax" included.
 */
import { TAX_RATE_DATASET } from '@drawdown/billing-core';
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import type { Paddle } from '@paddle/paddle-node-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, harnessClients } from '../support/api-client.js';
import { officialSdk, sdkRefusal } from '../support/official-sdk.js';
import { createBuyer, createOneOffPrice } from './transaction-fixtures.js';

describe.each(ENGINES)('%s: tax of an account that chose no settings', (engine) => {
  let harness: BillingHarness;
  let sandbox: ApiClient;
  let live: ApiClient;
  let paddle: Paddle;
  let livePaddle: Paddle;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine, tax: 'unset' });
    ({ sandbox, live } = harnessClients(harness));
    paddle = officialSdk(harness.sandboxKey, harness.sandboxUrl);
    livePaddle = officialSdk(harness.liveKey, harness.liveUrl);
  });
  afterAll(() => harness.close());

  it('computes tax by location in the sandbox: previews and transactions add the country’s rate', async () => {
    const gbRate = TAX_RATE_DATASET.countries.GB?.rate;
    expect(gbRate).toBe('0.2');
    const settings = (await sandbox.get('/tax-settings')).entity;
    expect(settings).toMatchObject({ default_tax_mode: 'external', rate_source: 'location', updated_at: null });

    const priceId = await createOneOffPrice(sandbox, '1000', 'GBP');
    const pricing = await paddle.pricingPreview.preview({
      items: [{ priceId, quantity: 1 }],
      address: { countryCode: 'GB' as never },
    });
    expect(pricing.details.lineItems[0]?.totals).toMatchObject({ subtotal: '1000', tax: '200', total: '1200' });

    const buyer = await createBuyer(sandbox, 'GB');
    const transaction = await paddle.transactions.create({
      items: [{ priceId, quantity: 2 }],
      customerId: buyer.customerId,
      addressId: buyer.addressId,
    });
    expect(transaction.status).toBe('ready');
    expect(transaction.details?.totals).toMatchObject({ subtotal: '2000', tax: '400', total: '2400' });
    expect(transaction.details?.taxRatesUsed.map((used) => used.taxRate)).toEqual(['0.2']);
  });

  it('refuses a live charge until the live tax settings are chosen, then charges as chosen', async () => {
    const priceId = await createOneOffPrice(live, '1000', 'GBP');
    const buyer = await createBuyer(live, 'GB');
    const before = (await live.get('/transactions')).list.length;
    const ready = { items: [{ priceId, quantity: 1 }], customerId: buyer.customerId, addressId: buyer.addressId };
    expect(await sdkRefusal(livePaddle.transactions.create(ready))).toBe('tax_settings_not_chosen');
    expect(
      await sdkRefusal(
        livePaddle.transactions.create({ ...ready, collectionMode: 'manual', status: 'billed' } as never),
      ),
    ).toBe('tax_settings_not_chosen');
    // A draft charges nothing: it is made, and refused when it would become chargeable.
    const draft = await livePaddle.transactions.create({ items: [{ priceId, quantity: 1 }] });
    expect(draft.status).toBe('draft');
    expect(
      await sdkRefusal(
        livePaddle.transactions.update(draft.id, { customerId: buyer.customerId, addressId: buyer.addressId }),
      ),
    ).toBe('tax_settings_not_chosen');
    expect((await live.get('/transactions')).list.length).toBe(before + 1);
    expect((await live.get(`/transactions/${draft.id}`)).entity.customer_id).toBeNull();
    // The sandbox was never asked: its settings are still unset, and it charges.
    expect((await sandbox.get('/tax-settings')).entity.updated_at).toBeNull();

    // The explicit choice of no tax is recorded; live transactions are then charged without tax.
    const chosen = await live.patch('/tax-settings', { rate_source: 'account', default_rate: '0' });
    expect(chosen.status, chosen.text).toBe(200);
    expect(chosen.entity.updated_at).toEqual(expect.any(String));
    const charged = await livePaddle.transactions.create(ready);
    expect(charged.status).toBe('ready');
    expect(charged.details?.totals).toMatchObject({ subtotal: '1000', tax: '0', total: '1000' });
    const updated = await livePaddle.transactions.update(draft.id, {
      customerId: buyer.customerId,
      addressId: buyer.addressId,
    });
    expect(updated.status).toBe('ready');
  });
});
