/**
 * The SDK against a real service, on both engines: subscriptions and their actions, usage
 * balances, usage reporting and the sandbox clock.
 */
import { Drawdown } from '@drawdown/sdk';
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordedUsage, settleUsage, usageSetup } from '../support/fixtures.js';

const DAY_SECONDS = 86_400;

describe.each(ENGINES)('%s: subscriptions, balances, usage and the sandbox clock', (engine) => {
  let harness: BillingHarness;
  let drawdown: Drawdown;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine });
    drawdown = new Drawdown(harness.sandboxKey, { baseUrl: harness.sandboxUrl });
  });
  afterAll(() => harness.close());

  it('reads an active subscription with its items, price allowances and billing period', async () => {
    const setup = await usageSetup(drawdown, harness);
    const subscription = await drawdown.subscriptions.get(setup.subscriptionId);
    expect(subscription).toMatchObject({
      id: setup.subscriptionId,
      status: 'active',
      customerId: setup.customerId,
      collectionMode: 'automatic',
      billingCycle: { interval: 'month', frequency: 1 },
      scheduledChange: null,
    });
    expect(subscription.currentBillingPeriod?.startsAt).toEqual(expect.any(String));
    expect(subscription.items[0]?.price.allowances).toEqual([{ usageBalanceUnitId: setup.unitId, amount: '100' }]);
    const listed: string[] = [];
    for await (const item of drawdown.subscriptions.list({ customerId: [setup.customerId] })) listed.push(item.id);
    expect(listed).toEqual([setup.subscriptionId]);
  });

  it('schedules a pause, removes it, pauses now, resumes, and cancels', async () => {
    const setup = await usageSetup(drawdown, harness);
    const scheduled = await drawdown.subscriptions.pause(setup.subscriptionId);
    expect(scheduled.status).toBe('active');
    expect(scheduled.scheduledChange?.action).toBe('pause');
    const unscheduled = await drawdown.subscriptions.update(setup.subscriptionId, { scheduledChange: null });
    expect(unscheduled.scheduledChange).toBeNull();
    const paused = await drawdown.subscriptions.pause(setup.subscriptionId, { effectiveFrom: 'immediately' });
    expect(paused.status).toBe('paused');
    const resumed = await drawdown.subscriptions.resume(setup.subscriptionId, { effectiveFrom: 'immediately' });
    expect(resumed.status).toBe('active');
    const canceling = await drawdown.subscriptions.cancel(setup.subscriptionId);
    expect(canceling.scheduledChange?.action).toBe('cancel');
    const canceled = await drawdown.subscriptions.cancel(setup.subscriptionId, { effectiveFrom: 'immediately' });
    expect(canceled.status).toBe('canceled');
  });

  it('refuses a prorated update on an allowance price with the seed code', async () => {
    const setup = await usageSetup(drawdown, harness);
    await expect(
      drawdown.subscriptions.update(setup.subscriptionId, {
        items: [{ priceId: setup.priceId, quantity: 2 }],
        prorationBillingMode: 'prorated_immediately',
      }),
    ).rejects.toMatchObject({ code: 'subscription_prorated_billing_not_allowed_for_allowance' });
    const updated = await drawdown.subscriptions.update(setup.subscriptionId, {
      items: [{ priceId: setup.priceId, quantity: 2 }],
      prorationBillingMode: 'full_immediately',
    });
    expect(updated.items[0]?.quantity).toBe(2);
  });

  it('reports usage that draws the balance down by quantity times rate, exactly once per key', async () => {
    const setup = await usageSetup(drawdown, harness, { allowance: '10', rate: '2' });
    const balances = await drawdown.usageBalances.list(setup.customerId).next();
    expect(balances).toHaveLength(1);
    expect(balances[0]?.balance).toMatchObject({ used: { total: '0' }, remaining: { total: '10' } });

    const event = { eventKey: 'request-1', customerId: setup.customerId, action: setup.action, quantity: '1.5' };
    const report = await drawdown.reportUsage({ ...event, occurredAt: new Date() });
    expect(report).toMatchObject({ kind: 'accepted', attempts: 1 });
    const again = await drawdown.reportUsage(report.event);
    expect(again.kind).toBe('accepted');
    await settleUsage(drawdown);

    expect(await recordedUsage(harness, setup.customerId)).toHaveLength(1);
    const balance = await drawdown.usageBalances.get(setup.customerId, balances[0]?.id ?? '');
    expect(balance.balance).toMatchObject({ used: { total: '3' }, remaining: { total: '7' } });
  });

  it('reports depletion as a typed usage_balance.depleted event', async () => {
    const setup = await usageSetup(drawdown, harness, { allowance: '2' });
    await drawdown.reportUsage({ customerId: setup.customerId, action: setup.action, quantity: 3n });
    await settleUsage(drawdown);
    const [balance] = await drawdown.usageBalances.list(setup.customerId).next();
    expect(balance?.balance.remaining.total).toBe('0');
    expect(balance?.balance.overage.total).toBe('1');
    const depleted = [];
    for await (const event of drawdown.events.list({ eventType: ['usage_balance.depleted'] })) {
      if (event.known && event.eventType === 'usage_balance.depleted' && event.data.customerId === setup.customerId) {
        depleted.push(event);
      }
    }
    expect(depleted).toHaveLength(1);
    expect(depleted[0]?.data.usageBalanceUnitId).toBe(setup.unitId);
  });

  it('reports a too-old timestamp as expired and a future one as rejected, each after one request', async () => {
    const setup = await usageSetup(drawdown, harness);
    const clock = await drawdown.sandboxClock.get();
    const now = Date.parse(clock.now);
    const old = await drawdown.reportUsage({
      customerId: setup.customerId,
      action: setup.action,
      quantity: '1',
      occurredAt: new Date(now - 61 * DAY_SECONDS * 1000),
    });
    expect(old).toMatchObject({
      kind: 'expired',
      code: 'usage_event_timestamp_too_old',
      attempts: 1,
      mayHaveCounted: false,
    });
    const future = await drawdown.reportUsage({
      customerId: setup.customerId,
      action: setup.action,
      quantity: '1',
      occurredAt: new Date(now + 2 * DAY_SECONDS * 1000),
    });
    expect(future).toMatchObject({ kind: 'rejected', code: 'usage_event_future_timestamp', attempts: 1 });
  });

  it('sends a single raw attempt with usageEvents.send', async () => {
    const setup = await usageSetup(drawdown, harness);
    const result = await drawdown.usageEvents.send({
      eventKey: 'raw-1',
      customerId: setup.customerId,
      action: 'no_meter_has_this_action',
      quantity: '5',
    });
    expect(result).toEqual({ eventKey: 'raw-1', status: 'accepted' });
  });

  it('reads and advances the sandbox clock, renewing the allowance', async () => {
    const setup = await usageSetup(drawdown, harness, { allowance: '5' });
    await drawdown.reportUsage({ customerId: setup.customerId, action: setup.action, quantity: '4' });
    const before = await drawdown.sandboxClock.get();
    const advanced = await drawdown.sandboxClock.advance({ seconds: 32 * DAY_SECONDS });
    expect(Date.parse(advanced.now) - Date.parse(before.now)).toBeGreaterThanOrEqual(32 * DAY_SECONDS * 1000);
    expect(advanced.offsetSeconds).toBeGreaterThanOrEqual(before.offsetSeconds + 32 * DAY_SECONDS);
    expect(advanced.stepsRun).toBeGreaterThanOrEqual(1);
    const [balance] = await drawdown.usageBalances.list(setup.customerId).next();
    expect(balance?.balance).toMatchObject({ used: { total: '0' }, remaining: { total: '5' } });
  });
});
