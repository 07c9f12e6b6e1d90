/**
 * The usage buffer loses nothing on a clean shutdown: events are stored before `add()` returns,
 * leave the store only with a final answer, and what could not be delivered is returned by
 * `close()` and sent unchanged by the next buffer opened on the same store.
 */
import { Drawdown, MemoryUsageBufferStore, UsageBufferClosedError, type UsageReport } from '@drawdown/sdk';
import { type BillingHarness, startBillingHarness } from '@drawdown/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fakeRuntime } from '../support/fake-runtime.js';
import { type FaultProxy, startFaultProxy } from '../support/fault-proxy.js';
import { recordedUsage, settleUsage, usageSetup } from '../support/fixtures.js';

describe('usage buffer', () => {
  let harness: BillingHarness;
  let direct: Drawdown;
  let proxy: FaultProxy;
  let client: Drawdown;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine: 'sqlite' });
    direct = new Drawdown(harness.sandboxKey, { baseUrl: harness.sandboxUrl });
  });
  afterAll(() => harness.close());

  async function throughProxy() {
    const runtime = fakeRuntime();
    proxy = await startFaultProxy({ upstream: harness.sandboxUrl, now: runtime.now });
    client = new Drawdown(harness.sandboxKey, {
      baseUrl: proxy.url,
      runtime,
      usageRetry: { maxAttempts: 2, baseDelayMs: 10, maxDelayMs: 10 },
    });
  }
  afterEach(() => proxy.close());

  it('sends every added event in the background and reports each on close', async () => {
    const setup = await usageSetup(direct, harness, { allowance: '1000' });
    await throughProxy();
    const seen: UsageReport[] = [];
    const store = new MemoryUsageBufferStore();
    const buffer = await client.usageEvents.openBuffer({
      store,
      concurrency: 2,
      onReport: (report) => seen.push(report),
    });
    for (let index = 1; index <= 6; index += 1) {
      await buffer.add({
        eventKey: `buffered-${index}`,
        customerId: setup.customerId,
        action: setup.action,
        quantity: String(index),
      });
    }
    const closed = await buffer.close();
    expect(closed.undelivered).toEqual([]);
    expect(closed.reports.map((report) => report.kind)).toEqual(Array(6).fill('accepted'));
    expect(seen).toHaveLength(6);
    expect(await store.load()).toEqual([]);
    await expect(
      buffer.add({ customerId: setup.customerId, action: setup.action, quantity: '1' }),
    ).rejects.toBeInstanceOf(UsageBufferClosedError);

    await settleUsage(direct);
    expect(await recordedUsage(harness, setup.customerId)).toHaveLength(6);
    const [balance] = await direct.usageBalances.list(setup.customerId).next();
    expect(balance?.balance.used.total).toBe('21');
  });

  it('keeps undelivered events in the store and sends them unchanged from the next buffer', async () => {
    const setup = await usageSetup(direct, harness, { allowance: '1000' });
    await throughProxy();
    proxy.setPlan(() => ({ kind: 'status', status: 503 }));
    const store = new MemoryUsageBufferStore();
    const first = await client.usageEvents.openBuffer({ store });
    const added = [];
    for (let index = 1; index <= 3; index += 1) {
      added.push(await first.add({ customerId: setup.customerId, action: setup.action, quantity: '1' }));
    }
    const closed = await first.close();
    expect(closed.reports.map((report) => report.kind)).toEqual(['gave_up', 'gave_up', 'gave_up']);
    expect(new Set(closed.undelivered)).toEqual(new Set(added));
    expect(await store.load()).toHaveLength(3);
    const failedBodies = new Set(proxy.to('POST', '/usage-events').map((request) => request.body.toString()));
    expect(failedBodies.size).toBe(3);

    proxy.setPlan(() => ({ kind: 'pass' }));
    const second = await client.usageEvents.openBuffer({ store });
    const flushed = await second.close();
    expect(flushed.reports.map((report) => report.kind)).toEqual(['accepted', 'accepted', 'accepted']);
    expect(await store.load()).toEqual([]);
    const laterBodies = proxy
      .to('POST', '/usage-events')
      .slice(6)
      .map((request) => request.body.toString());
    expect(new Set(laterBodies)).toEqual(failedBodies);
    expect(await recordedUsage(harness, setup.customerId)).toHaveLength(3);
  });

  it('retries undelivered events on flush while open', async () => {
    const setup = await usageSetup(direct, harness, { allowance: '1000' });
    await throughProxy();
    proxy.setPlan((request) => (request.seen < 2 ? { kind: 'drop' } : { kind: 'pass' }));
    const buffer = await client.usageEvents.openBuffer();
    await buffer.add({ customerId: setup.customerId, action: setup.action, quantity: '4' });
    const firstFlush = await buffer.flush();
    expect(firstFlush.reports.map((report) => report.kind)).toEqual(['gave_up']);
    expect(buffer.pending).toBe(1);
    const secondFlush = await buffer.flush();
    expect(secondFlush.reports.map((report) => report.kind)).toEqual(['accepted']);
    expect(secondFlush.undelivered).toEqual([]);
    expect(buffer.pending).toBe(0);
    await buffer.close();
  });
});
