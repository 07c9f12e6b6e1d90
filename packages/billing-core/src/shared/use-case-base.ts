/**
 * @module
 * What each feature's use-case factory is given (`usage/usage-use-cases.ts`, …): the store seen
 * as the feature's slice and the way to an operation context. The use-case root (`../use-cases.ts`)
 * builds one over the whole store and hands it to every factory, each typed by its own context.
 */
import type { Clock } from './clock.js';
import type { Context } from './context.js';
import type { IdGenerator } from './ids.js';
import type { Account, Environment, Scope } from './scope.js';

/** Who asks: an authenticated account in one environment. */
export interface Caller {
  readonly scope: Scope;
  readonly account: Account;
}

/** The ports and contexts every feature's use cases are bound with; `C` is the feature's context. */
export interface UseCaseBase<C extends Context<unknown>> {
  readonly store: C['store'];
  readonly ids: IdGenerator;
  /** The wall clock: live time, and what every sandbox clock runs ahead of. */
  readonly wallClock: Clock;
  /** The context of a caller, on its environment's clock (ADR 0006). */
  contextFor(caller: Caller): Promise<C>;
  /** The context of a caller on a given clock (a sandbox jump, due work on an account's clock). */
  contextOn(caller: Caller, clock: Clock): C;
  /** The context of an account environment; undefined when the account does not exist. */
  contextOf(scope: Scope): Promise<C | undefined>;
  /** The context of an account environment on a given clock; undefined when the account does not exist. */
  contextAt(scope: Scope, clock: Clock): Promise<C | undefined>;
  /** Binds a core use case `(context, ...args)` to the ports: `(caller, ...args)`. */
  bind<Args extends unknown[], Result>(
    useCase: (context: C, ...args: Args) => Promise<Result>,
  ): (caller: Caller, ...args: Args) => Promise<Result>;
}

/** One kind of time-driven work: which accounts it is due for, and doing it for one (`runDueWork`). */
export interface DueWorkKind<C> {
  /** The accounts of `environment` with this work due at or before `until`. */
  findDueAccounts(environment: Environment, until: string): Promise<readonly string[]>;
  /** Does the work due in one account environment, on its clock: how many items it handled. */
  run(context: C): Promise<number>;
}
