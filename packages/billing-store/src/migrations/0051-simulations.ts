import type { Migration } from './migration.js';
import { documentTable } from './migration.js';

/**
 * Webhook simulations, their runs and run events, as documents (ADR 1301). A run's `due_at`
 * says when a delivery worker should take it: the epoch for at once, a lease while claimed,
 * null once nothing of it is left to send.
 */
export const simulations: Migration = {
  id: '0051-simulations',
  statements: () => [
    documentTable('simulations', ['notification_setting_id', 'status']),
    'create index simulations_by_setting on simulations (account_id, environment, notification_setting_id, id)',
    documentTable('simulation_runs', ['simulation_id', 'due_at']),
    'create index simulation_runs_by_simulation on simulation_runs (account_id, environment, simulation_id, id)',
    'create index simulation_runs_due on simulation_runs (due_at) where due_at is not null',
    documentTable('simulation_run_events', ['simulation_id', 'simulation_run_id']),
    'create index simulation_run_events_by_run on simulation_run_events (account_id, environment, simulation_run_id, id)',
  ],
};
