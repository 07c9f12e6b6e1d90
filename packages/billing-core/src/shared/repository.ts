/**
 * @module
 * The storage ports. Adapters implement them for SQLite and PostgreSQL
 * (`@drawdown/billing-store`); the core sees only these interfaces.
 */
import type { Account, ApiKey } from '../access/account.js';
import type { Address, Customer, Meter, Price, Product, UsageBalanceUnit } from '../catalogue/entities.js';
import type { StoredEvent } from '../events/stored-event.js';
import type { ListQuery, Page } from './pagination.js';
import type { Environment, Scope } from './scope.js';

/** Thrown by an adapter when an insert or update breaks a unique index. */
export class DuplicateKeyError extends Error {
  override readonly name = 'DuplicateKeyError';
}

/** A collection of one kind of entity, filterable on a few promoted columns. */
export interface Collection<Entity extends { readonly id: string }, Column extends string> {
  /** @throws DuplicateKeyError when a unique index of the collection is broken. */
  insert(scope: Scope, entity: Entity): Promise<void>;
  /** @throws DuplicateKeyError when a unique index of the collection is broken. */
  update(scope: Scope, entity: Entity): Promise<void>;
  findById(scope: Scope, id: string): Promise<Entity | undefined>;
  /** Like findById, and inside a transaction holds the row until commit. */
  findByIdForUpdate(scope: Scope, id: string): Promise<Entity | undefined>;
  list(scope: Scope, query: ListQuery<Column>): Promise<Page<Entity>>;
}

export type ProductColumn = 'id' | 'status' | 'type' | 'tax_category';
export type PriceColumn = 'id' | 'product_id' | 'status' | 'type' | 'recurring';
export type CustomerColumn = 'id' | 'status' | 'email' | 'search';
export type AddressColumn = 'id' | 'customer_id' | 'status';
export type UsageBalanceUnitColumn = 'id' | 'status';
export type MeterColumn = 'id' | 'status' | 'usage_balance_unit_id' | 'action';
export type EventColumn = 'id' | 'event_type';

export interface AccountRepository {
  insert(account: Account): Promise<void>;
  findById(id: string): Promise<Account | undefined>;
  list(): Promise<readonly Account[]>;
}

export interface ApiKeyRepository {
  insert(key: ApiKey): Promise<void>;
  findById(id: string): Promise<ApiKey | undefined>;
  /** Marks the key revoked at `revokedAt`; false when no such key exists. */
  revoke(id: string, revokedAt: string): Promise<boolean>;
  listByAccount(accountId: string, environment?: Environment): Promise<readonly ApiKey[]>;
}

export interface EventLog {
  /** Appends an event in the current transaction: the outbox row of the change that caused it. */
  append(scope: Scope, event: StoredEvent): Promise<void>;
  list(scope: Scope, query: ListQuery<EventColumn>): Promise<Page<StoredEvent>>;
}

export interface Repositories {
  readonly accounts: AccountRepository;
  readonly apiKeys: ApiKeyRepository;
  readonly products: Collection<Product, ProductColumn>;
  readonly prices: Collection<Price, PriceColumn>;
  readonly customers: Collection<Customer, CustomerColumn>;
  readonly addresses: Collection<Address, AddressColumn>;
  readonly usageBalanceUnits: Collection<UsageBalanceUnit, UsageBalanceUnitColumn>;
  readonly meters: Collection<Meter, MeterColumn>;
  readonly events: EventLog;
}

/**
 * The whole store. Its own repositories read outside any transaction; `transaction` runs
 * work atomically: every write in it, outbox rows included, commits together or not at all.
 */
export interface Store extends Repositories {
  transaction<T>(work: (tx: Repositories) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
