/**
 * Reminders at scale and across a sandbox jump (ADRs 1503, 1505), on SQLite: the step's batching
 * and its watermark are one code path on both engines (the reminder jobs' uniqueness on
 * PostgreSQL is shown by `customer-email.browser.test.ts`). Many
 * subscriptions falling due for a reminder at once are read in batches of `REMINDER_BATCH_SIZE`
 * on the next-charge index (each read of the reminders' repository is recorded, so the test sees
 * what one step holds in memory), each subscription read once and reminded once; a later run
 * writes nothing. A sandbox jump past a renewal charges it without a late reminder, and the
 * next renewal's reminder still comes on time.
 */
import { REMINDER_BATCH_SIZE, type Scope, type Subscription, toTimestamp } from '@drawdown/billing-core';
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARDS, checkoutClient } from '../payments/checkout-client.js';
import { type ApiClient, apiClient, harnessClients, type WireObject } from '../support/api-client.js';
import { createPrice, createProduct } from '../support/catalogue-fixtures.js';
import { createBuyer, readyTransaction } from '../transactions/transaction-fixtures.js';

const DAY_S = 86_400;
/** Subscriptions due for a reminder at once: many batches' worth. */
const MANY = 1_500;

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.each(ENGINES.filter((engine) => engine === 'sqlite'))('%s: email reminders at scale', (engine) => {
  let harness: BillingHarness;
  let sandbox: ApiClient;
  /** Every read of subscriptions charged next, by the reminder step of any process of this harness. */
  const reads: { readonly scope: Scope; readonly limit: number; readonly rows: number }[] = [];

  beforeAll(async () => {
    harness = await startBillingHarness({ engine, emailDelivery: { pollIntervalMs: 50 } });
    ({ sandbox } = harnessClients(harness));
    const repository = harness.services.store.emailReminders;
    const chargesAhead = repository.chargesAhead.bind(repository);
    Object.assign(repository, {
      async chargesAhead(scope: Scope, after: { at: string; id: string }, until: string, limit: number) {
        const rows = await chargesAhead(scope, after, until, limit);
        reads.push({ scope, limit, rows: rows.length });
        return rows;
      },
    });
  });
  afterAll(() => harness?.close());

  async function jobCount(scope: Scope, kind: string): Promise<number> {
    const page = await harness.services.store.emailJobs.list(scope, {
      filter: { kind: [{ op: 'eq', value: kind }] },
      perPage: 1,
      direction: 'asc',
    });
    return page.estimatedTotal;
  }

  it(`reads ${MANY} subscriptions due at once in bounded batches and reminds each once`, async () => {
    const scope: Scope = { accountId: harness.accountId, environment: 'sandbox' };
    // Turned off, the card-expiring reminders are written `skipped`: the step's work without
    // rendering thousands of captured emails.
    const off = await sandbox.patch('/email-settings', {
      enabled_emails: ['receipt', 'invoice_issued', 'payment_failed'],
    });
    expect(off.status, off.text).toBe(200);
    // A monthly plan bought with a card that expires this month: its next charge falls after the
    // card expired, so each subscription like it is due a card-expiring reminder 7 days before.
    const buyer = await createBuyer(sandbox, 'DE', { email: `many-${engine}@customer.example` });
    const productId = await createProduct(sandbox, { name: 'Monthly' });
    const price = String(
      (await createPrice(sandbox, productId, { unit_price: { amount: '700', currency_code: 'EUR' } })).id,
    );
    const checkout = await readyTransaction(sandbox, buyer, price);
    const now = new Date();
    const expiry = `${String(now.getUTCMonth() + 1).padStart(2, '0')}/${String(now.getUTCFullYear() % 100)}`;
    const paid = await checkoutClient(harness.sandboxUrl).pay(String(checkout.id), CARDS.success, {
      card_expiry: expiry,
    });
    expect(paid.status, paid.text).toBe(303);
    const subscriptionId = String((await sandbox.get(`/transactions/${checkout.id}`)).entity.subscription_id);
    const { store, ids } = harness.services;
    const original = (await store.subscriptions.findById(scope, subscriptionId)) as Subscription;
    const firstCharge = Date.parse(String(original.nextBilledAt));
    // Many more like it, charged a second apart after it: written straight to the store, as
    // a large import would leave them.
    await store.transaction(async (tx) => {
      for (let index = 1; index < MANY; index += 1) {
        await tx.subscriptions.insert(scope, {
          ...original,
          id: ids.newId('sub'),
          nextBilledAt: toTimestamp(firstCharge + index * 1000),
        });
      }
    });
    const before = reads.length;
    // Five days before the first charge every one of them is inside the 7-day lead time at once.
    const jump = (firstCharge - Date.now()) / 1000 - 5 * DAY_S;
    const moved = await sandbox.post('/sandbox-clock/advance', { seconds: Math.floor(jump) });
    expect(moved.status, moved.text).toBe(200);
    await eventually(
      () => jobCount(scope, 'card_expiring'),
      (count) => count >= MANY,
      `${MANY} reminders`,
    );
    // The scope's reads from the jump on: each bounded by the batch size, together every subscription once.
    const ours = () =>
      reads
        .slice(before)
        .filter((read) => read.scope.accountId === scope.accountId && read.scope.environment === 'sandbox');
    await eventually(
      async () => ours().reduce((sum, read) => sum + read.rows, 0),
      (rows) => rows >= MANY,
      'the last batch recorded',
    );
    const batches = ours().filter((read) => read.rows > 0);
    expect(new Set(ours().map((read) => read.limit))).toEqual(new Set([REMINDER_BATCH_SIZE]));
    expect(Math.max(...batches.map((read) => read.rows))).toBe(REMINDER_BATCH_SIZE);
    expect(batches.length).toBe(Math.ceil(MANY / REMINDER_BATCH_SIZE));
    expect(batches.reduce((sum, read) => sum + read.rows, 0)).toBe(MANY);
    // Each reminded once, skipped as turned off, one per subscription.
    expect(await jobCount(scope, 'card_expiring')).toBe(MANY);
    const sample = await sandbox.get(`/emails?kind=card_expiring&customer_id=${buyer.customerId}&per_page=200`);
    expect(sample.list).toHaveLength(200);
    expect(new Set(sample.list.map((job) => job.status))).toEqual(new Set(['skipped']));
    expect(new Set(sample.list.map((job) => job.skip_reason))).toEqual(new Set(['email_turned_off']));
    // Later runs (another process, the next scan) read nothing new and write nothing twice.
    expect(await harness.services.useCases.runDueWork('email_reminders')).toBe(0);
    const later = await sandbox.post('/sandbox-clock/advance', { seconds: 2 * 3600 });
    expect(later.status, later.text).toBe(200);
    await harness.services.useCases.runDueWork('email_reminders');
    expect(await jobCount(scope, 'card_expiring')).toBe(MANY);
  });

  it('sends no late reminder for a renewal a sandbox jump charged, and the next renewal’s on time', async () => {
    const accountId = await harness.createAccount({ earlyAccess: true, name: 'Jumps' });
    const api = apiClient(
      harness.sandboxUrl,
      await harness.createKey({ environment: 'sandbox', permissions: ['all'], accountId }),
    );
    const buyer = await createBuyer(api, 'DE', { email: `jump-${engine}@customer.example`, locale: 'en' });
    const productId = await createProduct(api, { name: 'Yearly' });
    const price = String(
      (
        await createPrice(api, productId, {
          unit_price: { amount: '12000', currency_code: 'EUR' },
          billing_cycle: { interval: 'year', frequency: 1 },
        })
      ).id,
    );
    const ready = await readyTransaction(api, buyer, price);
    const paid = await api.post(`/transactions/${ready.id}/simulate-payment`, { outcome: 'success' });
    expect(paid.status, paid.text).toBe(200);
    const subscriptionId = String(paid.entity.subscription_id);
    const firstRenewal = String((await api.get(`/subscriptions/${subscriptionId}`)).entity.next_billed_at);
    // One jump a day past the first renewal: it is charged, and its reminder, due 7 days before
    // it, is never sent afterwards (the jump runs renewals before the reminder step sees the time).
    const jumped = await api.post('/sandbox-clock/advance', { seconds: 366 * DAY_S });
    expect(jumped.status, jumped.text).toBe(200);
    const renewals = await api.get(`/transactions?subscription_id=${subscriptionId}&origin=subscription_recurring`);
    expect(renewals.list.map((transaction) => transaction.status)).toEqual(['completed']);
    const secondRenewal = String((await api.get(`/subscriptions/${subscriptionId}`)).entity.next_billed_at);
    expect(secondRenewal > firstRenewal).toBe(true);
    // The step has run on the new time (nothing is due for a year less a week).
    await harness.services.useCases.runDueWork('email_reminders');
    const reminders = async () =>
      (await api.get(`/emails?kind=renewal_upcoming&customer_id=${buyer.customerId}`)).list as WireObject[];
    expect(await reminders()).toEqual([]);
    // Six days before the second renewal its reminder comes, naming that renewal.
    const untilReminder = (Date.parse(secondRenewal) - Date.parse(String(jumped.entity.now))) / 1000 - 6 * DAY_S;
    const moved = await api.post('/sandbox-clock/advance', { seconds: Math.floor(untilReminder) });
    expect(moved.status, moved.text).toBe(200);
    const [reminder] = await eventually(reminders, (list) => list.length > 0, 'the second renewal’s reminder');
    const text = String(
      (
        (
          await eventually(
            async () => (await api.get(`/emails/${reminder?.id}`)).entity,
            (job) => job.status === 'captured',
            'the reminder captured',
          )
        ).message as WireObject
      ).text,
    );
    const date = new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(secondRenewal));
    expect(text).toContain(date);
    expect(await reminders()).toHaveLength(1);
  });
});
