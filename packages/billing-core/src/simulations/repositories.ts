/**
 * @module
 * Storage ports of webhook simulations, their runs and the events of each run (ADR 1301).
 */
import type { CatalogueRepositories } from '../catalogue/repositories.js';
import type { NotificationSlice } from '../notifications/repositories.js';
import type { Collection } from '../shared/collection.js';
import type { Scope } from '../shared/scope.js';
import type { SubscriptionRepositories } from '../subscriptions/repositories.js';
import type { TransactionRepositories } from '../transactions/repositories.js';
import type { Simulation, SimulationRun, SimulationRunEvent } from './simulation.js';

export type SimulationColumn = 'id' | 'notification_setting_id' | 'status';

export type SimulationRunColumn = 'id' | 'simulation_id';

export type SimulationRunEventColumn = 'id' | 'simulation_id' | 'simulation_run_id';

export interface SimulationRunRepository extends Collection<SimulationRun, SimulationRunColumn> {
  /** Runs of any scope due at or before `now`, oldest first, held until commit (skipped when locked). */
  claimDue(now: string, limit: number): Promise<readonly { readonly scope: Scope; readonly run: SimulationRun }[]>;
  /** Whether any run is due at or before `now` (a plain read, so an idle worker takes no lock). */
  hasDue(now: string): Promise<boolean>;
}

export interface SimulationRunEventRepository extends Collection<SimulationRunEvent, SimulationRunEventColumn> {
  /** Every event of a run in sequence order. */
  listByRun(scope: Scope, runId: string): Promise<readonly SimulationRunEvent[]>;
}

/** What an account environment spent by the hour: `hour` counts hours since the epoch. */
export interface SpendingHour {
  readonly hour: number;
  readonly events: number;
  readonly bytes: number;
}

/** What one account environment sent recently, by the wall clock. */
export interface SimulationSpending {
  readonly id: string;
  /** When each run or replay of the last hour was asked for (epoch milliseconds), oldest first. */
  readonly sends: readonly number[];
  /** Events and bytes of the last 24 hours, one entry per hour that had any, oldest first. */
  readonly hours: readonly SpendingHour[];
}

export interface SimulationSpendingRepository {
  /** The scope's spending, locked until the transaction ends; an empty one when none is stored. */
  lockSpending(scope: Scope): Promise<SimulationSpending>;
  saveSpending(scope: Scope, spending: SimulationSpending): Promise<void>;
}

/** The repositories simulations own. */
export interface SimulationRepositories {
  readonly simulations: Collection<Simulation, SimulationColumn>;
  readonly simulationRuns: SimulationRunRepository;
  readonly simulationRunEvents: SimulationRunEventRepository;
  /** What each account environment's simulations sent recently, for their budget (ADR 1486). */
  readonly simulationSpending: SimulationSpendingRepository;
}

/**
 * What simulations use: their repositories, notification settings (their destinations), and the
 * catalogue entities, subscriptions, transactions and adjustments whose wire form fills their payloads.
 */
export interface SimulationSlice
  extends SimulationRepositories,
    NotificationSlice,
    CatalogueRepositories,
    Pick<SubscriptionRepositories, 'subscriptions'>,
    Pick<TransactionRepositories, 'transactions' | 'adjustments'> {}
