/**
 * @module
 * A fresh PostgreSQL database per test file, so files run in parallel without sharing rows: empty,
 * or already migrated (a copy of one migrated template database per test run).
 */
import { randomBytes } from 'node:crypto';
import { openStore } from '@drawdown/billing-store';
import pg from 'pg';
import { inject } from 'vitest';

export interface TestDatabase {
  readonly url: string;
  drop(): Promise<void>;
}

export interface TestDatabaseOptions {
  /**
   * A database with every migration applied, copied from the run's template (see
   * `migratedTemplate`) instead of migrated from scratch: about 0.1 s instead of 1-1.5 s. Only
   * for tests that open it with migrations applied anyway (the harness, `openTestStore`); a test
   * of migrating itself takes the default, an empty database.
   */
  readonly migrated?: boolean;
}

export async function createPostgresTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const serverUrl = inject('postgresUrl');
  // Named with the run's tag, so the run's teardown finds any its workers left (see `dispose` in engines.ts).
  const name = `drawdown_test_${inject('postgresRun')}_${randomBytes(6).toString('hex')}`;
  if (options.migrated) {
    const template = await migratedTemplate(serverUrl);
    await withAdmin(serverUrl, (client) => createFromTemplate(client, name, template));
  } else {
    await withAdmin(serverUrl, (client) => client.query(`create database ${name}`));
  }
  return {
    url: databaseUrl(serverUrl, name),
    drop: () => withAdmin(serverUrl, (client) => client.query(`drop database if exists ${name} with (force)`)),
  };
}

function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

let template: Promise<string> | undefined;

/**
 * The run's migrated template database (named by the run's tag, dropped by its teardown),
 * made by the first worker that needs it: the others wait on an advisory lock, then find it. It is
 * migrated by the store's own `openStore`, exactly as a fresh database would be; a template left
 * half-migrated by a killed worker is still correct to copy, since every copy is opened with
 * pending migrations applied.
 */
function migratedTemplate(serverUrl: string): Promise<string> {
  template ??= (async () => {
    const name = `drawdown_template_${inject('postgresRun')}`;
    await withAdmin(serverUrl, async (client) => {
      await client.query('select pg_advisory_lock(hashtext($1))', [name]);
      try {
        const found = await client.query('select 1 from pg_database where datname = $1', [name]);
        if (found.rowCount === 0) {
          await client.query(`create database ${name}`);
          const store = await openStore({ engine: 'postgres', url: databaseUrl(serverUrl, name) });
          await store.close();
        }
      } finally {
        await client.query('select pg_advisory_unlock(hashtext($1))', [name]);
      }
    });
    return name;
  })();
  template.catch(() => {
    template = undefined;
  });
  return template;
}

/** Copies the template; PostgreSQL refuses while another session is connected to it, briefly, so it tries again. */
async function createFromTemplate(client: pg.Client, name: string, from: string): Promise<void> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      await client.query(`create database ${name} template ${from}`);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== '55006' || attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

async function withAdmin(serverUrl: string, work: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}
