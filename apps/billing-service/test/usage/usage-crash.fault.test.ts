/**
 * The built service is killed with SIGKILL while several senders stream usage events, then
 * restarted on the same data. Every event answered 202 `accepted` before the kill is stored;
 * resending every event that got no answer stores the missing ones and nothing twice; and the
 * balance equals a recomputation from the stored events and the ledger (ADR 0150).
 */
import { Decimal } from '@drawdown/billing-core';
import { type CoreServices, composeServices } from '@drawdown/billing-service';
import { openDatabase, type SqlDatabase } from '@drawdown/billing-store';
import { createTestStorage, ENGINES, storeConfigOf, type TestStorage } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../support/api-client.js';
import { buildService, createAccountWithCli, type ServiceProcess, startServiceProcess } from './service-process.js';
import { expectStoredBalancesRecomputable, startSubscriptionInStore, type UsageEventBody } from './usage-fixtures.js';

const EVENTS = 240;
const SENDERS = 6;
const RATE = '1.5';
const ALLOWANCE = '100';
/** The kill lands once this many events were acknowledged, mid-stream. */
const KILL_AFTER = 60;

type Outcome = 'accepted' | 'no_answer' | 'refused';

async function send(baseUrl: string, key: string, event: UsageEventBody): Promise<Outcome> {
  try {
    const response = await fetch(`${baseUrl}/usage-events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ events: [event] }),
      signal: AbortSignal.timeout(15_000),
    });
    const body = (await response.json()) as { data?: { events?: { status: string }[] } };
    if (response.status === 202 && body.data?.events?.[0]?.status === 'accepted') return 'accepted';
    return 'refused';
  } catch {
    // Connection refused or reset, or a body cut off by the kill: no answer.
    return 'no_answer';
  }
}

/** Tenths of the quantity, so sums stay exact integers: quantities are 0.5, 1 and 2. */
const TENTHS = [5, 10, 20];
const quantityOf = (index: number) => (TENTHS[index % TENTHS.length] ?? 10) / 10;

describe.each(ENGINES)('%s: SIGKILL during usage ingestion', (engine) => {
  let storage: TestStorage;
  let services: CoreServices;
  let raw: SqlDatabase;
  let service: ServiceProcess | undefined;

  beforeAll(async () => {
    buildService();
    storage = await createTestStorage(engine);
  }, 180_000);
  afterAll(async () => {
    await service?.stop('SIGKILL');
    await raw?.close();
    await services?.store.close();
    await storage?.dispose();
  });

  async function storedKeys(accountId: string): Promise<Set<string>> {
    const rows = await raw.all<{ event_key: string }>('select event_key from usage_events where account_id = ?', [
      accountId,
    ]);
    return new Set(rows.map((row) => row.event_key));
  }

  async function waitUntilApplied(): Promise<void> {
    for (let attempt = 0; attempt < 1_000; attempt += 1) {
      const row = await raw.get<{ pending: number | string }>('select count(*) as pending from usage_pending');
      if (Number(row?.pending) === 0) return;
      await new Promise((done) => setTimeout(done, 20));
    }
    throw new Error('drawdowns did not drain');
  }

  it('counts every acknowledged event exactly once, and the balance equals a recomputation', async () => {
    const { accountId, sandboxKey } = await createAccountWithCli(storage);
    services = await composeServices(storage);
    raw = openDatabase(storeConfigOf(storage, { maxConnections: 1 }));
    service = await startServiceProcess(storage, sandboxKey);
    let api = apiClient(service.sandboxUrl, sandboxKey);

    const unitId = (await api.post('/usage-balance-units', { name: 'Credits', unit_name: 'credits' })).id;
    const action = 'fault_call';
    expect(
      (
        await api.post('/meters', {
          usage_balance_unit_id: unitId,
          name: 'Calls',
          action,
          unit_name: 'call',
          rate: RATE,
        })
      ).status,
    ).toBe(201);
    const productId = (await api.post('/products', { name: 'Plan', tax_category: 'saas' })).id;
    const priceId = (
      await api.post('/prices', {
        product_id: productId,
        description: 'Plan',
        unit_price: { amount: '1000', currency_code: 'USD' },
        billing_cycle: { interval: 'month', frequency: 1 },
        allowances: [{ usage_balance_unit_id: unitId, amount: ALLOWANCE }],
      })
    ).id;
    const customerId = (await api.post('/customers', { email: 'fault@example.com' })).id;
    await startSubscriptionInStore(services, accountId, customerId, [{ priceId, quantity: 1 }]);

    const occurredAt = new Date().toISOString();
    const events: UsageEventBody[] = Array.from({ length: EVENTS }, (_, index) => ({
      event_key: `fault-${index}`,
      customer_id: customerId,
      action,
      quantity: String(quantityOf(index)),
      occurred_at: occurredAt,
    }));

    // Several senders stream the events; the process is killed once KILL_AFTER were acknowledged.
    const outcomes = new Map<string, Outcome>();
    let acknowledged = 0;
    let next = 0;
    const running = service;
    let killed: Promise<void> | undefined;
    await Promise.all(
      Array.from({ length: SENDERS }, async () => {
        while (next < events.length) {
          const event = events[next];
          next += 1;
          if (!event) break;
          const outcome = await send(running.sandboxUrl, sandboxKey, event);
          outcomes.set(event.event_key, outcome);
          if (outcome === 'accepted') acknowledged += 1;
          if (acknowledged >= KILL_AFTER && !killed) killed = running.stop('SIGKILL');
        }
      }),
    );
    await killed;
    const accepted = events.filter((event) => outcomes.get(event.event_key) === 'accepted');
    const unanswered = events.filter((event) => outcomes.get(event.event_key) !== 'accepted');
    expect(accepted.length).toBeGreaterThanOrEqual(KILL_AFTER);
    expect(unanswered.length, 'the kill landed mid-stream').toBeGreaterThan(0);
    expect([...outcomes.values()].filter((outcome) => outcome === 'refused')).toEqual([]);

    // Durability: every 202 survived the kill.
    const afterKill = await storedKeys(accountId);
    expect(accepted.filter((event) => !afterKill.has(event.event_key)).map((event) => event.event_key)).toEqual([]);

    service = await startServiceProcess(storage, sandboxKey);
    api = apiClient(service.sandboxUrl, sandboxKey);
    // The client rule: resend unchanged what got no answer. Resending a few acknowledged ones too must change nothing.
    const resends = [...unanswered, ...accepted.slice(0, 20)];
    const resent = await Promise.all(resends.map((event) => send(api.baseUrl, sandboxKey, event)));
    expect(resent.filter((outcome) => outcome !== 'accepted')).toEqual([]);
    await waitUntilApplied();

    const scope = { accountId, environment: 'sandbox' as const };
    const stored = await services.store.usageEvents.listByCustomer(scope, customerId);
    expect(stored).toHaveLength(EVENTS);
    expect(new Set(stored.map((event) => event.eventKey)).size).toBe(EVENTS);

    // used + overage is the sum of quantity × rate over all events, each counted once.
    const totalTenths = events.reduce((sum, _, index) => sum + (TENTHS[index % TENTHS.length] ?? 0), 0);
    // Exact decimals: the quantities are tenths, each drawn at RATE.
    const expectedConsumed = Decimal.fromBigInt(BigInt(totalTenths))
      .multiply(Decimal.parse('0.1'))
      .multiply(Decimal.parse(RATE));
    const balances = await api.get(`/customers/${customerId}/usage-balances`);
    const balance = balances.list[0]?.balance as {
      used: { total: string };
      remaining: { total: string };
      overage: { total: string };
    };
    expect(balance.used.total).toBe(ALLOWANCE);
    expect(balance.remaining.total).toBe('0');
    expect(Decimal.parse(balance.used.total).add(Decimal.parse(balance.overage.total)).toString()).toBe(
      expectedConsumed.toString(),
    );
    await expectStoredBalancesRecomputable(services.store, scope, customerId);

    // The depletion happened once, whether before or after the kill.
    const depleted = await api.get('/events?event_type=usage_balance.depleted');
    expect(depleted.list).toHaveLength(1);
  }, 120_000);
});
