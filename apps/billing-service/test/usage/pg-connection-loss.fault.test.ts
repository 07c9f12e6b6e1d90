/**
 * PostgreSQL ends the service's connections under load, as a failover or an administrator does
 * (`pg_terminate_backend` from a separate connection, again and again, while requests that read,
 * write and ingest usage run): the built `drawdown serve` process stays up, and once the storm
 * is over every request succeeds again on fresh connections (ADR 0905).
 */
import { createTestStorage, type TestStorage } from '@drawdown/testkit';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildService, createAccountWithCli, type ServiceProcess, startServiceProcess } from './service-process.js';

const ROUNDS = 8;
const REQUESTS_PER_ROUND = 30;

describe('postgres: connections ended by the server', () => {
  let storage: TestStorage;
  let service: ServiceProcess | undefined;
  let admin: pg.Client;
  let key: string;

  beforeAll(async () => {
    buildService();
    storage = await createTestStorage('postgres');
    key = (await createAccountWithCli(storage)).sandboxKey;
    service = await startServiceProcess(storage, key);
    admin = new pg.Client({ connectionString: storage.databaseUrl });
    admin.on('error', () => {});
    await admin.connect();
  }, 180_000);
  afterAll(async () => {
    await service?.stop('SIGTERM');
    await admin?.end().catch(() => {});
    await storage?.dispose();
  });

  /** One request of the load: a read, a write or a usage event (answers of any status count). */
  async function request(index: number): Promise<number> {
    const base = service?.sandboxUrl ?? '';
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const kind = index % 3;
    const init: RequestInit =
      kind === 0
        ? { headers }
        : kind === 1
          ? { method: 'POST', headers, body: JSON.stringify({ email: `c${index}-${Date.now()}@example.com` }) }
          : {
              method: 'POST',
              headers,
              body: JSON.stringify({
                events: [
                  {
                    event_key: `k${index}`,
                    customer_id: 'ctm_00000000000000000000000000',
                    action: 'api_call',
                    quantity: '1',
                    occurred_at: new Date().toISOString(),
                  },
                ],
              }),
            };
    const path = kind === 0 ? '/customers' : kind === 1 ? '/customers' : '/usage-events';
    try {
      return (await fetch(`${base}${path}`, init)).status;
    } catch {
      return 0;
    }
  }

  /** Ends every connection to the test database but the admin's own; the number ended. */
  async function terminateBackends(): Promise<number> {
    const result = await admin.query<{ ended: boolean }>(
      'select pg_terminate_backend(pid) as ended from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    return result.rows.filter((row) => row.ended).length;
  }

  it('stays up while its backends are terminated under load, then serves every request', async () => {
    let ended = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      const load = Promise.all(
        Array.from({ length: REQUESTS_PER_ROUND }, (_, index) => request(round * REQUESTS_PER_ROUND + index)),
      );
      // Mid-load: some connections are running statements, some sit between them, some idle.
      ended += await terminateBackends();
      await load;
      expect(service?.running(), service?.output()).toBe(true);
    }
    expect(ended).toBeGreaterThan(0);

    // The pool drops dead connections as it meets them; a bounded number of tries reaches a fresh one.
    let first = 0;
    for (let attempt = 0; attempt < 20 && first !== 200; attempt += 1) first = await request(0);
    expect(first).toBe(200);
    const statuses = [];
    for (let index = 0; index < 30; index += 1) statuses.push(await request(1_000 + index));
    expect(statuses.filter((status) => status >= 500 || status === 0)).toEqual([]);
    expect(service?.running(), service?.output()).toBe(true);
  }, 120_000);
});
