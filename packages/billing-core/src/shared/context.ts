/**
 * @module
 * What a use case runs with. `Context<R>` is generic in the repositories it may use: each
 * feature names its slice `R` beside its repositories (`usage/repositories.ts`, …), and the
 * whole store (`../store.ts`) is the intersection of the slices.
 */
import type { Clock } from './clock.js';
import { toTimestamp } from './clock.js';
import type { IdGenerator } from './ids.js';
import type { Account, Scope } from './scope.js';

/** Runs work atomically: every write in it, outbox rows included, commits together or not at all. */
export interface Transactional<R> {
  transaction<T>(work: (tx: R) => Promise<T>): Promise<T>;
}

/** The repositories `R`, each reading outside any transaction, and a transaction over them. */
export type StoreOf<R> = R & Transactional<R>;

/** What every use case runs with: who is asking, where, and the repositories `R` it may use. */
export interface Context<R> {
  readonly store: StoreOf<R>;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly scope: Scope;
  readonly account: Account;
}

/** A context without its store: what writing an event or a timestamp needs. */
export type Ambient = Pick<Context<unknown>, 'clock' | 'ids' | 'scope'>;

/** The current instant as wire text. */
export function nowTimestamp(context: Pick<Context<unknown>, 'clock'>): string {
  return toTimestamp(context.clock.now());
}
