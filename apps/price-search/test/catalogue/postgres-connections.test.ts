import { createPostgresTestDatabase } from '@drawdown/testkit';
import pg from 'pg';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { PostgresCatalogue } from '../../src/catalogue/postgres-catalogue.js';

/** Backends connected to the database of `url`, this check's own left out. */
async function backends(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ count: string }>(
      'SELECT count(*) AS count FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    return Number(rows[0]?.count);
  } finally {
    await client.end();
  }
}

describe('PostgresCatalogue connections (ADR 0232)', () => {
  it('keeps the connections prepare opened and warmed through a quiet spell', async () => {
    const database = await createPostgresTestDatabase();
    onTestFinished(() => database.drop());
    // The pool's idle timers are the faked ones: a minute of quiet passes at once.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const catalogue = await PostgresCatalogue.open(database.url, { maxConnections: 3 });
    onTestFinished(() => catalogue.close());
    await catalogue.prepare();
    vi.advanceTimersByTime(60_000);
    vi.useRealTimers();
    // A connection the pool let go would end within moments; give it time to.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await backends(database.url)).toBe(3);
  });
});
