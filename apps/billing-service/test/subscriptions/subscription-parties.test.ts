/**
 * Who a subscription bills (`customer_id`, `address_id`, `business_id` on an update), through the
 * official SDK on both engines: another customer of the account with an address of theirs, a
 * business of the subscription's customer, and refusals that change nothing.
 */
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, type WireObject } from '../support/api-client.js';
import { createUnit } from '../support/catalogue-fixtures.js';
import { createBuyer } from '../transactions/transaction-fixtures.js';
import { type ChangeWorld, DAY_SECONDS, frozenClock, newChangeWorld } from './change-fixtures.js';

describe.each(ENGINES)('%s: the customer, address and business a subscription bills', (engine) => {
  let harness: BillingHarness;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine, clock: frozenClock });
  });
  afterAll(() => harness.close());

  async function world(): Promise<ChangeWorld & { subscriptionId: string; path: string }> {
    const base = await newChangeWorld(harness);
    const priceId = await base.price('3000');
    const subscriptionId = await base.subscribe([{ priceId, quantity: 1 }]);
    return { ...base, subscriptionId, path: `/subscriptions/${subscriptionId}` };
  }

  const business = async (w: ChangeWorld, customerId: string, name: string) => {
    const created = await w.api.post(`/customers/${customerId}/businesses`, { name });
    expect(created.status, created.text).toBe(201);
    return created.id;
  };

  it('moves to another customer of the account with an address of theirs; the renewal bills them', async () => {
    const w = await world();
    const heir = await createBuyer(w.api, 'US');
    const moved = await w.paddle.subscriptions.update(w.subscriptionId, {
      customerId: heir.customerId,
      addressId: heir.addressId,
    });
    expect(moved).toMatchObject({ customerId: heir.customerId, addressId: heir.addressId, businessId: null });
    expect((await w.paddle.subscriptions.list({ customerId: [heir.customerId] }).next()).map((s) => s.id)).toEqual([
      w.subscriptionId,
    ]);
    await w.advance(31 * DAY_SECONDS + 60);
    const [renewal] = await w.transactionsOf(w.subscriptionId, 'subscription_recurring');
    expect(renewal).toMatchObject({ customer_id: heir.customerId, address_id: heir.addressId });
  });

  it('refuses a customer change without the new customer’s address, with the old one’s, or of an unusable customer', async () => {
    const w = await world();
    const heir = await createBuyer(w.api, 'US');
    const before = (await w.api.get(w.path)).entity;
    const archived = await createBuyer(w.api, 'US');
    expect((await w.api.patch(`/customers/${archived.customerId}`, { status: 'archived' })).status).toBe(200);
    const cases: [WireObject, number, string][] = [
      [{ customer_id: heir.customerId }, 400, 'invalid_field'],
      [{ customer_id: heir.customerId, address_id: w.buyer.addressId }, 400, 'address_not_found'],
      [{ customer_id: archived.customerId, address_id: archived.addressId }, 400, 'entity_archived'],
      [{ customer_id: 'ctm_01h00000000000000000000000', address_id: heir.addressId }, 400, 'customer_not_found'],
    ];
    for (const [body, status, code] of cases) expectError(await w.api.patch(w.path, body), status, code);
    expect((await w.api.get(w.path)).entity).toEqual(before);
  });

  it('sets a business of the subscription’s customer, refuses another customer’s, and removes it with null', async () => {
    const w = await world();
    const own = await business(w, w.buyer.customerId, 'Ada Ltd');
    const other = await createBuyer(w.api, 'US');
    const foreign = await business(w, other.customerId, 'Other Ltd');
    const set = await w.paddle.subscriptions.update(w.subscriptionId, { businessId: own });
    expect(set.businessId).toBe(own);
    expectError(await w.api.patch(w.path, { business_id: foreign }), 400, 'transaction_business_customer_mismatch');
    expect((await w.api.get(w.path)).entity.business_id).toBe(own);
    // Moving to another customer must say what becomes of the old customer's business.
    expectError(
      await w.api.patch(w.path, { customer_id: other.customerId, address_id: other.addressId }),
      400,
      'invalid_field',
    );
    const moved = await w.api.patch(w.path, {
      customer_id: other.customerId,
      address_id: other.addressId,
      business_id: foreign,
    });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.entity).toMatchObject({ customer_id: other.customerId, business_id: foreign });
    const removed = await w.paddle.subscriptions.update(w.subscriptionId, { businessId: null });
    expect(removed.businessId).toBeNull();
  });

  it('keeps a subscription with allowances on its customer, whose balances hold them', async () => {
    const w = await newChangeWorld(harness);
    const unit = await createUnit(w.api);
    const priceId = await w.price('3000', { allowances: [{ usage_balance_unit_id: unit, amount: '100' }] });
    const subscriptionId = await w.subscribe([{ priceId, quantity: 1 }]);
    const heir = await createBuyer(w.api, 'US');
    expectError(
      await w.api.patch(`/subscriptions/${subscriptionId}`, {
        customer_id: heir.customerId,
        address_id: heir.addressId,
      }),
      400,
      'subscription_customer_change_not_allowed_for_allowance',
    );
    expect((await w.api.get(`/subscriptions/${subscriptionId}`)).entity.customer_id).toBe(w.buyer.customerId);
  });
});
