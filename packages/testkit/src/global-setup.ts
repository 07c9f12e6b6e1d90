import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { findOrStartPostgres, type PostgresServer } from './postgres-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
    /** The run's migrated template database (`createPostgresTestDatabase({ migrated: true })`), made on first use. */
    postgresTemplate: string;
  }
}

let server: PostgresServer | undefined;
let template: string | undefined;

export async function setup(project: TestProject): Promise<void> {
  server = await findOrStartPostgres();
  project.provide('postgresUrl', server.url);
  // One per run, so runs side by side on one server (and a run's changed migrations) never share it.
  template = `drawdown_template_${randomBytes(6).toString('hex')}`;
  project.provide('postgresTemplate', template);
}

export async function teardown(): Promise<void> {
  if (server && template) {
    const client = new pg.Client({ connectionString: server.url });
    try {
      await client.connect();
      await client.query(`drop database if exists ${template} with (force)`);
    } finally {
      await client.end().catch(() => {});
    }
  }
  await server?.stop();
}
