/**
 * The seed's client rules for usage events, proven through a fault-injecting proxy in front of a
 * real service: the proxy counts every request and keeps its exact bytes, and a virtual clock
 * shows what was waited for. (One engine: these are rules of the client, not of storage; the
 * service itself is tested on both.)
 */
import { Drawdown, DrawdownApiError } from '@drawdown/sdk';
import { type BillingHarness, startBillingHarness } from '@drawdown/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type FakeRuntime, fakeRuntime } from '../support/fake-runtime.js';
import { type FaultProxy, faultsFor, startFaultProxy } from '../support/fault-proxy.js';
import { recordedUsage, settleUsage, type UsageSetup, usageSetup } from '../support/fixtures.js';

const DAY_MS = 86_400_000;

describe('reportUsage through a faulty network', () => {
  let harness: BillingHarness;
  let direct: Drawdown;
  let proxy: FaultProxy;
  let runtime: FakeRuntime;
  let client: Drawdown;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine: 'sqlite' });
    direct = new Drawdown(harness.sandboxKey, { baseUrl: harness.sandboxUrl });
  });
  afterAll(() => harness.close());

  async function through(plan: Parameters<typeof startFaultProxy>[0]['plan'], options: { maxAttempts?: number } = {}) {
    runtime = fakeRuntime();
    proxy = await startFaultProxy({ upstream: harness.sandboxUrl, now: runtime.now, ...(plan ? { plan } : {}) });
    client = new Drawdown(harness.sandboxKey, {
      baseUrl: proxy.url,
      runtime,
      usageRetry: { maxAttempts: options.maxAttempts ?? 8, baseDelayMs: 100, maxDelayMs: 2_000 },
    });
  }
  afterEach(() => proxy.close());

  async function usedTotal(setup: UsageSetup): Promise<string | undefined> {
    await settleUsage(direct);
    const [balance] = await direct.usageBalances.list(setup.customerId).next();
    return balance?.balance.used.total;
  }

  function usageBodies(): string[] {
    return proxy.to('POST', '/usage-events').map((request) => request.body.toString('utf8'));
  }

  it('retries unchanged after a dropped connection, a 500 and a 429, and the event counts once', async () => {
    const setup = await usageSetup(direct, harness);
    await through(
      faultsFor('POST', '/usage-events', [
        { kind: 'drop' },
        { kind: 'status', status: 500 },
        { kind: 'rate-limit', retryAfter: '3' },
      ]),
    );
    const report = await client.reportUsage({ customerId: setup.customerId, action: setup.action, quantity: '2' });
    expect(report).toMatchObject({ kind: 'accepted', attempts: 4 });

    const bodies = usageBodies();
    expect(bodies).toHaveLength(4);
    expect(new Set(bodies).size).toBe(1);
    expect(JSON.parse(bodies[0] ?? '')).toEqual({
      events: [
        {
          event_key: report.event.eventKey,
          customer_id: setup.customerId,
          action: setup.action,
          quantity: '2',
          occurred_at: report.event.occurredAt,
        },
      ],
    });
    // The attempt after the 429 went out only once Retry-After had passed.
    const [, , limited, last] = proxy.to('POST', '/usage-events');
    expect((last?.at ?? 0) - (limited?.at ?? 0)).toBeGreaterThanOrEqual(3_000);
    expect(await recordedUsage(harness, setup.customerId)).toHaveLength(1);
    expect(await usedTotal(setup)).toBe('2');
  });

  it('retries when the service stored the event but the answer was lost, without counting it twice', async () => {
    const setup = await usageSetup(direct, harness);
    await through(faultsFor('POST', '/usage-events', [{ kind: 'drop-after-forward' }, { kind: 'drop-after-forward' }]));
    const report = await client.reportUsage({ customerId: setup.customerId, action: setup.action, quantity: '5' });
    expect(report).toMatchObject({ kind: 'accepted', attempts: 3 });
    expect(new Set(usageBodies()).size).toBe(1);
    expect(usageBodies()).toHaveLength(3);
    expect(await recordedUsage(harness, setup.customerId)).toHaveLength(1);
    expect(await usedTotal(setup)).toBe('5');
  });

  it('retries a per-event internal_error unchanged', async () => {
    const setup = await usageSetup(direct, harness);
    await through(faultsFor('POST', '/usage-events', [{ kind: 'internal-error-result' }]));
    const report = await client.reportUsage({ customerId: setup.customerId, action: setup.action, quantity: '1' });
    expect(report).toMatchObject({ kind: 'accepted', attempts: 2 });
    expect(usageBodies()).toHaveLength(2);
    expect(new Set(usageBodies()).size).toBe(1);
    expect(await usedTotal(setup)).toBe('1');
  });

  it('backs off exponentially with full jitter and gives up after the bounded attempts', async () => {
    const setup = await usageSetup(direct, harness);
    await through(() => ({ kind: 'status', status: 503 }), { maxAttempts: 5 });
    runtime.setRandom(0.999);
    const report = await client.reportUsage({ customerId: setup.customerId, action: setup.action, quantity: '1' });
    expect(report).toMatchObject({ kind: 'gave_up', attempts: 5, code: 'internal_error' });
    expect(usageBodies()).toHaveLength(5);
    expect(new Set(usageBodies()).size).toBe(1);
    // Ceilings 100, 200, 400, 800 ms; random() just under 1 takes nearly all of each.
    expect(runtime.sleeps).toEqual([99, 199, 399, 799]);

    runtime.setRandom(0);
    runtime.sleeps.length = 0;
    const again = await client.reportUsage(report.event);
    expect(again.kind).toBe('gave_up');
    expect(runtime.sleeps).toEqual([0, 0, 0, 0]);
  });

  it('treats a 400 as final: one request, reported as rejected', async () => {
    await through(undefined);
    const report = await client.reportUsage({ customerId: 'not-a-customer', action: 'api_call', quantity: '1' });
    expect(report).toMatchObject({ kind: 'rejected', status: 400, code: 'invalid_field', attempts: 1 });
    expect(report.kind === 'rejected' && report.error).toBeInstanceOf(DrawdownApiError);
    expect(usageBodies()).toHaveLength(1);
  });

  it('treats a 403 as final: one request, reported as rejected', async () => {
    const setup = await usageSetup(direct, harness);
    await through(undefined);
    const readOnlyKey = await harness.createKey({ environment: 'sandbox', permissions: ['usage_balance.read'] });
    const readOnly = new Drawdown(readOnlyKey, { baseUrl: proxy.url, runtime });
    const report = await readOnly.reportUsage({ customerId: setup.customerId, action: setup.action, quantity: '1' });
    expect(report).toMatchObject({ kind: 'rejected', status: 403, code: 'forbidden', attempts: 1 });
    expect(usageBodies()).toHaveLength(1);
  });

  it('treats other per-event rejections as final: one request', async () => {
    const setup = await usageSetup(direct, harness);
    await through(undefined);
    const report = await client.reportUsage({
      customerId: setup.customerId,
      action: setup.action,
      quantity: '0.30000000000000004',
    });
    expect(report).toMatchObject({ kind: 'rejected', attempts: 1 });
    expect(usageBodies()).toHaveLength(1);
  });

  it('reports expired, noting that an earlier unanswered attempt may still count', async () => {
    const setup = await usageSetup(direct, harness);
    const clock = await direct.sandboxClock.get();
    // Inside the 60-day window now; outside it once the sandbox clock has moved two hours.
    const occurredAt = new Date(Date.parse(clock.now) - 60 * DAY_MS + 60 * 60 * 1000);
    await through(async (request) => {
      if (request.method !== 'POST' || request.path !== '/usage-events') return { kind: 'pass' };
      if (request.seen === 0) return { kind: 'drop-after-forward' };
      await direct.sandboxClock.advance({ seconds: 2 * 60 * 60 });
      return { kind: 'pass' };
    });
    const report = await client.reportUsage({
      customerId: setup.customerId,
      action: setup.action,
      quantity: '7',
      occurredAt,
    });
    expect(report).toMatchObject({
      kind: 'expired',
      code: 'usage_event_timestamp_too_old',
      attempts: 2,
      mayHaveCounted: true,
    });
    expect(new Set(usageBodies()).size).toBe(1);
    // It did count: the first attempt was stored before its answer was lost.
    expect(await recordedUsage(harness, setup.customerId)).toHaveLength(1);
    expect(await usedTotal(setup)).toBe('7');
  });
});
