/**
 * @module
 * The generic shape of a stored collection of one kind of entity, and the error an adapter
 * throws when a write breaks a unique index. Feature ports build on it.
 */
import type { ListQuery, Page } from './pagination.js';
import type { Scope } from './scope.js';

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
