/**
 * Backups as docs/deployment.md tells an operator to take them, while `drawdown serve` runs and
 * writes: `drawdown backup FILE` on SQLite (the online backup API), `pg_dump --format=custom` and
 * `pg_restore` on PostgreSQL. The backup taken under load is a consistent database holding every
 * event answered before it began; restored into a fresh place and served, every table equals the
 * original's, row for row.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type SqlDatabase } from '@drawdown/billing-store';
import {
  createPostgresTestDatabase,
  createTestStorage,
  ENGINES,
  storeConfigOf,
  type TestDatabase,
  type TestStorage,
} from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../support/api-client.js';
import {
  buildService,
  createAccountWithCli,
  runCli,
  type ServiceProcess,
  type StorageFlags,
  startServiceProcess,
} from '../usage/service-process.js';

function open(storage: StorageFlags): SqlDatabase {
  return openDatabase(storeConfigOf(storage, { maxConnections: 1 }));
}

/** Every table's rows, in a stable order, as JSON text. */
async function snapshot(database: SqlDatabase): Promise<Record<string, string>> {
  const tables =
    database.dialect === 'postgres'
      ? await database.all<{ name: string }>(
          'select tablename as name from pg_tables where schemaname = current_schema() order by tablename',
        )
      : await database.all<{ name: string }>(
          "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name",
        );
  const result: Record<string, string> = {};
  for (const { name } of tables) {
    const rows = await database.all<Record<string, unknown>>(`select * from ${name}`);
    result[name] = JSON.stringify(
      rows
        .map((row) => JSON.stringify(row, (_key, value) => (typeof value === 'bigint' ? String(value) : value)))
        .sort(),
    );
  }
  return result;
}

async function waitUntilIdle(database: SqlDatabase): Promise<void> {
  for (let attempt = 0; attempt < 500; attempt += 1) {
    const row = await database.get<{ pending: number | string }>('select count(*) as pending from usage_pending');
    if (Number(row?.pending) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('drawdowns did not drain');
}

describe.each(ENGINES)('%s: backup and restore while serving', (engine) => {
  let storage: TestStorage;
  const restoredDatabases: TestDatabase[] = [];
  const restoredDir = mkdtempSync(join(tmpdir(), 'drawdown-restored-'));
  const backupDir = mkdtempSync(join(tmpdir(), 'drawdown-backup-'));
  const opened: SqlDatabase[] = [];
  const services: ServiceProcess[] = [];

  beforeAll(async () => {
    buildService();
    storage = await createTestStorage(engine);
  }, 180_000);
  afterAll(async () => {
    for (const service of services) await service.stop('SIGKILL');
    for (const database of opened) await database.close();
    for (const database of restoredDatabases) await database.drop();
    await storage?.dispose();
    rmSync(restoredDir, { recursive: true, force: true });
    rmSync(backupDir, { recursive: true, force: true });
  });

  it('takes a consistent backup under load, and a restore equals the original table by table', async () => {
    const { sandboxKey } = await createAccountWithCli(storage);
    const service = await startServiceProcess(storage, sandboxKey);
    services.push(service);
    const api = apiClient(service.sandboxUrl, sandboxKey);
    const unitId = (await api.post('/usage-balance-units', { name: 'Credits', unit_name: 'credits' })).id;
    const action = 'backup_call';
    await api.post('/meters', { usage_balance_unit_id: unitId, name: 'Calls', action, unit_name: 'call', rate: '1' });
    for (let index = 0; index < 5; index += 1)
      await api.post('/products', { name: `Plan ${index}`, tax_category: 'saas' });
    const customerId = (await api.post('/customers', { email: 'backup@example.com' })).id;
    const occurredAt = new Date().toISOString();
    const send = (key: string) =>
      api.post('/usage-events', {
        events: [{ event_key: key, customer_id: customerId, action, quantity: '1', occurred_at: occurredAt }],
      });

    // Usage streams in while the backup is taken.
    const answeredBeforeBackup: string[] = [];
    for (let index = 0; index < 20; index += 1) {
      await send(`before-${index}`);
      answeredBeforeBackup.push(`before-${index}`);
    }
    let streaming = true;
    const stream = (async () => {
      for (let index = 0; streaming; index += 1) await send(`during-${index}`);
    })();
    const backup = async (name: string): Promise<string> => {
      const file = join(backupDir, name);
      if (engine === 'sqlite') {
        const result = await runCli(['backup', file], storage);
        expect(result.backup).toMatchObject({ file });
      } else {
        execFileSync('pg_dump', ['--format=custom', '--file', file, storage.databaseUrl ?? '']);
      }
      return file;
    };
    const restore = async (file: string, into: string): Promise<StorageFlags> => {
      if (engine === 'sqlite') {
        copyFileSync(file, join(into, 'drawdown.sqlite'));
        return { dataDir: into, databaseUrl: undefined };
      }
      const database = await createPostgresTestDatabase();
      restoredDatabases.push(database);
      execFileSync('pg_restore', ['--no-owner', '--dbname', database.url, file]);
      return { dataDir: into, databaseUrl: database.url };
    };
    const underLoad = await backup('under-load.backup');
    streaming = false;
    await stream;

    // The backup taken under load is a sound database with every event answered before it began.
    const loadRestore = open(await restore(underLoad, mkdtempSync(join(restoredDir, 'load-'))));
    opened.push(loadRestore);
    if (engine === 'sqlite') expect(await loadRestore.get('pragma integrity_check')).toEqual({ integrity_check: 'ok' });
    const keysInLoadRestore = new Set(
      (await loadRestore.all<{ event_key: string }>('select event_key from usage_events')).map((row) => row.event_key),
    );
    expect(answeredBeforeBackup.filter((key) => !keysInLoadRestore.has(key))).toEqual([]);

    // Once the writes have stopped (the server still runs, its WAL not checkpointed), a backup
    // restores to a database equal to the original in every table, and the service runs on it.
    const original = open(storage);
    opened.push(original);
    await waitUntilIdle(original);
    const quiet = await backup('quiet.backup');
    const restored = await restore(quiet, mkdtempSync(join(restoredDir, 'quiet-')));
    const restoredDb = open(restored);
    opened.push(restoredDb);
    const originalTables = await snapshot(original);
    expect(Object.keys(originalTables)).toEqual(
      expect.arrayContaining(['accounts', 'usage_events', 'schema_migrations']),
    );
    expect(await snapshot(restoredDb)).toEqual(originalTables);

    await service.stop('SIGTERM');
    const restoredService = await startServiceProcess(restored, sandboxKey);
    services.push(restoredService);
    expect((await apiClient(restoredService.sandboxUrl, sandboxKey).get('/products')).list).toHaveLength(5);
  }, 180_000);
});
