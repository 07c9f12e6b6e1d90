/**
 * Usage's use cases against a plain in-memory object of its slice (ADR 0922): accepting events
 * through the store's ingest and reading balances, with no database. The engine tests
 * (`apps/billing-service/test/usage`) run the same use cases through SQLite and PostgreSQL.
 */
import { describe, expect, it } from 'vitest';
import {
  fixedClock,
  LIVE,
  MemoryCollection,
  MemoryEventLog,
  memoryBase,
  page,
  storeOf,
} from '../../test/memory-store.js';
import type { Customer } from '../catalogue/entities.js';
import type { CustomerColumn } from '../catalogue/repositories.js';
import type { ListQuery, Page } from '../shared/pagination.js';
import type { Scope } from '../shared/scope.js';
import { EMPTY_BALANCE, type LedgerEntry } from './balance-ledger.js';
import type {
  BalanceChange,
  BalanceKey,
  IngestOutcome,
  PendingUsageEvent,
  UsageBalanceColumn,
  UsageBalanceRepository,
  UsageEventIngest,
  UsageEventRepository,
  UsageSlice,
} from './repositories.js';
import type { UsageBalance } from './usage-balance.js';
import type { RecordedUsageEvent, UsageEventInput } from './usage-event.js';
import { usageUseCases } from './usage-use-cases.js';

/** A well-formed customer id, `ctm_` and 26 characters. */
const ctm = (name: string) => `ctm_${name.padStart(26, '0')}`;

const sameScope = (a: Scope, b: Scope) => a.accountId === b.accountId && a.environment === b.environment;

/** Balances with their ledgers, and accepted events, in arrays. */
class MemoryUsage implements UsageBalanceRepository, UsageEventRepository {
  readonly balances: { scope: Scope; balance: UsageBalance; entries: LedgerEntry[] }[] = [];
  readonly accepted: PendingUsageEvent[] = [];

  async findById(scope: Scope, id: string) {
    return this.balances.find((row) => sameScope(row.scope, scope) && row.balance.id === id)?.balance;
  }
  async list(scope: Scope, query: ListQuery<UsageBalanceColumn>): Promise<Page<UsageBalance>> {
    const rows = this.balances.filter((row) => sameScope(row.scope, scope)).map((row) => row.balance);
    return page(rows, query, (balance, column) =>
      column === 'id' ? balance.id : column === 'customer_id' ? balance.customerId : balance.usageBalanceUnitId,
    );
  }
  async lock(scope: Scope, customerId: string, unitId: string, create?: UsageBalance) {
    const found = this.balances.find(
      (row) =>
        sameScope(row.scope, scope) &&
        row.balance.customerId === customerId &&
        row.balance.usageBalanceUnitId === unitId,
    );
    if (found || !create) return found?.balance;
    this.balances.push({ scope, balance: create, entries: [] });
    return create;
  }
  async save(scope: Scope, balance: UsageBalance, entries: readonly LedgerEntry[]) {
    const found = this.balances.find((row) => sameScope(row.scope, scope) && row.balance.id === balance.id);
    if (found) {
      found.balance = balance;
      found.entries.push(...entries);
    } else this.balances.push({ scope, balance, entries: [...entries] });
  }
  async lockMany(keys: readonly BalanceKey[]) {
    return Promise.all(keys.map((key) => this.lock(key.scope, key.customerId, key.unitId)));
  }
  async saveMany(changes: readonly BalanceChange[]) {
    for (const change of changes) await this.save(change.scope, change.balance, change.entries);
  }
  async ledger(scope: Scope, balanceId: string) {
    return this.balances.find((row) => sameScope(row.scope, scope) && row.balance.id === balanceId)?.entries ?? [];
  }
  async claimPending(limit: number, scope?: Scope) {
    return this.accepted.filter((row) => !scope || sameScope(row.scope, scope)).slice(0, limit);
  }
  async takePending(limit: number, scope?: Scope) {
    const taken = await this.claimPending(limit, scope);
    this.accepted.splice(0, this.accepted.length, ...this.accepted.filter((row) => !taken.includes(row)));
    return taken;
  }
  async hasPending(scope: Scope) {
    return this.accepted.some((row) => sameScope(row.scope, scope));
  }
  async listByCustomer(scope: Scope, customerId: string): Promise<readonly RecordedUsageEvent[]> {
    return this.accepted
      .filter((row) => sameScope(row.scope, scope) && row.event.customerId === customerId)
      .map((row) => row.event);
  }
}

function usage(options: { readonly failStorage?: boolean } = {}) {
  const customers = new MemoryCollection<Customer, CustomerColumn>({
    id: (c) => c.id,
    status: (c) => c.status,
    email: (c) => c.email,
    search: (c) => c.email,
  });
  const memory = new MemoryUsage();
  const ingest: UsageEventIngest = {
    async record(scope, event, acceptedAt): Promise<IngestOutcome> {
      if (options.failStorage) throw new Error('disk full');
      const customer = await customers.findById(scope, event.customerId);
      if (!customer) return 'unknown_customer';
      if (customer.status === 'archived') return 'archived_customer';
      const same = (row: PendingUsageEvent) =>
        sameScope(row.scope, scope) &&
        row.event.customerId === event.customerId &&
        row.event.action === event.action &&
        row.event.eventKey === event.eventKey &&
        row.event.occurredAt === event.occurredAt;
      if (memory.accepted.some(same)) return 'duplicate';
      memory.accepted.push({
        scope,
        sequence: memory.accepted.length + 1,
        event: { ...event, acceptedAt, drawdowns: [] },
      });
      return 'recorded';
    },
    onRecorded() {},
  };
  const slice: UsageSlice & { readonly usageIngest: UsageEventIngest } = {
    usageBalances: memory,
    usageEvents: memory,
    customers,
    events: new MemoryEventLog(),
    usageIngest: ingest,
  };
  const reported: string[] = [];
  const clock = fixedClock('2026-03-01T10:00:00.000Z');
  const useCases = usageUseCases(memoryBase(storeOf(slice), clock), {
    reportError: (message) => reported.push(message),
  });
  const customer = (id: string, status: Customer['status']) =>
    customers.insert(LIVE.scope, {
      id,
      name: null,
      email: `${id}@example.com`,
      marketingConsent: false,
      locale: 'en',
      customData: null,
      importMeta: null,
      status,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    });
  return { useCases, memory, reported, customer };
}

const event = (customerId: string, eventKey = 'evt-1'): UsageEventInput => ({
  eventKey,
  customerId,
  action: 'api_call',
  quantity: '3',
  occurredAt: '2026-03-01T09:59:00.000Z',
});

describe('usage use cases on an in-memory slice', () => {
  it('accepts an event once through the ingest, with its scope and acceptance time', async () => {
    const { useCases, memory, customer } = usage();
    await customer(ctm('a'), 'active');
    expect(await useCases.recordUsageEvents(LIVE, [event(ctm('a'))])).toEqual([
      { eventKey: 'evt-1', status: 'accepted' },
    ]);
    // A resend of the same event is answered as accepted and stored once.
    expect(await useCases.recordUsageEvents(LIVE, [event(ctm('a'))])).toEqual([
      { eventKey: 'evt-1', status: 'accepted' },
    ]);
    expect(memory.accepted).toHaveLength(1);
    expect(memory.accepted[0]).toMatchObject({
      scope: LIVE.scope,
      event: { customerId: ctm('a'), quantity: '3', acceptedAt: '2026-03-01T10:00:00.000Z' },
    });
  });

  it('rejects events of unknown and archived customers, and more than one event at once', async () => {
    const { useCases, memory, customer } = usage();
    await customer(ctm('gone'), 'archived');
    const [unknown] = await useCases.recordUsageEvents(LIVE, [event(ctm('nobody'))]);
    const [archived] = await useCases.recordUsageEvents(LIVE, [event(ctm('gone'))]);
    expect(unknown).toMatchObject({ status: 'rejected', error: { code: 'customer_not_found' } });
    expect(archived).toMatchObject({ status: 'rejected', error: { code: 'entity_archived' } });
    await expect(
      useCases.recordUsageEvents(LIVE, [event(ctm('gone'), 'a'), event(ctm('gone'), 'b')]),
    ).rejects.toMatchObject({
      code: 'usage_events_limit_exceeded',
    });
    expect(memory.accepted).toEqual([]);
  });

  it('answers a storage failure as a retryable rejection and reports it', async () => {
    const { useCases, reported, customer } = usage({ failStorage: true });
    await customer(ctm('a'), 'active');
    const [result] = await useCases.recordUsageEvents(LIVE, [event(ctm('a'))]);
    expect(result).toMatchObject({ status: 'rejected', error: { code: 'internal_error' } });
    expect(reported).toEqual(['storing a usage event']);
  });

  it("reads a customer's balances and refuses another customer's", async () => {
    const { useCases, memory, customer } = usage();
    await customer(ctm('a'), 'active');
    await customer(ctm('b'), 'active');
    const balance = (id: string, customerId: string): UsageBalance => ({
      id,
      customerId,
      usageBalanceUnitId: 'ubu_1',
      state: EMPTY_BALANCE,
      createdAt: '2026-02-01T00:00:00.000Z',
      updatedAt: '2026-02-01T00:00:00.000Z',
    });
    await memory.save(LIVE.scope, balance('ubl_a', ctm('a')), []);
    await memory.save(LIVE.scope, balance('ubl_b', ctm('b')), []);
    const listed = await useCases.listUsageBalances(LIVE, ctm('a'), { filter: {}, perPage: 10, direction: 'asc' });
    expect(listed.items.map((item) => item.id)).toEqual(['ubl_a']);
    expect((await useCases.getUsageBalance(LIVE, ctm('a'), 'ubl_a')).customerId).toBe(ctm('a'));
    await expect(useCases.getUsageBalance(LIVE, ctm('a'), 'ubl_b')).rejects.toMatchObject({ code: 'not_found' });
    await expect(
      useCases.listUsageBalances(LIVE, ctm('nobody'), { filter: {}, perPage: 10, direction: 'asc' }),
    ).rejects.toMatchObject({ code: 'not_found' });
  });
});
