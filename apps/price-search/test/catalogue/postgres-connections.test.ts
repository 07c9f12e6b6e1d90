import { createPostgresTestDatabase } from '@drawdown/testkit';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { PostgresCatalogue } from '../../src/catalogue/postgres-catalogue.js';
import { queryDatabase } from '../support/catalogue-engines.js';

/** Backends connected to the database of `url`, the check's own left out. */
async function backends(url: string): Promise<number> {
  const [row] = await queryDatabase<{ count: string }>(
    url,
    'SELECT count(*) AS count FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
  );
  return Number(row?.count);
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
