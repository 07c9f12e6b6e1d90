/**
 * Two `drawdown serve` processes on one database, each keeping sandbox clock offsets for a second
 * (ADR 0729). One process moves the account's sandbox clock: it reads the moved clock at once;
 * the other, which had the old offset cached, reads the moved clock once a second has passed
 * since the move committed. What is observed is the time a request runs at: a customer created
 * through each process carries its environment clock's `created_at`.
 */
import { createTestStorage, ENGINES, type TestStorage } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOCK_OFFSET_TTL_MS } from '../../src/infrastructure/environment-clocks.js';
import { buildService, createAccountWithCli, type ServiceProcess, startServiceProcess } from './service-process.js';

const THIRTY_DAYS_S = 30 * 86_400;

describe.each(ENGINES)('%s: a sandbox clock moved by one of two service processes', (engine) => {
  let storage: TestStorage;
  const services: ServiceProcess[] = [];
  let key: string;

  async function call(service: ServiceProcess, path: string, body: unknown): Promise<Record<string, unknown>> {
    const response = await fetch(`${service.sandboxUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const payload = (await response.json()) as { data?: Record<string, unknown> };
    if (!response.ok || !payload.data)
      throw new Error(`${path} answered ${response.status}: ${JSON.stringify(payload)}`);
    return payload.data;
  }

  /** The time the process's sandbox ran a request at, as the customer it created records it. */
  async function createdAt(service: ServiceProcess): Promise<number> {
    const customer = await call(service, '/customers', {
      email: `clock-${Math.random().toString(36).slice(2)}@example.com`,
    });
    return Date.parse(String(customer.created_at));
  }

  beforeAll(async () => {
    buildService();
    storage = await createTestStorage(engine);
    key = (await createAccountWithCli(storage)).sandboxKey;
    services.push(await startServiceProcess(storage, key), await startServiceProcess(storage, key));
  }, 180_000);
  afterAll(async () => {
    await Promise.all(services.map((service) => service.stop('SIGTERM')));
    await storage?.dispose();
  });

  it('is read at once by the process that moved it and within a second by the other', async () => {
    const [mover, other] = services as [ServiceProcess, ServiceProcess];
    // Both read (and keep) the unmoved offset.
    const before = Date.now();
    expect(await createdAt(mover)).toBeLessThan(before + 86_400_000);
    expect(await createdAt(other)).toBeLessThan(before + 86_400_000);

    await call(mover, '/sandbox-clock/advance', { seconds: THIRTY_DAYS_S });
    const moved = before + THIRTY_DAYS_S * 1000;
    // The process that moved the clock forgot its cached offset when the move committed.
    expect(await createdAt(mover)).toBeGreaterThanOrEqual(moved);

    // The other's entry was read before the move committed, so it has expired a second later.
    await new Promise((done) => setTimeout(done, CLOCK_OFFSET_TTL_MS + 50));
    expect(await createdAt(other)).toBeGreaterThanOrEqual(moved);
    expect(await createdAt(mover)).toBeGreaterThanOrEqual(moved);
  }, 60_000);
});
