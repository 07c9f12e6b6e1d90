/**
 * Answers the official SDK got wrong (issue 36, item 8 and 9), on both engines: a transaction or
 * pricing preview whose price has no amount in the asked currency is refused with
 * `transaction_currency_conversion_not_supported` and writes nothing (ADR 1477).
 */
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
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
});
