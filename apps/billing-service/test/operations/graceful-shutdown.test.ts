/**
 * SIGTERM under load (issue 18): the built service, as a separate process, gets SIGTERM while
 * eight keep-alive senders create customers and send usage events. It stops accepting, answers
 * what it had in flight, and exits 0 after closing the stores. Afterwards every request answered
 * 2xx is stored, and everything stored was answered: nothing is stored behind an error.
 */
import { openDatabase, type SqlDatabase } from '@drawdown/billing-store';
import { createTestStorage, ENGINES, storeConfigOf, type TestStorage } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../support/api-client.js';
import {
  buildService,
  createAccountWithCli,
  type ServiceProcess,
  startServiceProcess,
} from '../usage/service-process.js';

const SENDERS = 8;
/** SIGTERM lands once this many requests were answered. */
const SIGNAL_AFTER = 60;
const MOST_REQUESTS = 2_000;

type Outcome = 'answered' | 'refused' | 'no_answer';

interface Sent {
  readonly kind: 'customer' | 'usage';
  readonly key: string;
  outcome: Outcome;
  /** The request was answered after the signal had been sent: it was in flight at SIGTERM. */
  answeredAfterSignal: boolean;
}

describe.each(ENGINES)('%s: SIGTERM under load', (engine) => {
  let storage: TestStorage;
  let raw: SqlDatabase | undefined;
  let service: ServiceProcess | undefined;

  beforeAll(async () => {
    buildService();
    storage = await createTestStorage(engine);
  }, 180_000);
  afterAll(async () => {
    await service?.stop('SIGKILL');
    await raw?.close();
    await storage?.dispose();
  });

  it('answers what is in flight, stores nothing it did not answer, and exits 0', async () => {
    const { accountId, sandboxKey } = await createAccountWithCli(storage);
    // Every accepted ingest's access line, not one in ten (ADR 0730): the test checks each is written before exit.
    service = await startServiceProcess(storage, sandboxKey, ['--access-log-usage-sample', '1']);
    const running = service;
    const api = apiClient(running.sandboxUrl, sandboxKey);
    const unitId = (await api.post('/usage-balance-units', { name: 'Credits', unit_name: 'credits' })).id;
    const action = 'shutdown_call';
    await api.post('/meters', { usage_balance_unit_id: unitId, name: 'Calls', action, unit_name: 'call', rate: '1' });
    const customerId = (await api.post('/customers', { email: 'load@example.com' })).id;
    const occurredAt = new Date().toISOString();

    const sent: Sent[] = [];
    let answered = 0;
    let signalled = false;
    let stopped: Promise<void> | undefined;
    const request = async (entry: Sent): Promise<void> => {
      const body =
        entry.kind === 'customer'
          ? { email: `${entry.key}@example.com` }
          : {
              events: [
                { event_key: entry.key, customer_id: customerId, action, quantity: '1', occurred_at: occurredAt },
              ],
            };
      try {
        const response = await fetch(
          `${running.sandboxUrl}/${entry.kind === 'customer' ? 'customers' : 'usage-events'}`,
          {
            method: 'POST',
            headers: {
              authorization: `Bearer ${sandboxKey}`,
              'content-type': 'application/json',
              'x-request-id': entry.key,
            },
            body: JSON.stringify(body),
            signal: AbortSignal.timeout(20_000),
          },
        );
        const text = await response.text();
        const accepted =
          entry.kind === 'customer' ? response.status === 201 : response.status === 202 && text.includes('"accepted"');
        entry.outcome = accepted ? 'answered' : 'refused';
        entry.answeredAfterSignal = signalled;
      } catch {
        entry.outcome = 'no_answer';
      }
    };
    await Promise.all(
      Array.from({ length: SENDERS }, async (_, sender) => {
        for (let index = 0; sent.length < MOST_REQUESTS; index += 1) {
          const entry: Sent = {
            kind: index % 2 === 0 ? 'usage' : 'customer',
            key: `s${sender}-${index}`,
            outcome: 'no_answer',
            answeredAfterSignal: false,
          };
          sent.push(entry);
          await request(entry);
          if (entry.outcome === 'answered') answered += 1;
          if (answered >= SIGNAL_AFTER && !signalled) {
            signalled = true;
            stopped = running.stop('SIGTERM');
          }
          // Once the listener is closed, a sender's next request finds no server: it stops.
          if (entry.outcome === 'no_answer') return;
        }
      }),
    );
    await stopped;
    expect(running.exitCode(), running.output()).toBe(0);
    expect(sent.length, 'the load ran until the listener closed').toBeLessThan(MOST_REQUESTS);
    expect(
      sent.filter((entry) => entry.answeredAfterSignal).length,
      'requests in flight at SIGTERM were answered',
    ).toBeGreaterThan(0);
    expect(sent.filter((entry) => entry.outcome === 'refused').map((entry) => entry.key)).toEqual([]);

    raw = openDatabase(storeConfigOf(storage, { maxConnections: 1 }));
    const storedEvents = new Set(
      (
        await raw.all<{ event_key: string }>('select event_key from usage_events where account_id = ?', [accountId])
      ).map((row) => row.event_key),
    );
    const storedCustomers = new Set(
      (
        await raw.all<{ email: string }>(
          "select email from customers where account_id = ? and environment = 'sandbox'",
          [accountId],
        )
      ).map((row) => row.email.replace('@example.com', '')),
    );
    const isStored = (entry: Sent) =>
      entry.kind === 'usage' ? storedEvents.has(entry.key) : storedCustomers.has(entry.key);
    // Every 2xx is stored; everything stored was answered 2xx.
    expect(sent.filter((entry) => entry.outcome === 'answered' && !isStored(entry)).map((entry) => entry.key)).toEqual(
      [],
    );
    expect(sent.filter((entry) => entry.outcome !== 'answered' && isStored(entry)).map((entry) => entry.key)).toEqual(
      [],
    );
    expect(storedEvents.size + storedCustomers.size - 1).toBe(
      sent.filter((entry) => entry.outcome === 'answered').length,
    );
    // The log says it drained and stopped, in JSON lines.
    const lines = running
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg: string; level: string; requestId?: string });
    expect(lines.map((line) => line.msg)).toEqual(expect.arrayContaining(['signal received', 'stopped']));
    // Access lines are written asynchronously (ADR 0715); every answered request's is out before exit.
    const logged = new Set(lines.filter((line) => line.msg === 'request').map((line) => line.requestId));
    expect(
      sent.filter((entry) => entry.outcome === 'answered' && !logged.has(entry.key)).map((entry) => entry.key),
    ).toEqual([]);
    expect(lines.filter((line) => line.level === 'error')).toEqual([]);
  }, 180_000);
});
