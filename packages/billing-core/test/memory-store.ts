/**
 * In-memory stand-ins for the storage ports, for unit tests of a feature's use cases against a
 * plain object of its slice (ADR 0922). They keep each scope's rows apart, order lists by id and
 * page them like the adapters; engine behaviour (locks, unique indexes other than the id, full-text
 * search) is the engine tests' business. The clock and ids are deterministic.
 */
import type { EventColumn, EventLog } from '../src/events/repositories.js';
import type { StoredEvent } from '../src/events/stored-event.js';
import type { Clock } from '../src/shared/clock.js';
import { type Collection, DuplicateKeyError } from '../src/shared/collection.js';
import type { Context, StoreOf } from '../src/shared/context.js';
import type { IdGenerator, IdPrefix } from '../src/shared/ids.js';
import type { FilterCondition, ListFilter, ListQuery, Page } from '../src/shared/pagination.js';
import type { Account, Scope } from '../src/shared/scope.js';
import type { Caller, UseCaseBase } from '../src/shared/use-case-base.js';

/** How each promoted column of a collection reads from its entity. */
export type Columns<Entity, Column extends string> = Record<Column, (entity: Entity) => string | boolean | null>;

const keyOf = (scope: Scope, id: string) => `${scope.accountId}/${scope.environment}/${id}`;

function matches(condition: FilterCondition, value: string | boolean | null): boolean {
  switch (condition.op) {
    case 'in':
      return value !== null && condition.values.includes(String(value));
    case 'eq':
      return value === condition.value;
    case 'contains':
      return typeof value === 'string' && value.toLowerCase().includes(condition.value.toLowerCase());
    case 'lt':
      return typeof value === 'string' && value < condition.value;
    case 'lte':
      return typeof value === 'string' && value <= condition.value;
    case 'gt':
      return typeof value === 'string' && value > condition.value;
    case 'gte':
      return typeof value === 'string' && value >= condition.value;
  }
}

/** Filters, orders by id and pages `rows` as `query` says. */
export function page<Entity extends { readonly id: string }, Column extends string>(
  rows: readonly Entity[],
  query: ListQuery<Column>,
  read: (entity: Entity, column: Column) => string | boolean | null,
): Page<Entity> {
  const passes = (entity: Entity, filter: ListFilter<Column>) =>
    (Object.entries(filter) as [Column, readonly FilterCondition[] | undefined][]).every(([column, conditions]) =>
      (conditions ?? []).every((condition) => matches(condition, read(entity, column))),
    );
  const sign = query.direction === 'asc' ? 1 : -1;
  const matching = rows
    .filter((entity) => passes(entity, query.filter))
    .filter((entity) => query.anyOf === undefined || query.anyOf.some((filter) => passes(entity, filter)))
    .sort((a, b) => sign * (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const after = query.after;
  const rest = after === undefined ? matching : matching.filter((entity) => sign * (entity.id < after ? -1 : 1) > 0);
  return {
    items: rest.slice(0, query.perPage),
    hasMore: rest.length > query.perPage,
    estimatedTotal: query.countTotal === false ? 0 : matching.length,
  };
}

/** A `Collection` in a map, its rows apart per scope. */
export class MemoryCollection<Entity extends { readonly id: string }, Column extends string>
  implements Collection<Entity, Column>
{
  private readonly rows = new Map<string, { readonly scope: Scope; readonly entity: Entity }>();

  constructor(private readonly columns: Columns<Entity, Column>) {}

  async insert(scope: Scope, entity: Entity): Promise<void> {
    if (this.rows.has(keyOf(scope, entity.id))) throw new DuplicateKeyError(`${entity.id} exists`);
    this.rows.set(keyOf(scope, entity.id), { scope, entity });
  }

  async update(scope: Scope, entity: Entity): Promise<void> {
    this.rows.set(keyOf(scope, entity.id), { scope, entity });
  }

  async findById(scope: Scope, id: string): Promise<Entity | undefined> {
    return this.rows.get(keyOf(scope, id))?.entity;
  }

  findByIdForUpdate(scope: Scope, id: string): Promise<Entity | undefined> {
    return this.findById(scope, id);
  }

  async list(scope: Scope, query: ListQuery<Column>): Promise<Page<Entity>> {
    return page(this.inScope(scope), query, (entity, column) => this.columns[column](entity));
  }

  /** Removes a row; false when there was none. */
  async delete(scope: Scope, id: string): Promise<boolean> {
    return this.rows.delete(keyOf(scope, id));
  }

  /** Every row of a scope, in insertion order. */
  inScope(scope: Scope): Entity[] {
    return [...this.rows.values()].filter((row) => keyOf(row.scope, '') === keyOf(scope, '')).map((row) => row.entity);
  }
}

/** The event log (the outbox) as an array. */
export class MemoryEventLog implements EventLog {
  readonly appended: { readonly scope: Scope; readonly event: StoredEvent }[] = [];

  async append(scope: Scope, event: StoredEvent): Promise<void> {
    this.appended.push({ scope, event });
  }

  async list(scope: Scope, query: ListQuery<EventColumn>): Promise<Page<StoredEvent>> {
    const rows = this.appended.filter((row) => keyOf(row.scope, '') === keyOf(scope, '')).map((row) => row.event);
    return page(rows, query, (event, column) => (column === 'id' ? event.id : event.eventType));
  }

  /** The event types appended in a scope, in order. */
  typesIn(scope: Scope): string[] {
    return this.appended.filter((row) => keyOf(row.scope, '') === keyOf(scope, '')).map((row) => row.event.eventType);
  }
}

/** The repositories `slice` as a store: its transaction runs the work on the same repositories. */
export function storeOf<Slice extends object>(slice: Slice): StoreOf<Slice> {
  return { ...slice, transaction: (work) => work(slice) };
}

/** A clock that stands still until moved. */
export function fixedClock(startsAt: string): Clock & { advance(milliseconds: number): void } {
  let now = Date.parse(startsAt);
  return {
    now: () => now,
    advance(milliseconds) {
      now += milliseconds;
    },
  };
}

/** Ids `prefix_` + a counter, padded so they sort in the order made. */
export function countingIds(): IdGenerator {
  let made = 0;
  return { newId: (prefix: IdPrefix) => `${prefix}_${String(++made).padStart(26, '0')}` };
}

export const ACCOUNT: Account = {
  id: 'acc_01',
  name: 'Memory tests',
  earlyAccess: false,
  createdAt: '2026-01-01T00:00:00.000Z',
};
export const LIVE: Caller = { account: ACCOUNT, scope: { accountId: ACCOUNT.id, environment: 'live' } };

/**
 * A `UseCaseBase` over a store of one slice, as the use-case root builds one over the whole store:
 * every caller's context is on `clock`; `accounts` are the accounts that exist.
 */
export function memoryBase<Slice extends object>(
  store: StoreOf<Slice>,
  clock: Clock,
  accounts: readonly Account[] = [ACCOUNT],
): UseCaseBase<Context<Slice>> {
  const ids = countingIds();
  const contextOn = (caller: Caller, on: Clock): Context<Slice> => ({
    store,
    ids,
    clock: on,
    scope: caller.scope,
    account: caller.account,
  });
  const find = (scope: Scope) => accounts.find((account) => account.id === scope.accountId);
  return {
    store,
    ids,
    wallClock: clock,
    contextOn,
    contextFor: async (caller) => contextOn(caller, clock),
    contextOf: async (scope) => {
      const account = find(scope);
      return account && contextOn({ account, scope }, clock);
    },
    contextAt: async (scope, on) => {
      const account = find(scope);
      return account && contextOn({ account, scope }, on);
    },
    bind:
      (useCase) =>
      async (caller, ...args) =>
        useCase(contextOn(caller, clock), ...args),
  };
}
