/**
 * `GET /transactions` on both engines: filters, ordering, cursors, page size, and refusals of
 * malformed parameters.
 */
import { type BillingHarness, ENGINES, expectEvery, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, expectInvalidField, harnessClients, type WireObject } from '../support/api-client.js';
import { type Buyer, createBuyer, createOneOffPrice, readyTransaction } from './transaction-fixtures.js';

describe.each(ENGINES)('%s: listing transactions', (engine) => {
  let harness: BillingHarness;
  let sandbox: ApiClient;
  let buyer: Buyer;
  const created: WireObject[] = [];

  beforeAll(async () => {
    harness = await startBillingHarness({ engine });
    ({ sandbox } = harnessClients(harness));
    buyer = await createBuyer(sandbox, 'US');
    const priceId = await createOneOffPrice(sandbox, '250', 'USD');
    for (let index = 0; index < 34; index += 1) created.push(await readyTransaction(sandbox, buyer, priceId));
    for (const transaction of created.slice(0, 3)) {
      const billed = await sandbox.patch(`/transactions/${transaction.id}`, { status: 'billed' });
      expect(billed.status, billed.text).toBe(200);
    }
  });
  afterAll(() => harness.close());

  it('pages 30 at a time by default, newest first, clamping larger page sizes', async () => {
    const page = await sandbox.get('/transactions');
    expect(page.list).toHaveLength(30);
    expect(page.body.meta?.pagination).toMatchObject({ per_page: 30, has_more: true, estimated_total: 34 });
    expect(page.list[0]?.id).toBe(created.at(-1)?.id);
    const clamped = await sandbox.get('/transactions?per_page=200');
    expect(clamped.body.meta?.pagination?.per_page).toBe(30);
    const next = String(page.body.meta?.pagination?.next);
    expect(next).toContain(`after=${page.list.at(-1)?.id}`);
    const rest = await sandbox.get(next.slice(harness.sandboxUrl.length));
    expect(rest.list).toHaveLength(4);
    expect(rest.body.meta?.pagination?.has_more).toBe(false);
  });

  it('filters by status, id, collection mode, origin and invoice number', async () => {
    const billed = await sandbox.get('/transactions?status=billed,completed');
    expect(billed.list.map((item) => item.id).sort()).toEqual(
      created
        .slice(0, 3)
        .map((item) => item.id)
        .sort(),
    );
    const byId = await sandbox.get(`/transactions?id=${created[5]?.id},${created[6]?.id}`);
    expect(byId.list).toHaveLength(2);
    expect((await sandbox.get('/transactions?collection_mode=manual')).list).toHaveLength(0);
    expect((await sandbox.get('/transactions?origin=api&per_page=1')).body.meta?.pagination?.estimated_total).toBe(34);
    const number = String(billed.list[0]?.invoice_number);
    expect((await sandbox.get(`/transactions?invoice_number=${number}`)).list.map((item) => item.id)).toEqual([
      billed.list[0]?.id,
    ]);
  });

  it('filters created_at and billed_at with exact and [LT]/[GTE] forms, as the SDK encodes them', async () => {
    const pivot = String(created[10]?.created_at);
    const before = await sandbox.get(`/transactions?created_at%5BLT%5D=${encodeURIComponent(pivot)}&per_page=30`);
    expect(before.body.meta?.pagination?.estimated_total).toBe(10);
    const since = await sandbox.get(`/transactions?created_at[GTE]=${encodeURIComponent(pivot)}`);
    expect(since.body.meta?.pagination?.estimated_total).toBe(24);
    const exact = await sandbox.get(`/transactions?created_at=${encodeURIComponent(pivot)}`);
    expect(exact.list.map((item) => item.id)).toContain(created[10]?.id);
    const billedSince = await sandbox.get('/transactions?billed_at[GTE]=2000-01-01T00:00:00Z');
    expect(billedSince.list).toHaveLength(3);
  });

  it('orders by billed_at and by created_at, with cursors', async () => {
    const ascending = await sandbox.get('/transactions?order_by=billed_at[ASC]&per_page=2');
    expectEvery(ascending.list, (item) => item.billed_at === null, { atLeast: 2 });
    const descending = await sandbox.get('/transactions?order_by=billed_at[DESC]&per_page=2');
    expectEvery(descending.list, (item) => item.billed_at !== null, { atLeast: 2 });
    const rest = await sandbox.get(
      `/transactions?order_by=billed_at[DESC]&per_page=2&after=${descending.list.at(-1)?.id}`,
    );
    expect(rest.list[0]?.billed_at).not.toBeNull();
    expect(rest.list[1]?.billed_at).toBeNull();
    const byCreated = await sandbox.get('/transactions?order_by=created_at[ASC]&per_page=1');
    expect(byCreated.list[0]?.id).toBe(created[0]?.id);
  });

  it('returns an empty page for a customer without transactions', async () => {
    const stranger = await createBuyer(sandbox, 'US');
    const page = await sandbox.get(`/transactions?customer_id=${stranger.customerId}`);
    expect(page.list).toEqual([]);
    expect(page.body.meta?.pagination).toMatchObject({ has_more: false, estimated_total: 0 });
  });

  it('refuses unknown statuses, malformed cursors and ids, bad page sizes, orders and dates', async () => {
    expectInvalidField(await sandbox.get('/transactions?status=billed,settled'), 'status');
    expectInvalidField(await sandbox.get('/transactions?status='), 'status');
    expectInvalidField(await sandbox.get('/transactions?after=pro_00000000000000000000000000'), 'after');
    expectInvalidField(await sandbox.get('/transactions?after=txn_%27%20or%201=1'), 'after');
    expectInvalidField(await sandbox.get('/transactions?customer_id=ctm_short'), 'customer_id');
    expectInvalidField(await sandbox.get('/transactions?per_page=0'), 'per_page');
    expectInvalidField(await sandbox.get('/transactions?per_page=-5'), 'per_page');
    expectInvalidField(await sandbox.get('/transactions?per_page=ten'), 'per_page');
    expectInvalidField(await sandbox.get('/transactions?order_by=amount[ASC]'), 'order_by');
    expectInvalidField(await sandbox.get('/transactions?created_at[LT]=yesterday'), 'created_at[LT]');
    expectInvalidField(await sandbox.get('/transactions?billed_at=2026-02-30T00:00:00Z'), 'billed_at');
    expectInvalidField(await sandbox.get('/transactions?collection_mode=cash'), 'collection_mode');
    expectInvalidField(await sandbox.get('/transactions?include=everything'), 'include');
  });
});
