/**
 * Rules every request of a client follows, proven through the fault-injecting proxy in front of
 * a real service: the client-wide hold after a 429, which methods are repeated on which
 * failures, and how connection failures and timeouts surface.
 */
import { Drawdown, DrawdownApiError, DrawdownConnectionError } from '@drawdown/sdk';
import { type BillingHarness, expectEvery, startBillingHarness } from '@drawdown/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type FakeRuntime, fakeRuntime } from '../support/fake-runtime.js';
import { type FaultPlan, type FaultProxy, faultsFor, startFaultProxy } from '../support/fault-proxy.js';
import { usageSetup } from '../support/fixtures.js';

describe('request rules through a faulty network', () => {
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
  afterEach(() => proxy.close());

  async function through(plan: FaultPlan, options: { timeoutMs?: number; maxRetries?: number } = {}) {
    runtime = fakeRuntime();
    proxy = await startFaultProxy({ upstream: harness.sandboxUrl, now: runtime.now, plan });
    client = new Drawdown(harness.sandboxKey, {
      baseUrl: proxy.url,
      runtime,
      maxRetries: options.maxRetries ?? 2,
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    });
  }

  it('after a 429 on usage, holds a different request until Retry-After has passed', async () => {
    const setup = await usageSetup(direct, harness);
    await through(faultsFor('POST', '/usage-events', [{ kind: 'rate-limit', retryAfter: '30' }]));
    const limited = await client.usageEvents
      .send({ customerId: setup.customerId, action: setup.action, quantity: '1' })
      .catch((caught: unknown) => caught);
    expect(limited).toBeInstanceOf(DrawdownApiError);
    expect(limited).toMatchObject({ status: 429, code: 'too_many_requests', retryAfter: 30 });
    const refusedAt = runtime.now();

    const meters = await client.meters.list().next();
    expect(meters.length).toBeGreaterThan(0);
    const [get] = proxy.to('GET', '/meters');
    expect(get?.at).toBeGreaterThanOrEqual(refusedAt + 30_000);
    expect(runtime.sleeps).toEqual([30_000]);
  });

  it('waits until an HTTP-date Retry-After before sending again', async () => {
    await through((request) =>
      request.method === 'GET' && request.path === '/products' && request.seen === 0
        ? { kind: 'rate-limit', retryAfter: new Date(runtime.now() + 10_000).toUTCString() }
        : { kind: 'pass' },
    );
    const start = runtime.now();
    expect(Array.isArray(await client.products.list().next())).toBe(true);
    const [refused, repeated] = proxy.to('GET', '/products');
    expect(refused?.fault).toBe('rate-limit');
    // HTTP dates have whole seconds.
    expect((repeated?.at ?? 0) - start).toBeGreaterThanOrEqual(9_000);
  });

  it('repeats a GET after a 500 and a dropped connection', async () => {
    await through(faultsFor('GET', '/meters', [{ kind: 'status', status: 500 }, { kind: 'drop' }]));
    await client.meters.list().next();
    expect(proxy.to('GET', '/meters').map((request) => request.fault)).toEqual(['status', 'drop', 'pass']);
  });

  it('does not repeat a POST after a 500 or a dropped connection: the first may have worked', async () => {
    await through(faultsFor('POST', '/products', [{ kind: 'status', status: 500 }, { kind: 'drop' }]));
    await expect(client.products.create({ name: 'Once', taxCategory: 'saas' })).rejects.toMatchObject({
      status: 500,
      code: 'internal_error',
    });
    const dropped = await client.products
      .create({ name: 'Once', taxCategory: 'saas' })
      .catch((caught: unknown) => caught);
    expect(dropped).toBeInstanceOf(DrawdownConnectionError);
    expect(dropped).toMatchObject({ code: 'network_error', method: 'POST' });
    expect(proxy.to('POST', '/products')).toHaveLength(2);
  });

  it('repeats a POST after a 429, which the service answers before doing anything', async () => {
    await through(faultsFor('POST', '/products', [{ kind: 'rate-limit', retryAfter: '1' }]));
    const product = await client.products.create({ name: 'After the limit', taxCategory: 'saas' });
    expect(product.name).toBe('After the limit');
    expect(proxy.to('POST', '/products').map((request) => request.fault)).toEqual(['rate-limit', 'pass']);
    const bodies = proxy.to('POST', '/products').map((request) => request.body.toString());
    expect(bodies[0]).toBe(bodies[1]);
  });

  it('gives up after maxRetries with the last error', async () => {
    await through(() => ({ kind: 'status', status: 502 }), { maxRetries: 3 });
    await expect(client.customers.list().next()).rejects.toMatchObject({ status: 502 });
    expect(proxy.to('GET', '/customers')).toHaveLength(4);
  });

  it('reports a non-JSON error answer as unexpected_response with its status', async () => {
    await through(faultsFor('GET', '/prices', [{ kind: 'status', status: 400, body: '<html>bad gateway</html>' }]));
    await expect(client.prices.list().next()).rejects.toMatchObject({
      status: 400,
      code: 'unexpected_response',
      type: 'request_error',
    });
  });

  it('times out an attempt that gets no answer, as a DrawdownConnectionError with code timeout', async () => {
    await through(() => ({ kind: 'hang' }), { timeoutMs: 100, maxRetries: 0 });
    const error = await client.meters
      .list()
      .next()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DrawdownConnectionError);
    expect(error).toMatchObject({ code: 'timeout', method: 'GET' });
  });

  it('pages on its own base URL even when the service advertises another host for next', async () => {
    await through(() => ({ kind: 'pass' }));
    for (let index = 0; index < 3; index += 1) {
      await direct.usageBalanceUnits.create({ name: `Proxy paged ${index}`, unitName: 'units' });
    }
    const names: string[] = [];
    for await (const unit of client.usageBalanceUnits.list({ perPage: 1 })) names.push(unit.name);
    expect(names.length).toBeGreaterThanOrEqual(3);
    const pages = proxy.to('GET', '/usage-balance-units');
    expect(pages.length).toBe(names.length);
    expectEvery(pages.slice(1), (request) => request.path.includes('after=ubu_'), { atLeast: 2 });
  });
});
