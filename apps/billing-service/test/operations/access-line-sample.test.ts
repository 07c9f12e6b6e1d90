/**
 * `--access-log-usage-sample` (ADR 0730): by default one access line per ten usage requests
 * answered 202 (the first, the eleventh, …), while every other request, a refused usage request
 * included, keeps its line. Logging is the same on both engines, so one is enough.
 */
import { type BillingHarness, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveServiceConfig } from '../../src/config.js';
import { accessLineSampler } from '../../src/operations/access-line.js';
import { memoryLog } from '../support/memory-log.js';
import { newPlan, newTenant, postUsage, type Tenant } from '../usage/usage-fixtures.js';

describe('the access lines of accepted usage requests, sampled', () => {
  const log = memoryLog();
  let harness: BillingHarness;
  let tenant: Tenant;

  beforeAll(async () => {
    harness = await startBillingHarness({ logger: log.logger });
    tenant = await newTenant(harness);
  });
  afterAll(() => harness?.close());

  const usageLines = (status: number) =>
    log.lines.filter((line) => line.msg === 'request' && line.route === '/usage-events' && line.status === status);

  async function settled(count: () => number, expected: number): Promise<number> {
    // Lines are buffered for at most 100 ms; poll with a deadline rather than sleep.
    for (let attempt = 0; attempt < 200 && count() < expected; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return count();
  }

  it('defaults to one in ten, and writes every refused usage request and every other request', async () => {
    expect(resolveServiceConfig({}, {}).accessLogUsageSample).toBe(10);
    const { customerId, action } = await newPlan(tenant);
    for (let index = 0; index < 21; index += 1) {
      expect((await postUsage(tenant.api, { customer_id: customerId, action })).status).toBe('accepted');
    }
    const refused = await tenant.api.post('/usage-events', { events: [] });
    expect(refused.status).toBe(400);
    expect(await settled(() => usageLines(400).length, 1)).toBe(1);
    // The 1st, 11th and 21st: every line written before the refusal's has been flushed with it.
    expect(usageLines(202)).toHaveLength(3);
    // The plan's own requests (units, meters, prices, customers) each have their line.
    expect(log.lines.filter((line) => line.msg === 'request' && line.method === 'POST').length).toBeGreaterThan(4);
  });

  it('writes every line with 1, and refuses anything but a positive whole number', () => {
    const everyLine = accessLineSampler(1);
    const record = {
      requestId: 'r',
      method: 'POST',
      route: '/usage-events',
      status: 202,
      durationMs: 1,
      environment: 'sandbox' as const,
      accountId: undefined,
    };
    expect([1, 2, 3].map(() => everyLine(record))).toEqual([true, true, true]);
    const oneInTwo = accessLineSampler(2);
    expect([1, 2, 3, 4, 5].map(() => oneInTwo(record))).toEqual([true, false, true, false, true]);
    expect(oneInTwo({ ...record, status: 403 })).toBe(true);
    expect(oneInTwo({ ...record, route: '/customers' })).toBe(true);
    for (const text of ['0', '-1', '1.5', 'ten']) {
      expect(() => resolveServiceConfig({ 'access-log-usage-sample': text }, {})).toThrow(
        `--access-log-usage-sample must be a positive number of requests; got ${text}`,
      );
    }
    expect(resolveServiceConfig({}, { DRAWDOWN_ACCESS_LOG_USAGE_SAMPLE: '1' }).accessLogUsageSample).toBe(1);
  });
});
