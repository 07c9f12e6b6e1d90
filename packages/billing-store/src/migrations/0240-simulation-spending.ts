import type { Migration } from './migration.js';

/**
 * What each account environment's webhook simulations sent recently (ADR 1486): one small
 * document per account and environment, locked by every run and replay that charges its budget.
 */
export const simulationSpending: Migration = {
  id: '0240-simulation-spending',
  statements: () => [
    `create table simulation_spending (
  account_id text not null,
  environment text not null,
  body text not null,
  primary key (account_id, environment)
)`,
  ],
};
