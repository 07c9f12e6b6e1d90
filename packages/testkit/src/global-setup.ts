import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { findOrStartPostgres, type PostgresServer } from './postgres-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
    /**
     * The run's tag: its migrated template database (`createPostgresTestDatabase({ migrated: true })`,
     * made on first use) and its test databases are named with it, and dropped by the teardown.
     */
    postgresRun: string;
  }
}

let server: PostgresServer | undefined;
let run: string | undefined;

export async function setup(project: TestProject): Promise<void> {
  server = await findOrStartPostgres();
  project.provide('postgresUrl', server.url);
  // One per run, so runs side by side on one server (and a run's changed migrations) never share a template.
  run = randomBytes(6).toString('hex');
  project.provide('postgresRun', run);
}

export async function teardown(): Promise<void> {
  if (server && run) {
    // The template, and any test database whose background drop the end of its worker cut short.
    const client = new pg.Client({ connectionString: server.url });
    try {
      await client.connect();
      const left = await client.query<{ datname: string }>(
        'select datname from pg_database where datname = $1 or datname like $2',
        [`drawdown_template_${run}`, `drawdown\\_test\\_${run}\\_%`],
      );
      for (const { datname } of left.rows) await client.query(`drop database if exists ${datname} with (force)`);
    } finally {
      await client.end().catch(() => {});
    }
  }
  await server?.stop();
}
