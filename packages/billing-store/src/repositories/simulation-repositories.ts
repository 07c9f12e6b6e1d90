/**
 * @module
 * Simulations, runs and run events as documents. Runs add a due-run claim across scopes
 * (`SKIP LOCKED` on PostgreSQL; SQLite's write transaction excludes other writers), and run
 * events a list of one run in order (ids are monotonic, so id order is creation order). Each
 * account environment's simulation spending is one row, created on first use and locked by
 * every run and replay that charges it (ADR 1486).
 */
import {
  type Environment,
  emptySimulationSpending,
  type Scope,
  type Simulation,
  type SimulationColumn,
  type SimulationRun,
  type SimulationRunColumn,
  type SimulationRunEvent,
  type SimulationRunEventColumn,
  type SimulationRunEventRepository,
  type SimulationRunRepository,
  type SimulationSpending,
  type SimulationSpendingRepository,
} from '@drawdown/billing-core';
import { forUpdate, type SqlExecutor } from '../sql/sql-database.js';
import { DocumentCollection, type DocumentTableSpec } from './document-collection.js';

export const simulationsTable: DocumentTableSpec<Simulation, SimulationColumn> = {
  table: 'simulations',
  columns: {
    notification_setting_id: (simulation) => simulation.notificationSettingId,
    status: (simulation) => simulation.status,
  },
};

const runsTable: DocumentTableSpec<SimulationRun, SimulationRunColumn | 'due_at'> = {
  table: 'simulation_runs',
  columns: { simulation_id: (run) => run.simulationId, due_at: (run) => run.dueAt },
};

const runEventsTable: DocumentTableSpec<SimulationRunEvent, SimulationRunEventColumn> = {
  table: 'simulation_run_events',
  columns: { simulation_id: (event) => event.simulationId, simulation_run_id: (event) => event.simulationRunId },
};

export class SqlSimulationRunRepository
  extends DocumentCollection<SimulationRun, SimulationRunColumn>
  implements SimulationRunRepository
{
  constructor(private readonly sql: SqlExecutor) {
    super(sql, runsTable as DocumentTableSpec<SimulationRun, SimulationRunColumn>);
  }

  async claimDue(now: string, limit: number): Promise<readonly { scope: Scope; run: SimulationRun }[]> {
    const lock = this.sql.dialect === 'postgres' ? ' for update skip locked' : '';
    const rows = await this.sql.all<{ account_id: string; environment: Environment; body: string }>(
      `select account_id, environment, body from simulation_runs where due_at is not null and due_at <= ?
       order by due_at, id limit ?${lock}`,
      [now, limit],
    );
    return rows.map((row) => ({
      scope: { accountId: row.account_id, environment: row.environment },
      run: JSON.parse(row.body) as SimulationRun,
    }));
  }

  async hasDue(now: string): Promise<boolean> {
    const row = await this.sql.get(
      'select 1 as due from simulation_runs where due_at is not null and due_at <= ? limit 1',
      [now],
    );
    return row !== undefined;
  }
}

export class SqlSimulationRunEventRepository
  extends DocumentCollection<SimulationRunEvent, SimulationRunEventColumn>
  implements SimulationRunEventRepository
{
  constructor(private readonly sql: SqlExecutor) {
    super(sql, runEventsTable);
  }

  async listByRun(scope: Scope, runId: string): Promise<readonly SimulationRunEvent[]> {
    const rows = await this.sql.all<{ body: string }>(
      `select body from simulation_run_events where account_id = ? and environment = ? and simulation_run_id = ?
       order by id`,
      [scope.accountId, scope.environment, runId],
    );
    return rows.map((row) => JSON.parse(row.body) as SimulationRunEvent);
  }
}

export function simulationsCollection(executor: SqlExecutor): DocumentCollection<Simulation, SimulationColumn> {
  return new DocumentCollection(executor, simulationsTable);
}

export class SqlSimulationSpendingRepository implements SimulationSpendingRepository {
  constructor(private readonly sql: SqlExecutor) {}

  async lockSpending(scope: Scope): Promise<SimulationSpending> {
    // Created empty first, so the lock below always has a row to hold, even for a first run.
    await this.sql.run(
      'insert into simulation_spending (account_id, environment, body) values (?, ?, ?) on conflict do nothing',
      [scope.accountId, scope.environment, JSON.stringify(emptySimulationSpending())],
    );
    const row = await this.sql.get<{ body: string }>(
      `select body from simulation_spending where account_id = ? and environment = ?${forUpdate(this.sql.dialect)}`,
      [scope.accountId, scope.environment],
    );
    if (!row)
      throw new Error(`The simulation spending of ${scope.accountId}/${scope.environment} could not be created`);
    return JSON.parse(row.body) as SimulationSpending;
  }

  async saveSpending(scope: Scope, spending: SimulationSpending): Promise<void> {
    await this.sql.run('update simulation_spending set body = ? where account_id = ? and environment = ?', [
      JSON.stringify(spending),
      scope.accountId,
      scope.environment,
    ]);
  }
}
