/**
 * Discounts and discount groups through the official SDK, on both engines: the resources
 * themselves, then discounts applied to transactions with totals checked against hand-computed
 * amounts, every refusal with its code and nothing changed, and usage limits counted exactly
 * once under concurrent redemptions.
 */
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { ApiError, type Paddle } from '@paddle/paddle-node-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, harnessClients } from '../support/api-client.js';
import { officialSdk } from '../support/official-sdk.js';
import { type Buyer, createBuyer, createOneOffPrice, totalsOf } from '../transactions/transaction-fixtures.js';

/** The error code the SDK raised for a refused request. */
async function refusal(promise: Promise<unknown>): Promise<{ code: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return { code: String(error.code) };
    throw error;
  }
  throw new Error('expected a refusal');
}

interface WireLine {
  readonly price_id: string;
  readonly totals: Record<string, string>;
}

describe.each(ENGINES)('%s: discounts through the official SDK', (engine) => {
  let harness: BillingHarness;
  let paddle: Paddle;
  let sandbox: ApiClient;
  let buyer: Buyer;
  let gbp4999: string;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine });
    ({ sandbox } = harnessClients(harness));
    paddle = officialSdk(harness.sandboxKey, harness.sandboxUrl);
    const settings = await sandbox.patch('/tax-settings', { country_rates: [{ country_code: 'GB', rate: '0.2' }] });
    expect(settings.status, settings.text).toBe(200);
    buyer = await createBuyer(sandbox, 'GB');
    gbp4999 = await createOneOffPrice(sandbox, '4999', 'GBP');
  });
  afterAll(() => harness.close());

  const parties = () => ({ customerId: buyer.customerId, addressId: buyer.addressId });

  it('creates, gets, updates, lists and archives discount groups', async () => {
    const group = await paddle.discountGroups.create({ name: 'Spring sale' });
    expect(group.id).toMatch(/^dsg_[a-z\d]{26}$/);
    expect(group.status).toBe('active');
    expect((await paddle.discountGroups.get(group.id)).name).toBe('Spring sale');
    expect((await paddle.discountGroups.update(group.id, { name: 'Spring sale 2027' })).name).toBe('Spring sale 2027');
    const listed: string[] = [];
    for await (const item of paddle.discountGroups.list({ id: [group.id] })) listed.push(item.id);
    expect(listed).toEqual([group.id]);
    expect((await paddle.discountGroups.archive(group.id)).status).toBe('archived');
    expect(
      await refusal(
        paddle.discounts.create({ description: 'x', type: 'percentage', amount: '5', discountGroupId: group.id }),
      ),
    ).toMatchObject({
      code: 'entity_archived',
    });
  });

  it('creates, gets, updates, lists by code and archives a discount; codes are unique', async () => {
    const group = await paddle.discountGroups.create({ name: 'Launch' });
    const created = await paddle.discounts.create({
      description: 'Launch week',
      type: 'percentage',
      amount: '12.5',
      code: 'LAUNCH25',
      usageLimit: 100,
      recur: true,
      maximumRecurringIntervals: 3,
      restrictTo: [gbp4999],
      customData: { campaign: 'launch' },
      discountGroupId: group.id,
    });
    expect(created).toMatchObject({
      status: 'active',
      mode: 'standard',
      type: 'percentage',
      amount: '12.5',
      currencyCode: null,
      recur: true,
      maximumRecurringIntervals: 3,
      usageLimit: 100,
      timesUsed: 0,
      restrictTo: [gbp4999],
      enabledForCheckout: false,
      discountGroupId: group.id,
    });
    const fetched = await paddle.discounts.get(created.id, { include: ['discount_group'] });
    expect(fetched.discountGroup?.name).toBe('Launch');

    const updated = await paddle.discounts.update(created.id, { amount: '15', description: 'Launch fortnight' });
    expect(updated).toMatchObject({ amount: '15', description: 'Launch fortnight', code: 'LAUNCH25' });

    const byCode: string[] = [];
    for await (const item of paddle.discounts.list({ code: ['launch25'] })) byCode.push(item.id);
    expect(byCode).toEqual([created.id]);

    expect(
      await refusal(
        paddle.discounts.create({ description: 'Clash', type: 'percentage', amount: '5', code: 'Launch25' }),
      ),
    ).toMatchObject({ code: 'discount_code_conflict' });
    expect(await refusal(paddle.discounts.update(created.id, { usageLimit: 0 }))).toMatchObject({
      code: 'invalid_field',
    });

    const archived = await paddle.discounts.archive(created.id);
    expect(archived.status).toBe('archived');
    const archivedIds: string[] = [];
    for await (const item of paddle.discounts.list({ status: ['archived'] })) archivedIds.push(item.id);
    expect(archivedIds).toContain(created.id);
    // Without `status` the list leaves archived discounts out, as the public API does (issue 36).
    const kept = await paddle.discounts.create({ description: 'Kept', type: 'percentage', amount: '1' });
    const listedByDefault: string[] = [];
    for await (const item of paddle.discounts.list({ perPage: 200 })) listedByDefault.push(item.id);
    expect(listedByDefault).toContain(kept.id);
    expect(listedByDefault).not.toContain(created.id);
  });

  it('refuses bad terms with specific codes', async () => {
    const cases: [Parameters<typeof paddle.discounts.create>[0], string][] = [
      [{ description: 'x', type: 'percentage', amount: '100.5' }, 'invalid_field'],
      [{ description: 'x', type: 'percentage', amount: '0' }, 'invalid_field'],
      [{ description: 'x', type: 'flat', amount: '500' }, 'invalid_field'],
      [{ description: 'x', type: 'flat', amount: '5.5', currencyCode: 'GBP' }, 'invalid_field'],
      [{ description: 'x', type: 'percentage', amount: '5', maximumRecurringIntervals: 2 }, 'invalid_field'],
      [{ description: 'x', type: 'percentage', amount: '5', code: 'NO SPACES' }, 'invalid_field'],
      [{ description: 'x', type: 'percentage', amount: '5', expiresAt: '2001-01-01T00:00:00Z' }, 'invalid_field'],
      [
        { description: 'x', type: 'percentage', amount: '5', restrictTo: ['pri_01aaaaaaaaaaaaaaaaaaaaaaaa'] },
        'price_not_found',
      ],
    ];
    for (const [body, code] of cases)
      expect(await refusal(paddle.discounts.create(body)), JSON.stringify(body)).toMatchObject({ code });
  });

  it('applies a percentage discount before tax: 10% of 2 × 49.99 at 20% tax', async () => {
    const discount = await paddle.discounts.create({ description: 'Ten off', type: 'percentage', amount: '10' });
    const transaction = await paddle.transactions.create({
      items: [{ priceId: gbp4999, quantity: 2 }],
      ...parties(),
      discountId: discount.id,
    });
    expect(transaction.discountId).toBe(discount.id);
    // gross 9998; discount round(999.8) = 1000; tax round(8998 × 0.2) = round(1799.6) = 1800.
    expect(transaction.details?.totals).toMatchObject({
      subtotal: '9998',
      discount: '1000',
      tax: '1800',
      total: '10798',
    });
    expect(transaction.details?.lineItems[0]?.totals).toMatchObject({
      subtotal: '9998',
      discount: '1000',
      tax: '1800',
    });
    expect((await paddle.discounts.get(discount.id)).timesUsed).toBe(1);
  });

  it('shares a flat discount among lines by largest remainder, and takes flat per seat per unit', async () => {
    const small = await createOneOffPrice(sandbox, '1000', 'GBP');
    const large = await createOneOffPrice(sandbox, '2000', 'GBP');
    const flat = await paddle.discounts.create({
      description: 'A pound off',
      type: 'flat',
      amount: '100',
      currencyCode: 'GBP',
    });
    const transaction = await sandbox.post('/transactions', {
      items: [
        { price_id: small, quantity: 1 },
        { price_id: large, quantity: 1 },
      ],
      customer_id: buyer.customerId,
      address_id: buyer.addressId,
      discount_id: flat.id,
    });
    expect(transaction.status, transaction.text).toBe(201);
    const lines = (transaction.entity.details as { line_items: WireLine[] }).line_items;
    // 100 × 1000/3000 = 33.33 and 100 × 2000/3000 = 66.67: the larger remainder takes the last unit.
    expect(lines.map((line) => line.totals.discount)).toEqual(['33', '67']);
    // tax: round(967 × 0.2) = 193, round(1933 × 0.2) = 387.
    expect(totalsOf(transaction.entity)).toMatchObject({
      subtotal: '3000',
      discount: '100',
      tax: '580',
      total: '3480',
    });

    const perSeat = await paddle.discounts.create({
      description: 'Three pounds a seat',
      type: 'flat_per_seat',
      amount: '300',
      currencyCode: 'GBP',
    });
    const seats = await paddle.transactions.create({
      items: [{ priceId: gbp4999, quantity: 2 }],
      ...parties(),
      discountId: perSeat.id,
    });
    // 2 seats × 300 = 600; tax round(9398 × 0.2) = round(1879.6) = 1880.
    expect(seats.details?.totals).toMatchObject({ subtotal: '9998', discount: '600', tax: '1880', total: '11278' });
  });

  it('takes a discount off a tax-inclusive price and shows it net of tax', async () => {
    const inclusive = await createOneOffPrice(sandbox, '1200', 'GBP', { tax_mode: 'internal' });
    const discount = await paddle.discounts.create({ description: 'Ten off', type: 'percentage', amount: '10' });
    const transaction = await paddle.transactions.create({
      items: [{ priceId: inclusive, quantity: 1 }],
      ...parties(),
      discountId: discount.id,
    });
    // gross 1200 (200 tax inside); 10% off leaves 1080 with 180 tax inside; the net discount is 100.
    expect(transaction.details?.totals).toMatchObject({ subtotal: '1000', discount: '100', tax: '180', total: '1080' });
  });

  it('applies a restricted discount to its prices only', async () => {
    const other = await createOneOffPrice(sandbox, '1000', 'GBP');
    const discount = await paddle.discounts.create({
      description: 'Half',
      type: 'percentage',
      amount: '50',
      restrictTo: [other],
    });
    const transaction = await sandbox.post('/transactions', {
      items: [
        { price_id: gbp4999, quantity: 1 },
        { price_id: other, quantity: 1 },
      ],
      customer_id: buyer.customerId,
      address_id: buyer.addressId,
      discount_id: discount.id,
    });
    expect(transaction.status, transaction.text).toBe(201);
    const lines = (transaction.entity.details as { line_items: WireLine[] }).line_items;
    expect(lines.map((line) => line.totals.discount)).toEqual(['0', '500']);
  });

  it('creates a non-catalogue discount for one transaction, in its currency', async () => {
    const transaction = await paddle.transactions.create({
      items: [{ priceId: gbp4999, quantity: 1 }],
      ...parties(),
      currencyCode: 'GBP',
      discount: { type: 'flat', amount: '999', description: 'Goodwill' },
    });
    expect(transaction.details?.totals).toMatchObject({ subtotal: '4999', discount: '999', tax: '800', total: '4800' });
    const discount = await paddle.discounts.get(String(transaction.discountId));
    expect(discount).toMatchObject({ mode: 'custom', currencyCode: 'GBP', timesUsed: 1, description: 'Goodwill' });

    expect(
      await refusal(
        paddle.transactions.create({
          items: [{ priceId: gbp4999, quantity: 1 }],
          ...parties(),
          discount: { type: 'flat', amount: '1', description: 'x' },
        }),
      ),
    ).toMatchObject({ code: 'transaction_requires_currency_code_for_custom_discount' });
  });

  it('changes and removes a transaction’s discount while it is ready, giving redemptions back', async () => {
    const first = await paddle.discounts.create({ description: 'Five', type: 'percentage', amount: '5' });
    const second = await paddle.discounts.create({ description: 'Ten', type: 'percentage', amount: '10' });
    const transaction = await paddle.transactions.create({
      items: [{ priceId: gbp4999, quantity: 1 }],
      ...parties(),
      discountId: first.id,
    });
    const switched = await paddle.transactions.update(transaction.id, { discountId: second.id });
    expect(switched.details?.totals?.discount).toBe('500');
    expect((await paddle.discounts.get(first.id)).timesUsed).toBe(0);
    expect((await paddle.discounts.get(second.id)).timesUsed).toBe(1);
    const removed = await paddle.transactions.update(transaction.id, { discountId: null });
    expect(removed.discountId).toBeNull();
    expect(removed.details?.totals?.discount).toBe('0');
    expect((await paddle.discounts.get(second.id)).timesUsed).toBe(0);
  });

  it('refuses unusable discounts with specific codes and changes nothing', async () => {
    const euro = await paddle.discounts.create({
      description: 'Euro',
      type: 'flat',
      amount: '100',
      currencyCode: 'EUR',
    });
    const elsewhere = await createOneOffPrice(sandbox, '1000', 'GBP');
    const restricted = await paddle.discounts.create({
      description: 'Only there',
      type: 'percentage',
      amount: '5',
      restrictTo: [elsewhere],
    });
    const archived = await paddle.discounts.create({ description: 'Gone', type: 'percentage', amount: '5' });
    await paddle.discounts.archive(archived.id);
    const expiring = await paddle.discounts.create({
      description: 'Soon over',
      type: 'percentage',
      amount: '5',
      expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    const advanced = await sandbox.post('/sandbox-clock/advance', { seconds: 7_200 });
    expect(advanced.status, advanced.text).toBe(200);
    expect((await paddle.discounts.get(expiring.id)).status).toBe('expired');
    const expiredIds: string[] = [];
    for await (const item of paddle.discounts.list({ status: ['expired'] })) expiredIds.push(item.id);
    expect(expiredIds).toEqual([expiring.id]);

    const before = (await sandbox.get('/transactions?per_page=1')).body.meta?.pagination?.estimated_total;
    const cases: [string, string][] = [
      [euro.id, 'transaction_invalid_discount_currency'],
      [restricted.id, 'transaction_discount_not_eligible'],
      [archived.id, 'entity_archived'],
      [expiring.id, 'discount_expired'],
      ['dsc_01aaaaaaaaaaaaaaaaaaaaaaaa', 'transaction_discount_not_found'],
    ];
    for (const [discountId, code] of cases) {
      expect(
        await refusal(
          paddle.transactions.create({ items: [{ priceId: gbp4999, quantity: 1 }], ...parties(), discountId }),
        ),
        discountId,
      ).toMatchObject({ code });
    }
    expect((await sandbox.get('/transactions?per_page=1')).body.meta?.pagination?.estimated_total).toBe(before);
    for (const id of [euro.id, restricted.id, archived.id, expiring.id])
      expect((await paddle.discounts.get(id)).timesUsed).toBe(0);
  });

  it('counts a usage limit exactly once under concurrent redemptions, and frees a use on cancel', async () => {
    const limited = await paddle.discounts.create({
      description: 'First three',
      type: 'percentage',
      amount: '20',
      usageLimit: 3,
    });
    const attempts = await Promise.all(
      Array.from({ length: 8 }, () =>
        sandbox.post('/transactions', {
          items: [{ price_id: gbp4999, quantity: 1 }],
          customer_id: buyer.customerId,
          address_id: buyer.addressId,
          discount_id: limited.id,
        }),
      ),
    );
    const created = attempts.filter((response) => response.status === 201);
    expect(created).toHaveLength(3);
    for (const response of attempts.filter((attempt) => attempt.status !== 201)) {
      expect(response.body.error?.code).toBe('discount_usage_limit_exceeded');
    }
    const used = await paddle.discounts.get(limited.id);
    expect(used).toMatchObject({ timesUsed: 3, status: 'used' });

    const canceled = await paddle.transactions.update(String(created[0]?.id), { status: 'canceled' });
    expect(canceled.status).toBe('canceled');
    expect(await paddle.discounts.get(limited.id)).toMatchObject({ timesUsed: 2, status: 'active' });
    expect(await refusal(paddle.discounts.update(limited.id, { usageLimit: 1 }))).toMatchObject({
      code: 'discount_usage_limit_less_than_times_used',
    });
  });

  it('records discount and discount group events', async () => {
    const response = await sandbox.get('/events?per_page=200');
    const types = new Set(response.list.map((event) => event.event_type));
    for (const type of ['discount.created', 'discount.updated', 'discount_group.created', 'discount_group.updated']) {
      expect(types.has(type), type).toBe(true);
    }
  });
});
