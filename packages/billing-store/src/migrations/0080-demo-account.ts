/**
 * @module
 * The installation's demo account, recorded once: a single-row table whose primary key makes
 * two first starts racing on one database create one demo account between them (ADR 1403).
 */
import type { Migration } from './migration.js';

export const demoAccount: Migration = {
  id: '0080-demo-account',
  statements: () => [
    `create table demo_account (
  singleton integer primary key check (singleton = 1),
  account_id text not null references accounts (id),
  created_at text not null
)`,
  ],
};
